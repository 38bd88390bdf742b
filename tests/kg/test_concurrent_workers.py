"""Four worker processes on one project, the model answering after a second: no twins, no lost
evidence, and kg_rebuild of what they built makes no model call and gives the same export."""

from __future__ import annotations

import os
import re
import time
from collections import Counter

import pytest
import redis
from django.conf import settings
from django.db import transaction

from kg.graph import store
from kg.ledger.episodes import EpisodeInput, record_episode
from kg.models import EpisodeKind, EpisodeProcessing, LLMCall
from kg.operations.rebuild import rebuild_project_graph
from kg.reading.export import export_project
from tests.fixtures.services import celery_worker, worker_environment
from tests.kg.pipeline_helpers import at, make_project

LATENCY_SECONDS = 1.0
SEGMENTS = ["Couriers", "Dispatchers", "Florists", "Bakers"]
PAINS = [
    "lose orders written on paper",
    "wait an hour for the weekly rota",
    "retype every invoice by hand",
]
KNOWN_NODE = re.compile(r"^#(\d+) (\w+): (.+?)(?: \(also: .*\))?$", re.MULTILINE)
MESSAGE_BLOCK = re.compile(r"--- message (\d+) ---\n(.*?)(?=\n--- message \d+ ---\n|\Z)", re.S)


def _messages() -> list[tuple[str, str, str]]:
    """(kind, text, at): chat messages and an import of the same kind of statements."""
    out = []
    for i in range(24):
        segment, pain = SEGMENTS[i % 4], PAINS[i % 3]
        out.append((EpisodeKind.CHAT_MESSAGE, f"{segment} {pain}.", f"2026-03-01T10:{i:02d}:00Z"))
    for i in range(16):
        segment, pain = SEGMENTS[(i + 1) % 4], PAINS[i % 3]
        out.append((EpisodeKind.IMPORT, f"{segment} {pain} again.", f"2026-03-02T10:{i:02d}:00Z"))
    return out


def _said(text: str) -> tuple[str, str]:
    segment = next(s for s in SEGMENTS if text.startswith(s))
    pain = next(p for p in PAINS if p in text)
    return segment, pain


def _answer_for(text: str, known: dict[tuple[str, str], int]) -> dict:
    segment, pain = _said(text)
    nodes = [
        {"ref": "n1", "type": "segment", "label": segment.lower(), "quote": segment},
        {"ref": "n2", "type": "pain", "label": pain, "quote": pain},
    ]
    for node in nodes:  # a known node named again is said to be it, as the prompt asks
        node["same_as"] = known.get((node["type"], node["label"]))
    relation = {
        "relation": "experiences",
        "source": "n1",
        "target": "n2",
        "quote": f"{segment} {pain}",
    }
    return {"nodes": nodes, "relations": [relation]}


def respond(body: dict) -> dict:
    """The model, as a function of the request: requests come in no fixed order."""
    operation = body["response_format"]["json_schema"]["name"]
    prompt = body["messages"][1]["content"]
    if operation == "resolution_batch":
        questions = re.findall(r"--- question (\d+) ", prompt)
        return {
            "answers": [
                {"question": int(q), "same": False, "reason": "different"} for q in questions
            ]
        }
    known = {(t, label): int(n) for n, t, label in KNOWN_NODE.findall(prompt)}
    if operation == "batch_extraction":
        items = []
        for number, text in MESSAGE_BLOCK.findall(prompt.split("Messages:\n", 1)[1]):
            items.append({"message": int(number), **_answer_for(text, known)})
        return {"items": items}
    assert operation == "extraction", operation
    return _answer_for(prompt.split("Message:\n", 1)[1], known)


def _env(llm_base_url: str) -> dict[str, str]:
    return worker_environment(
        LLM_ENGINE="openai",
        OPENAI_BASE_URL=llm_base_url,
        OPENAI_API_KEY="test",
        LLM_MODEL="scripted-model",
        LLM_STRUCTURED_OUTPUT="json_schema",
        LLM_MAX_CONCURRENCY="4",
        LLM_TIMEOUT_SECONDS="10",
    )


@pytest.mark.worker
@pytest.mark.timeout(240)
def test_four_workers_one_project_slow_model(
    embedded_server, graph, transactional_db, openai_mode, tmp_path
):
    openai_mode.responder = respond
    openai_mode.latency = LATENCY_SECONDS
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()  # no other test's tasks
    project = make_project("four-workers", name="Shop")
    messages = _messages()
    worker = celery_worker(
        _env(openai_mode.base_url), tmp_path / "worker.log", "concurrent", "prefork", 4
    )
    try:
        with transaction.atomic():  # queued on commit, like a chat and an upload
            episodes = [
                record_episode(project, EpisodeInput(content=text, kind=kind, valid_at=at(when)))
                for kind, text, when in messages
            ]
        deadline = time.monotonic() + 180
        statuses: Counter = Counter()
        while time.monotonic() < deadline:
            statuses = Counter(
                EpisodeProcessing.objects.filter(episode__project=project).values_list(
                    "status", flat=True
                )
            )
            if statuses["done"] + statuses["failed"] == len(episodes):
                break
            time.sleep(0.5)
    finally:
        os.killpg(worker.pid, 15)
        worker.wait(30)
    log = (tmp_path / "worker.log").read_text(errors="replace")[-3000:]
    assert statuses["done"] == len(episodes), (dict(statuses), log)
    assert openai_mode.max_in_flight > 1  # the workers did ask the model concurrently

    nodes = store.list_nodes(project.graph_scope)
    active = Counter((n.type, n.key) for n in nodes if n.invalid_at is None)
    assert [key for key, count in active.items() if count > 1] == []  # no twins
    assert set(active) == {("segment", s.lower()) for s in SEGMENTS} | {("pain", p) for p in PAINS}
    said_in = {(n.type, n.key): {e.episode_number for e in n.evidence} for n in nodes}
    for episode in episodes:
        segment, pain = _said(episode.content)
        assert episode.number in said_in[("segment", segment.lower())]
        assert episode.number in said_in[("pain", pain)]  # no evidence lost
    edges = store.list_edges(project.graph_scope)
    assert sum(len(e.evidence) for e in edges) == len(episodes)

    calls = openai_mode.calls
    chat, imported = (
        sum(1 for kind, _, _ in messages if kind == k)
        for k in (EpisodeKind.CHAT_MESSAGE, EpisodeKind.IMPORT)
    )
    batch_calls = LLMCall.objects.filter(project=project, operation="batch_extraction").count()
    assert 2 <= batch_calls <= imported // 2  # several imported messages per call
    # One call per chat message at most (an identical prompt is answered from the record),
    # and no confirmation: every repeat was offered to the extraction and named there.
    assert calls <= chat + batch_calls

    before = export_project(project)
    rebuild_project_graph(project)
    assert openai_mode.calls == calls  # the rebuild asked the model nothing
    assert export_project(project) == before
