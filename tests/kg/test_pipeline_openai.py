"""The pipeline against the scripted OpenAI-compatible server: how many calls, and for what."""

from __future__ import annotations

import pytest

from kg.graph import store
from kg.models import LLMCall, ResolutionDecision
from kg.pipeline.ingest import episode_ingest
from tests.kg.pipeline_helpers import make_project, record_messages

pytestmark = pytest.mark.django_db

MESSAGES = [
    {"at": "2026-03-01T10:00:00Z", "text": "Couriers say the app lags on weak internet."},
    {"at": "2026-03-02T10:00:00Z", "text": "Again: the app lags on weak internet."},
    {"at": "2026-03-03T10:00:00Z", "text": "The app is slow on bad internet, says Oleg."},
    {"at": "2026-03-04T10:00:00Z", "text": "Pricing is confusing for fleet owners."},
]


def _pain(label: str, quote: str) -> dict:
    return {"nodes": [{"ref": "n1", "type": "pain", "label": label, "quote": quote}]}


def test_one_extraction_per_episode_and_confirmation_only_when_ambiguous(graph, openai_mode):
    project = make_project("scripted", name="RouteMate")
    episodes = record_messages(project, MESSAGES)
    openai_mode.script(
        _pain("app lags on weak internet", "the app lags on weak internet"),  # new
        _pain("app lags on weak internet", "the app lags on weak internet"),  # exact: no model
        _pain("app is slow on bad internet", "The app is slow on bad internet"),  # ambiguous
        {"same": True, "reason": "same lag"},  # the one confirmation
        _pain("pricing is confusing", "Pricing is confusing"),  # far from anything: new
        # No RelationDiscoverer call: nothing existing can link to a pain (only pains exist).
    )
    for episode in episodes:
        episode_ingest(episode.pk)

    assert openai_mode.calls == 5
    recorded = list(LLMCall.objects.order_by("id").values_list("operation", flat=True))
    assert recorded == ["extraction", "extraction", "extraction", "resolution", "extraction"]
    pains = store.list_nodes(project.graph_scope, "pain")
    assert sorted(n.label for n in pains) == ["app lags on weak internet", "pricing is confusing"]
    lag = next(n for n in pains if n.label.startswith("app lags"))
    assert {e.episode_number for e in lag.evidence} == {1, 2, 3}
    assert lag.aliases == ["app is slow on bad internet"]
    methods = dict(ResolutionDecision.objects.values_list("episode__number", "method"))
    assert methods == {1: "new", 2: "exact", 3: "llm", 4: "new"}


def test_invented_quote_and_number_never_reach_the_graph(graph, openai_mode):
    project = make_project("inventions", name="RouteMate")
    [episode] = record_messages(
        project, [{"at": "2026-03-01T10:00:00Z", "text": "About 40% of orders are late."}]
    )
    invented = {
        "nodes": [
            {
                "ref": "n1",
                "type": "metric",
                "label": "45% of orders are late",
                "value": "45%",
                "quote": "40% of orders are late",
            },
            {
                "ref": "n2",
                "type": "pain",
                "label": "couriers are rude",
                "quote": "couriers are rude to customers",
            },
        ]
    }
    openai_mode.script(invented, invented)  # the repair round repeats the inventions
    episode_ingest(episode.pk)
    assert store.list_nodes(project.graph_scope) == []
    assert episode.rejections.filter(final=True).count() == 2
