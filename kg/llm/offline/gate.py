"""The learned gate between the candidates and the graph: is a candidate a real finding of its
type?

The rules (and the model, in openai mode) propose candidate nodes; the gate scores each with a
logistic regression over the multilingual sentence encoder's vectors of the candidate's label
and of its quote (so what it learned from English labels carries over to Russian ones) and a
few features the rules already know: the type, the label's length in words, whether it is one
generic noun, whether it holds digits or a redaction mask, whether it is a name. A candidate
scored under the threshold is dropped with the relations that touch it.

The weights, the threshold and how they were made (data hash, library versions) are in
gate_weights.json, written by kg.realdata.gate_training (`make gate`) from the dev splits'
annotations only. It judges only the types the training data held at least 20 real and 20
false candidates of (features and pains today): the others pass untouched, as does the product
itself. `EXTRACTION_GATE=true` turns the gate on (off by default: see the README's section).
Example: in "Drivers want a dark mode for night shifts" the rules' feature "mode" (one
generic word) scores low and is dropped; "dark mode" scores high and is kept.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from django.conf import settings

from kg.language import content_lemmas, encoder
from kg.language.lemmas import GENERIC
from kg.llm.offline.rule_words import GENERIC_NOUNS
from kg.llm.prompts.extraction_models import CandidateNode, ExtractionResponse

WEIGHTS_PATH = Path(__file__).with_name("gate_weights.json")
# The candidate types the gate knows, in the order of their one-hot columns.
TYPES = (
    "segment",
    "pain",
    "feature",
    "job",
    "alternative",
    "competitor",
    "metric",
    "goal",
    "risk",
    "insight",
    "market",
    "trigger",
)
_MASK = re.compile(r"X{2,}|\*{3,}|█", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
RULE_FEATURES = (
    "words_log",
    "one_word",
    "one_generic_noun",
    "content_lemmas_log",
    "has_digit",
    "has_mask",
    "capitalised",
    "label_in_quote",
    "label_share_of_quote",
    "russian",
    "ticket",
)


def rule_features(node: CandidateNode, language: str, records: str) -> list[float]:
    """The rules' own view of a candidate, in RULE_FEATURES order."""
    label = node.label.strip()
    words = label.split()
    lemmas = content_lemmas(label)
    one_generic = len(words) == 1 and (
        label.casefold() in GENERIC_NOUNS or bool(lemmas) and lemmas <= (GENERIC | GENERIC_NOUNS)
    )
    quote = node.quote.strip()
    return [
        math.log1p(len(words)),
        float(len(words) == 1),
        float(one_generic),
        math.log1p(len(lemmas)),
        float(bool(_DIGIT.search(label))),
        float(bool(_MASK.search(label))),
        float(label[:1].isupper()),
        float(label.casefold() in quote.casefold()),
        min(1.0, len(label) / max(1, len(quote))),
        float(language.lower().startswith("ru")),
        float(records == "bug_report"),
    ]


def features(nodes: list[CandidateNode], language: str, records: str) -> np.ndarray:
    """One row per candidate: label vector, quote vector, type one-hot, rule features.

    The labels and quotes of one message are encoded in one batch (the encoder caches them by
    the text's hash)."""
    if not nodes:
        return np.zeros((0, 2 * encoder.DIMENSIONS + len(TYPES) + len(RULE_FEATURES)))
    vectors = encoder.encode([n.label for n in nodes] + [n.quote for n in nodes])
    labels, quotes = vectors[: len(nodes)], vectors[len(nodes) :]
    types = np.array([[float(n.type == t) for t in TYPES] for n in nodes])
    rules = np.array([rule_features(n, language, records) for n in nodes])
    return np.hstack([labels.astype(np.float64), quotes.astype(np.float64), types, rules])


@dataclass(frozen=True)
class Gate:
    coefficients: np.ndarray
    intercept: float
    threshold: float
    types: frozenset[str]  # the types it judges: the others pass untouched

    def scores(self, rows: np.ndarray) -> np.ndarray:
        """The probability that each row is a real finding of its type."""
        return 1.0 / (1.0 + np.exp(-(rows @ self.coefficients + self.intercept)))


def gate_from(weights: dict) -> Gate:
    return Gate(
        coefficients=np.array(weights["coefficients"], dtype=np.float64),
        intercept=float(weights["intercept"]),
        threshold=float(weights["threshold"]),
        types=frozenset(weights["types"]),
    )


@lru_cache(maxsize=1)
def committed_gate() -> Gate | None:
    """The gate of the committed weights file; None when there is none yet."""
    if not WEIGHTS_PATH.exists():
        return None
    return gate_from(json.loads(WEIGHTS_PATH.read_text(encoding="utf-8")))


def enabled() -> bool:
    return bool(getattr(settings, "EXTRACTION_GATE", False))


def gate_answer(
    answer: ExtractionResponse, language: str, records: str, gate: Gate | None = None
) -> ExtractionResponse:
    """The answer less the candidates the gate scores under its threshold, and less the
    relations that touch them. Unchanged when the gate is off or has no weights."""
    gate = gate or (committed_gate() if enabled() else None)
    if gate is None or not answer.nodes:
        return answer
    judged = [n for n in answer.nodes if n.type in gate.types]
    if not judged:
        return answer
    scores = gate.scores(features(judged, language, records))
    dropped = {id(n) for n, s in zip(judged, scores, strict=True) if s < gate.threshold}
    if not dropped:
        return answer
    kept = [n for n in answer.nodes if id(n) not in dropped]
    gone = {n.ref for n in answer.nodes if id(n) in dropped}
    return ExtractionResponse(
        nodes=kept,
        relations=[r for r in answer.relations if r.source not in gone and r.target not in gone],
    )
