"""A task waiting for its project's import turn reads its run ahead with the offline rules,
and the turn's holder uses those answers instead of computing them again."""

from __future__ import annotations

import pytest

from kg.ledger.episodes import EpisodeInput, record_episode
from kg.llm.offline import ahead, extractor
from kg.models import EpisodeKind, LLMCall
from kg.pipeline import ingest, read_ahead
from kg.pipeline.ingest import episode_ingest
from kg.pipeline.locks import lock_redis, namespaced_key
from kg.reading.export import export_project
from tests.kg.pipeline_helpers import make_project

pytestmark = pytest.mark.django_db

MESSAGES = [
    "Clinic managers lose a day a week to paper intake forms.",
    "The booking page is slow on old phones.",
    "Clinic managers want reminders by text message.",
]


def _imported(project):
    return [
        record_episode(project, EpisodeInput(content=t, kind=EpisodeKind.IMPORT), enqueue=False)
        for t in MESSAGES
    ]


def _forget_answers() -> None:
    client = lock_redis()
    for key in client.scan_iter(namespaced_key("offline-answer:*")):
        client.delete(key)


@pytest.fixture
def computed(monkeypatch):
    """The texts the rules computed an answer for, in order (an answer given is not one)."""
    texts: list[str] = []

    class Counted(extractor._Answer):
        def __init__(self, text, *args, **kwargs):
            texts.append(text)
            super().__init__(text, *args, **kwargs)

    monkeypatch.setattr(extractor, "_Answer", Counted)
    return texts


def _shape(project):
    exported = export_project(project)
    nodes = sorted((n["type"], n["label"], n["number"]) for n in exported["nodes"])
    edges = sorted((e["type"], len(e["evidence"])) for e in exported["edges"])
    answers = list(LLMCall.objects.filter(project=project).values_list("raw_output", flat=True))
    return nodes, edges, answers


def test_the_waiting_task_reads_ahead_and_the_holder_computes_nothing_again(
    embedded_server, computed
):
    _forget_answers()
    project = make_project("read-ahead")
    episodes = _imported(project)
    # Another worker holds the turn for a moment: this task waits, and reads its run meanwhile.
    lock_redis().set(namespaced_key(f"lock:import-order:{project.pk}"), "another", px=1500)
    episode_ingest(episodes[-1].pk)
    assert computed == MESSAGES  # each message computed once, while waiting

    # The same messages taken in place, nothing read ahead: the same answers and graph. (Its
    # product's name differs, as a prompt recorded already would be answered from its record;
    # it is named in none of the messages.)
    _forget_answers()
    computed.clear()
    other = make_project("in-place", name="Another product")
    for episode in _imported(other):
        episode_ingest(episode.pk)
    assert computed == MESSAGES
    waited, in_place = _shape(project), _shape(other)
    assert waited == in_place
    assert waited[0]  # something was extracted: the comparison is not of two voids


def test_a_message_read_ahead_twice_is_computed_once(embedded_server, computed):
    _forget_answers()
    episodes = _imported(make_project("twice"))
    assert read_ahead.read_ahead(episodes) == len(MESSAGES)
    assert read_ahead.read_ahead(episodes) == 0
    assert computed == MESSAGES


def test_a_kept_value_that_is_no_answer_is_computed_in_place(embedded_server, computed):
    _forget_answers()
    project = make_project("garbled")
    episodes = _imported(project)
    read_ahead.read_ahead(episodes[:1])
    (key,) = list(lock_redis().scan_iter(namespaced_key("offline-answer:*")))
    lock_redis().set(key, b'{"nodes": "not a list"}')
    read_ahead.read_ahead(episodes)  # the two others kept as they should be
    computed.clear()
    for episode in episodes:
        episode_ingest(episode.pk)
    assert computed == MESSAGES[:1]  # only the garbled one computed again


def test_an_answer_is_found_only_for_the_same_text_language_and_product():
    key = ahead.answer_key("The export is slow.", "en", "Clinic")
    assert key == ahead.answer_key("The export is slow.", "EN", "Clinic ")
    assert key != ahead.answer_key("The export is slow!", "en", "Clinic")
    assert key != ahead.answer_key("The export is slow.", "ru", "Clinic")
    assert key != ahead.answer_key("The export is slow.", "en", "Clinics")
    # a ticket is read otherwise than a note: its answer is kept apart
    assert key != ahead.answer_key("The export is slow.", "en", "Clinic", "", "bug_report")


def test_nothing_is_read_ahead_for_a_model(embedded_server, settings, computed):
    settings.LLM_ENGINE = "openai"
    settings.OPENAI_BASE_URL = "http://127.0.0.1:9/v1"
    assert read_ahead.read_ahead(_imported(make_project("model"))) == 0
    assert computed == []


def test_the_waiting_task_reads_ahead_the_runs_after_its_own_too(
    embedded_server, computed, monkeypatch
):
    _forget_answers()
    monkeypatch.setattr(ingest, "IMPORT_TASK_STRIDE", 1)  # each message a run of its own
    monkeypatch.setattr(ingest, "AHEAD_SECONDS", 0.0)  # the turn ends at its own message
    project = make_project("runs-ahead")
    episodes = _imported(project)
    lock_redis().set(namespaced_key(f"lock:import-order:{project.pk}"), "another", px=1500)
    episode_ingest(episodes[0].pk)

    assert computed == MESSAGES  # the later runs too, while waiting; none of them ingested
    kept = list(lock_redis().scan_iter(namespaced_key("offline-answer:*")))
    assert len(kept) == len(MESSAGES)
    assert episode_ingest(episodes[1].pk).skipped is False
    assert computed == MESSAGES  # its answer was kept: not computed again
