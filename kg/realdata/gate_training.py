"""Training the extraction gate (kg/llm/offline/gate.py) on the dev splits' annotations.

Every dev item of every annotated set (both languages) is read by the rules alone; each
candidate the evaluation scores is labelled by the evaluation's own matcher: a true positive
when it matches a gold node, a false positive otherwise. App-review pains are labelled by the
hand annotation of the first dev sample (a pain from a sentence that reports a problem is
real); the second sample stays untouched, a check of whether the gate carries over. No test
item is read. The rules were tuned on these same splits, so they hold few of the candidates the
gate is for (generic nouns, masks, the researchers' own activities): a short file of candidates
written by hand from those patterns (tests/kg/real/gate_patterns.json) is trained on beside them.

A logistic regression (scikit-learn, lbfgs: deterministic) is fitted on the candidates'
features; each set weighs as much as the others, whatever its size. Its regularisation and the
threshold are chosen on dev by grouped cross-validation (folds by item): the threshold that
maximises the mean over the sets (the hand-written patterns one of them) of F1, recall counted
against all of a set's gold. The figures on dev are therefore tuned on.

Written to gate_weights.json with floats rounded so that a rerun writes the same bytes, and
with the data hash and the library versions that made it.
"""

from __future__ import annotations

import hashlib
import json
import platform
from collections import Counter
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import numpy as np

from kg.language import encoder
from kg.llm.offline.extractor import load_models, propose_offline
from kg.llm.offline.gate import RULE_FEATURES, TYPES, WEIGHTS_PATH, features
from kg.llm.prompts.extraction_models import CandidateNode, ExtractionRequest
from kg.pipeline.extract import check_answer
from kg.realdata import datasets as sets
from kg.realdata.datasets import Item
from kg.realdata.extraction import SCORED_TYPES, match_nodes

DECIMALS = 5
REGULARISATIONS = (0.1, 0.3, 1.0)  # C of the logistic regression, chosen on dev
FOLDS = 5
THRESHOLDS = tuple(round(0.01 * i, 2) for i in range(1, 80))  # 0.01 … 0.79
SUBSET_ITEMS = 12  # items per set of the fast reproduction check
MIN_PER_CLASS = 20  # real and false candidates a type needs before the gate judges it
PATTERNS = "hand_written_patterns"
PATTERNS_FILE = "gate_patterns.json"


@dataclass(frozen=True)
class Example:
    dataset: str
    item: str
    language: str
    records: str
    node: CandidateNode
    real: bool


@dataclass(frozen=True)
class DevSet:
    name: str
    items: list[Item]
    types: tuple[str, ...] | None
    gold: int  # the gold nodes the set's items hold: recall's denominator


def dev_sets(datasets: Path, annotations: Path) -> list[DevSet]:
    """Every annotated dev split, as the extraction evaluation reads it."""
    reviews = sets.with_complaints(
        sets.app_review_sentences(datasets), annotations / "app_review_complaints_dev.json"
    )
    chosen = [
        (sets.APP_REVIEWS, reviews, SCORED_TYPES[sets.APP_REVIEWS]),
        (sets.USER_STORIES, sets.user_stories(datasets), None),
        (
            sets.RU_VSCODE,
            sets.ru_vscode_issues(datasets, annotations / "ru_vscode_dev.json"),
            None,
        ),
        (
            sets.RU_VSCODE_EXTRA,
            sets.ru_vscode_extra_issues(annotations / "ru_vscode_extra_dev.json"),
            None,
        ),
        (
            sets.SEAMONKEY,
            sets.seamonkey_reports(datasets, annotations / "seamonkey_dev.json"),
            None,
        ),
        (
            sets.SEAMONKEY_RU,
            sets.annotated_tickets(annotations / "seamonkey_dev_ru.json", "ru"),
            None,
        ),
        (sets.HADOOP, sets.hadoop_reports(datasets, annotations / "hadoop_dev.json"), None),
    ]
    found = []
    for name, items, types in chosen:
        dev = [i for i in items if i.split == "dev"]
        if dev:
            found.append(DevSet(name, dev, types, sum(len(i.gold) for i in dev)))
    return found


def examples_of(dev: DevSet, limit: int | None = None) -> list[Example]:
    """The scored candidates of a set's dev items, each labelled real or not."""
    examples = []
    for item in dev.items[:limit]:
        request = ExtractionRequest(
            text=item.text, language=item.language, product="", records=item.records
        )
        nodes = check_answer(item.text, propose_offline(request)).nodes
        _, scored = match_nodes(item, nodes, dev.types)
        for node, real in scored:
            examples.append(Example(dev.name, item.id, item.language, item.records, node, real))
        if item.complaint is not None:
            # the hand-annotated sample: a pain is real when its sentence reports a problem
            for accepted in nodes:
                if accepted.candidate.type == "pain":
                    examples.append(
                        Example(
                            dev.name,
                            item.id,
                            item.language,
                            item.records,
                            accepted.candidate,
                            item.complaint,
                        )
                    )
    return examples


def data_hash(examples: list[Example]) -> str:
    rows = [
        [e.dataset, e.item, e.language, e.records, e.node.type, e.node.label, e.node.quote, e.real]
        for e in examples
    ]
    text = json.dumps([encoder.ENCODER, *rows], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _matrix(examples: list[Example]) -> np.ndarray:
    """Feature rows, encoded item by item as the gate encodes them at run time."""
    rows = []
    start = 0
    while start < len(examples):
        end = start
        key = (examples[start].dataset, examples[start].item)
        while end < len(examples) and (examples[end].dataset, examples[end].item) == key:
            end += 1
        first = examples[start]
        rows.append(features([e.node for e in examples[start:end]], first.language, first.records))
        start = end
    return np.vstack(rows)


def _sample_weights(examples: list[Example]) -> np.ndarray:
    """Each set weighs as much as any other: the stories' thousands of sure candidates do not
    drown the tickets' few hundred."""
    names = [e.dataset for e in examples]
    counts = {n: names.count(n) for n in set(names)}
    share = len(examples) / len(counts)
    return np.array([share / counts[n] for n in names])


def _fit(rows: np.ndarray, real: np.ndarray, weights: np.ndarray, regularisation: float):
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=regularisation, solver="lbfgs", max_iter=2000, tol=1e-6)
    model.fit(rows, real, sample_weight=weights)
    return model


def _cross_validated(
    examples: list[Example], rows: np.ndarray, real: np.ndarray, regularisation: float
) -> np.ndarray:
    """Each example's probability from a model fitted without its item's fold."""
    from sklearn.model_selection import GroupKFold

    groups = [f"{e.dataset}:{e.item}" for e in examples]
    weights = _sample_weights(examples)
    scores = np.zeros(len(examples))
    for fitting, held in GroupKFold(n_splits=FOLDS).split(rows, real, groups):
        model = _fit(rows[fitting], real[fitting], weights[fitting], regularisation)
        scores[held] = model.predict_proba(rows[held])[:, 1]
    return scores


def set_figures(
    examples: list[Example], scores: np.ndarray, threshold: float, gold: dict[str, int]
) -> dict[str, dict[str, float]]:
    """Precision, recall and F1 of the node matches per set with the gate at `threshold`
    (the app-review pains, scored by sentence, left out)."""
    figures = {}
    for name, total in gold.items():
        kept = [
            e.real
            for e, s in zip(examples, scores, strict=True)
            if e.dataset == name and s >= threshold and not _by_sentence(e)
        ]
        tp = sum(kept)
        precision = tp / len(kept) if kept else 0.0
        recall = tp / total if total else 0.0
        f1 = 2 * precision * recall / (precision + recall) if tp else 0.0
        figures[name] = {"precision": precision, "recall": recall, "f1": f1}
    return figures


def _by_sentence(example: Example) -> bool:
    return example.dataset == sets.APP_REVIEWS and example.node.type == "pain"


def _macro_f1(figures: dict[str, dict[str, float]]) -> float:
    return sum(f["f1"] for f in figures.values()) / len(figures)


@dataclass(frozen=True)
class TrainingData:
    examples: list[Example]
    rows: np.ndarray
    gold: dict[str, int]  # per set: the gold nodes of the items read
    limit: int | None


def training_data(datasets: Path, annotations: Path, limit: int | None = None) -> TrainingData:
    """The labelled candidates of every dev set (the first `limit` items of each, for a quick
    check) and their feature rows."""
    load_models()
    # a text's last rounded digit may differ with its batch-mates: encoded afresh, the rows are
    # the same whatever this process encoded before
    encoder.forget_all()
    devs = dev_sets(datasets, annotations)
    examples = [e for dev in devs for e in examples_of(dev, limit)]
    patterns = pattern_examples(annotations / PATTERNS_FILE)
    examples += patterns
    gold = {d.name: sum(len(i.gold) for i in d.items[:limit]) for d in devs}
    if patterns:  # scored like a set: its real candidates kept, its others dropped
        gold[PATTERNS] = sum(e.real for e in patterns)
    return TrainingData(examples, _matrix(examples), gold, limit)


def pattern_examples(path: Path) -> list[Example]:
    """The hand-written candidates of the stated patterns (tests/kg/real/gate_patterns.json):
    what the dev splits, tuned on by the rules, hold few examples of."""
    if not path.exists():
        return []
    entries = json.loads(path.read_text(encoding="utf-8"))["items"]
    return [
        Example(
            PATTERNS,
            str(number),
            entry["language"],
            "",
            CandidateNode(
                ref=f"p{number}", type=entry["type"], label=entry["label"], quote=entry["quote"]
            ),
            bool(entry["real"]),
        )
        for number, entry in enumerate(entries, 1)
    ]


def train(datasets: Path, annotations: Path, limit: int | None = None) -> dict:
    """The gate's weights file as a dict, with how it was made."""
    return fitted(training_data(datasets, annotations, limit))


def fitted(data: TrainingData) -> dict:
    """The weights file of a gate fitted on `data`: regularisation and threshold chosen by
    grouped cross-validation, then one fit on all of it."""
    examples, gold, limit = data.examples, data.gold, data.limit
    real = np.array([e.real for e in examples], dtype=int)
    # standardised columns, so that one regularisation weighs the 1,024 small vector
    # components and the few rule features alike; folded back into the weights below
    centre = data.rows.mean(axis=0)
    spread = data.rows.std(axis=0)
    spread[spread == 0] = 1.0
    rows = (data.rows - centre) / spread
    judged = judged_types(examples)
    # the types judged: the others pass the gate, so they count as kept
    passing = np.array([e.node.type not in judged for e in examples])
    best: tuple[float, float, float] | None = None  # macro F1, C, threshold
    for regularisation in REGULARISATIONS:
        scores = _cross_validated(examples, rows, real, regularisation)
        scores[passing] = 1.0
        for threshold in THRESHOLDS:
            score = _macro_f1(set_figures(examples, scores, threshold, gold))
            if best is None or score > best[0] + 1e-9:
                best = (score, regularisation, threshold)
    assert best is not None
    _, regularisation, threshold = best
    model = _fit(rows, real, _sample_weights(examples), regularisation)
    scores = _cross_validated(examples, rows, real, regularisation)
    scores[passing] = 1.0
    ungated = set_figures(examples, np.ones(len(examples)), 0.0, gold)
    gated = set_figures(examples, scores, threshold, gold)
    return {
        "about": "kg/llm/offline/gate.py's weights; made by `make gate` "
        "(kg.realdata.gate_training) from the dev splits only",
        "encoder": encoder.ENCODER,
        "scikit_learn": version("scikit-learn"),
        "numpy": version("numpy"),
        "python": platform.python_version(),
        "data_hash": data_hash(examples),
        "examples": len(examples),
        "real_examples": int(real.sum()),
        "items_per_set": limit,
        "regularisation_c": regularisation,
        "threshold": threshold,
        # cross-validated on dev, so tuned on: the threshold was chosen on these
        "dev_cross_validated": {
            name: {
                "without_gate": _rounded(ungated[name]),
                "with_gate": _rounded(gated[name]),
            }
            for name in gold
        },
        "types": judged,
        "features": [
            *(f"label_vector_{i}" for i in range(encoder.DIMENSIONS)),
            *(f"quote_vector_{i}" for i in range(encoder.DIMENSIONS)),
            *(f"type_{t}" for t in TYPES),
            *RULE_FEATURES,
        ],
        "intercept": round(
            float(model.intercept_[0] - (model.coef_[0] * centre / spread).sum()), DECIMALS
        ),
        "coefficients": [round(float(c), DECIMALS) for c in model.coef_[0] / spread],
    }


def judged_types(examples: list[Example]) -> list[str]:
    """The types the gate judges: those with at least MIN_PER_CLASS real and as many false
    candidates to learn from (dev holds no false segment, one false trigger)."""
    real = Counter(e.node.type for e in examples if e.real)
    false = Counter(e.node.type for e in examples if not e.real)
    return [t for t in TYPES if min(real[t], false[t]) >= MIN_PER_CLASS]


def _rounded(figures: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 3) for k, v in figures.items()}


def weights_text(weights: dict) -> str:
    return json.dumps(weights, ensure_ascii=False, indent=1) + "\n"


def write_weights(datasets: Path, annotations: Path, path: Path = WEIGHTS_PATH) -> dict:
    weights = train(datasets, annotations)
    weights["subset_check"] = {
        "items_per_set": SUBSET_ITEMS,
        "weights_sha256": hashlib.sha256(
            weights_text(train(datasets, annotations, SUBSET_ITEMS)).encode("utf-8")
        ).hexdigest(),
    }
    path.write_text(weights_text(weights), encoding="utf-8")
    return weights
