"""The learned gate between the candidates and the graph (kg/llm/offline/gate.py): what it
drops and keeps on sentences written here, its off switch, the model's candidates going
through it, and its weights file reproducing from the training script."""

from __future__ import annotations

import hashlib
import json

import pytest

from kg.ledger.episodes import EpisodeInput, record_episode
from kg.llm.offline.extractor import extract_offline, propose_offline
from kg.llm.offline.gate import WEIGHTS_PATH, committed_gate, features, gate_answer
from kg.llm.prompts.extraction_models import (
    CandidateNode,
    CandidateRelation,
    ExtractionRequest,
    ExtractionResponse,
)
from kg.pipeline.extract import extract_episode
from kg.realdata.suite import default_annotations, default_datasets

DATASETS = default_datasets()
needs_data = pytest.mark.skipif(
    not DATASETS.is_dir(), reason=f"the real data sets are not at {DATASETS}"
)


def _node(ref: str, type_: str, label: str, quote: str) -> CandidateNode:
    return CandidateNode(ref=ref, type=type_, label=label, quote=quote)


def _scores(nodes: list[CandidateNode], language: str = "en", records: str = "") -> list[float]:
    gate = committed_gate()
    assert gate is not None, "the gate's weights file is committed"
    return [float(s) for s in gate.scores(features(nodes, language, records))]


# Sentences written for these tests (the gate's hand-written training candidates are others).
SENTENCE = (
    "Dispatchers want a colour scheme for bright sunlight, because the pale screen is "
    "unreadable outdoors."
)
SEGMENT = _node("n0", "segment", "dispatchers", "Dispatchers")
GENERIC = _node("n1", "feature", "scheme", "a colour scheme")
REAL = _node(
    "n2", "feature", "colour scheme for bright sunlight", "a colour scheme for bright sunlight"
)
PAIN = _node("n3", "pain", "pale screen unreadable outdoors", "the pale screen is unreadable")
RELATIONS = [
    CandidateRelation(relation="experiences", source="n0", target="n3", quote=SENTENCE),
    CandidateRelation(relation="solves", source="n1", target="n3", quote=SENTENCE),
    CandidateRelation(relation="solves", source="n2", target="n3", quote=SENTENCE),
]


def test_the_gate_drops_a_generic_noun_and_keeps_the_real_finding_beside_it():
    generic, real = _scores([GENERIC, REAL])
    threshold = committed_gate().threshold
    assert generic < threshold <= real
    answer = ExtractionResponse(nodes=[SEGMENT, GENERIC, REAL, PAIN], relations=RELATIONS)
    gated = gate_answer(answer, "en", "", committed_gate())
    assert [n.label for n in gated.nodes if n.type == "feature"] == [REAL.label]
    # a relation to a dropped candidate goes with it; the others stay
    assert [(r.source, r.target) for r in gated.relations] == [("n0", "n3"), ("n2", "n3")]


def test_the_gate_reads_russian_with_what_it_learned_in_both_languages():
    generic = _node("n1", "feature", "параметры", "параметры")
    real = _node(
        "n2", "feature", "выгрузка отчёта в Excel", "хотим выгрузку отчёта в Excel каждую неделю"
    )
    low, high = _scores([generic, real], language="ru")
    assert low < committed_gate().threshold <= high


def test_the_gate_drops_a_redaction_mask_as_a_label():
    masked = _node("n1", "pain", "letter from XXXXXXXX", "a letter from XXXXXXXX arrived")
    kept = _node("n2", "pain", "refund never reached my card", "the refund never reached my card")
    low, high = _scores([masked, kept])
    assert low < committed_gate().threshold <= high


def test_a_type_with_too_few_examples_to_learn_from_passes_untouched():
    """Dev holds no false segment: the gate does not judge segments, even a bare "people"."""
    gate = committed_gate()
    assert "segment" not in gate.types and "feature" in gate.types
    answer = ExtractionResponse(
        nodes=[_node("n1", "segment", "people", "people"), GENERIC],
    )
    gated = gate_answer(answer, "en", "", gate)
    assert [n.label for n in gated.nodes] == ["people"]


MESSAGE = (
    "Welcome everyone, thank you for coming in this morning. Nurses want a shared calendar to "
    "swap night shifts."
)


def test_extraction_with_the_gate_off_is_the_rules_answer_and_with_it_on_the_gated_one(settings):
    request = ExtractionRequest(text=MESSAGE, language="en", product="")
    rules = propose_offline(request)
    settings.EXTRACTION_GATE = False
    assert extract_offline(request) == rules
    settings.EXTRACTION_GATE = True
    gated = extract_offline(request)
    labels = {(n.type, n.label) for n in rules.nodes}
    kept = {(n.type, n.label) for n in gated.nodes}
    # the nurses and their calendar are findings, and what the gate keeps is what it scores
    assert kept <= labels
    assert {("segment", "nurses"), ("feature", "calendar")} <= kept
    assert gated == gate_answer(rules, "en", request.records)
    refs = {n.ref for n in gated.nodes}
    assert all(r.source in refs and r.target in refs for r in gated.relations)


def test_the_models_candidates_go_through_the_gate_in_openai_mode(
    openai_mode, org_project, settings
):
    settings.EXTRACTION_GATE = True
    episode = record_episode(org_project, EpisodeInput(content=SENTENCE), enqueue=False)
    openai_mode.script(
        {
            "nodes": [n.model_dump() for n in (SEGMENT, GENERIC, REAL, PAIN)],
            "relations": [r.model_dump() for r in RELATIONS],
        }
    )
    outcome = extract_episode(episode)
    assert openai_mode.calls == 1, "a gated candidate is no rejection: nothing is sent back"
    assert GENERIC.label not in {n.candidate.label for n in outcome.nodes}
    assert REAL.label in {n.candidate.label for n in outcome.nodes}
    assert sorted(r.relation for r in outcome.relations) == ["experiences", "solves"]


@needs_data
def test_the_weights_file_reproduces_from_the_training_script():
    """A fast check: retraining on the fixed subset of each dev set the file names writes the
    bytes whose hash it records (`make gate` retrains on every dev item and rewrites the whole
    file, the same bytes for the same data and library versions)."""
    from kg.realdata.gate_training import train, weights_text

    committed = json.loads(WEIGHTS_PATH.read_text(encoding="utf-8"))
    check = committed["subset_check"]
    weights = train(DATASETS, default_annotations(), check["items_per_set"])
    digest = hashlib.sha256(weights_text(weights).encode("utf-8")).hexdigest()
    assert digest == check["weights_sha256"]
    assert weights["scikit_learn"] == committed["scikit_learn"]
    assert len(committed["coefficients"]) == len(committed["features"])
