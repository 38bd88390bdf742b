"""Bulk import: several imported messages per model call, each item checked against its own
message, each episode's proposal recorded like a single one (kg_rebuild makes no call)."""

from __future__ import annotations

import pytest

from kg.graph import store
from kg.ledger.episodes import EpisodeInput, record_episode
from kg.models import EpisodeIntegration, EpisodeKind, ExtractionRejection, LLMCall
from kg.operations.rebuild import rebuild_project_graph
from kg.pipeline import batch
from kg.pipeline.batch import BATCH_MESSAGES, propose_batch
from kg.pipeline.ingest import ingest_recorded_episodes
from kg.reading.export import export_project
from tests.kg.pipeline_helpers import UNSEEN, at, load_conversation, make_project

pytestmark = pytest.mark.django_db


def _import(project, texts: list[str], kind: str = EpisodeKind.IMPORT):
    return [
        record_episode(
            project,
            EpisodeInput(content=text, kind=kind, valid_at=at(f"2026-03-01T10:{i:02d}:00Z")),
            enqueue=False,
        )
        for i, text in enumerate(texts)
    ]


TOWNS = ["Leeds", "York", "Bath", "Derby", "Ely", "Hull", "Ripon", "Wells", "Truro", "Exeter"]


def _item(message: int, town: str, *, quote_from: str | None = None) -> dict:
    pain = {
        "ref": "n1",
        "type": "pain",
        "label": "lose orders written on paper",
        "quote": "lose orders written on paper",
    }
    segment = {
        "ref": "n2",
        "type": "segment",
        "label": f"florists in {town}",
        "quote": f"Florists in {quote_from or town}",
    }
    relation = {
        "relation": "experiences",
        "source": "n2",
        "target": "n1",
        "quote": f"Florists in {town} lose orders written on paper",
    }
    return {"message": message, "nodes": [pain, segment], "relations": [relation]}


def test_bulk_import_extracts_eight_messages_per_call_and_rebuilds_with_none(graph, openai_mode):
    project = make_project("bulk", name="Flower shop")
    episodes = _import(project, [f"Florists in {t} lose orders written on paper." for t in TOWNS])
    first = [_item(i, t) for i, t in enumerate(TOWNS[:BATCH_MESSAGES], start=1)]
    first[2] = _item(3, TOWNS[2], quote_from=TOWNS[3])  # a neighbour's words: rejected
    openai_mode.script(
        {"items": first},
        {"items": [_item(i, t) for i, t in enumerate(TOWNS[BATCH_MESSAGES:], start=1)]},
    )

    failed = ingest_recorded_episodes(episodes, sync=True)

    assert failed == []
    assert openai_mode.calls == 2  # 10 messages: 0.2 calls per message
    assert {c.operation for c in LLMCall.objects.filter(project=project)} == {"batch_extraction"}
    prompt = openai_mode.requests[0]["messages"][1]["content"]
    assert "--- message 8 ---" in prompt and "--- message 9 ---" not in prompt
    pains = store.list_nodes(project.graph_scope, "pain")
    assert len(pains) == 1  # said in ten messages, one node
    assert {e.episode_number for e in pains[0].evidence} == {e.number for e in episodes}
    segments = {n.label for n in store.list_nodes(project.graph_scope, "segment")}
    assert segments == {f"florists in {t}" for t in TOWNS if t != "Bath"}
    rejected = ExtractionRejection.objects.get(episode=episodes[2], item_kind="node")
    assert "quote not in episode" in rejected.reason and rejected.final
    assert EpisodeIntegration.objects.filter(project=project).count() == len(TOWNS)

    before = export_project(project)
    calls = openai_mode.calls
    rebuild_project_graph(project)
    assert openai_mode.calls == calls
    assert export_project(project) == before


def test_a_batch_the_model_cannot_answer_falls_back_to_one_call_per_message(graph, openai_mode):
    project = make_project("bulk-fallback", name="Flower shop")
    episodes = _import(
        project, [f"Florists in {t} lose orders written on paper." for t in TOWNS[:2]]
    )
    single = {
        "nodes": [
            {
                "ref": "n1",
                "type": "pain",
                "label": "lose orders on paper",
                "quote": "lose orders written on paper",
            }
        ],
        "relations": [],
    }
    # Broken twice (the repair too), then each message alone.
    openai_mode.script("{not json", "{still not", single, single)

    assert ingest_recorded_episodes(episodes, sync=True) == []

    heads = [r["messages"][0]["content"].split("\n", 1)[0] for r in openai_mode.requests]
    assert ["several messages" in h for h in heads] == [True, True, False, False]
    assert all("from one message" in h for h in heads[2:])
    assert openai_mode.calls == 4
    pains = store.list_nodes(project.graph_scope, "pain")
    assert {e.episode_number for e in pains[0].evidence} == {1, 2}


def test_chat_messages_are_never_batched(graph, openai_mode):
    project = make_project("chat-alone", name="Flower shop")
    episodes = _import(
        project, ["Florists lose orders.", "Florists lose orders!"], EpisodeKind.CHAT_MESSAGE
    )
    answer = {
        "nodes": [
            {
                "ref": "n1",
                "type": "pain",
                "label": "florists lose orders",
                "quote": "Florists lose orders",
            }
        ],
        "relations": [],
    }
    openai_mode.script(answer, answer)
    ingest_recorded_episodes(episodes, sync=True)
    assert {c.operation for c in LLMCall.objects.filter(project=project)} == {"extraction"}
    assert openai_mode.calls == 2


def test_offline_bulk_import_batches_too_and_each_quote_is_from_its_own_message(graph, monkeypatch):
    # Batches of eight, so that eleven messages make two (offline a batch is a task's run).
    monkeypatch.setattr(batch, "OFFLINE_BATCH_MESSAGES", 8)
    project = make_project("bulk-offline", name="Courier app")
    texts = [f"Couriers in {t} hate paper maps and lose an hour every shift." for t in TOWNS] + [
        "Dispatchers in Leeds use a shared spreadsheet for the rota."
    ]
    episodes = _import(project, texts)

    assert ingest_recorded_episodes(episodes, sync=True) == []

    batch_calls = LLMCall.objects.filter(project=project, operation="batch_extraction")
    assert batch_calls.count() == 2  # 11 messages in batches of 8
    assert not LLMCall.objects.filter(project=project, operation="extraction").exists()
    by_number = {e.number: e.content for e in episodes}
    nodes = store.list_nodes(project.graph_scope)
    assert nodes
    for node in nodes:
        for evidence in node.evidence:
            assert by_number[evidence.episode_number][evidence.start : evidence.end] == (
                evidence.quote
            )
    assert propose_batch(episodes) == {}  # all recorded: nothing proposed twice


def test_each_hold_of_the_lease_is_logged_with_its_episodes_and_duration(graph, caplog):
    project = make_project("bulk-holds", name="Courier app")
    texts = [f"Couriers in {t} hate paper maps." for t in TOWNS[:3]]
    episodes = _import(project, texts)

    with caplog.at_level("DEBUG", logger="groundwork.pipeline"):
        assert ingest_recorded_episodes(episodes, sync=True) == []

    holds = [
        r.getMessage()
        for r in caplog.records
        if "integrated in one hold of its lease" in r.getMessage()
    ]
    assert holds  # the benchmarks read the lease's hold times from these lines
    counted = sum(int(line.split(": ")[1].split(" ")[0]) for line in holds)
    assert counted == len(episodes)
    assert all(line.startswith(f"project {project.pk}: ") for line in holds)
    assert all(float(line.rsplit(", ", 1)[1].removesuffix(" ms")) > 0 for line in holds)


def test_kg_ingest_of_a_file_asks_the_model_once_per_eight_messages(tmp_path, graph, openai_mode):
    import io
    import json
    import re

    from django.core.management import call_command

    from kg.models import Project

    def respond(body: dict) -> dict:
        prompt = body["messages"][1]["content"]
        assert body["response_format"]["json_schema"]["name"] == "batch_extraction"
        blocks = re.findall(r"--- message (\d+) ---\nFlorists in (\w+)", prompt)
        return {"items": [_item(int(n), town) for n, town in blocks]}

    openai_mode.responder = respond
    path = tmp_path / "florists.jsonl"
    path.write_text(
        "".join(
            json.dumps(
                {
                    "at": f"2026-03-01T10:{i:02d}:00Z",
                    "text": f"Florists in {t} lose orders written on paper, note {i}.",
                }
            )
            + "\n"
            for i, t in enumerate(TOWNS * 2)
        ),
        encoding="utf-8",
    )
    call_command(
        "kg_ingest", str(path), "--project", "florists", "--create", "--org", "acme", "--sync",
        stdout=io.StringIO(), stderr=io.StringIO(),
    )  # fmt: skip

    project = Project.objects.get(slug="florists")
    assert openai_mode.calls == 3  # 20 messages: 0.15 calls per message
    pains = store.list_nodes(project.graph_scope, "pain")
    assert len(pains) == 1 and len(pains[0].evidence) == 2 * len(TOWNS)


def test_what_a_hold_carries_from_episode_to_episode_is_what_the_stores_hold(graph, monkeypatch):
    """Episodes integrated in one hold of the project lease take the nodes (and candidate index
    rows) the ones before them wrote from the hold, not from the stores: at the end of each
    hold, what it knows is what a fresh read finds, and the graph is what a replay of the
    same proposals one episode per hold rebuilds."""
    from kg.pipeline import candidates, ingest
    from kg.pipeline.integrate import Hold

    checked: list[int] = []

    class CheckedHold(Hold):
        def written(self, state, uids, versions) -> None:
            super().written(state, uids, versions)
            scope = self.project.graph_scope
            known = {u: k for u, k in self.nodes.items() if k is not None}
            fresh = {
                node.uid: (node, version, open_contradictions)
                for node, version, open_contradictions in store.nodes_without_evidence(
                    scope, sorted(self.nodes)
                )
            }
            assert known == fresh
            index = candidates.FiledNodes(self.project)
            index.read(self.filed.rows)
            assert index.rows == self.filed.rows
            checked.append(len(known))

    monkeypatch.setattr(ingest, "Hold", CheckedHold)
    # A conversation with an opinion contradicted later (contradictions opened in a hold).
    conversation = load_conversation(UNSEEN[0])
    project = make_project("bulk-held", conversation["language"], conversation["product"])
    episodes = _import(project, [m["text"] for m in conversation["messages"]])

    assert ingest_recorded_episodes(episodes, sync=True) == []
    assert len(checked) == len(episodes) and max(checked) > 0
    assert store.list_contradictions(project.graph_scope)
    before = export_project(project)
    rebuild_project_graph(project)
    assert export_project(project) == before
