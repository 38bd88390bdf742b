"""Promotion across projects against the real embedded graph and the SQL ledger."""

from __future__ import annotations

import pytest

from kg.models import LLMCall, Project
from orgmemory.models import InsightSource, InsightStatus, OrgInsight
from orgmemory.services import insight_confidence, largest_independent_group, promote_for_org
from tests.orgmemory.conftest import write_node


def _snapshot(org) -> list[tuple]:
    """Every stored field of every insight and source, to prove a rerun changes nothing."""
    insights = list(OrgInsight.objects.filter(organization=org).order_by("id").values())
    sources = list(InsightSource.objects.filter(insight__organization=org).order_by("id").values())
    return [tuple(sorted(row.items())) for row in insights + sources]


def test_same_pain_in_two_projects_becomes_one_org_insight(shared_pain):
    world = shared_pain

    report = promote_for_org(world.acme)

    assert len(report.created) == 1
    insight = OrgInsight.objects.get(pk=report.created[0])
    assert insight.organization == world.acme
    assert insight.node_type == "pain"
    assert insight.status == InsightStatus.ACTIVE
    assert insight.label in {"app lags on weak internet", "the app is slow when internet is weak"}
    assert insight.confidence == 70  # two projects, single mentions: no node bonus
    assert [h["event"] for h in insight.history] == ["promoted"]
    sources = {s.project.slug: s for s in insight.sources.select_related("project")}
    assert set(sources) == {"couriers", "warehouse"}
    assert sources["couriers"].node_number == 1
    assert sources["couriers"].evidence[0]["quote"] == "the app lags on weak internet in basements"
    assert sources["warehouse"].evidence[0]["quote"] == (
        "honestly the app is slow when internet is weak in the loading bay"
    )
    assert all(s.active for s in sources.values())
    # The two wordings fall in the fuzzy band: the model (offline engine) confirmed the match.
    assert report.confirmations >= 1
    assert LLMCall.objects.filter(operation="resolution", project=None).exists()
    # A competitor seen by one project and an unrelated pain are not promoted.
    assert OrgInsight.objects.count() == 1


def test_another_organization_sees_nothing_and_contributes_nothing(shared_pain):
    world = shared_pain

    promote_for_org(world.globex)
    promote_for_org(world.acme)

    assert not OrgInsight.objects.filter(organization=world.globex).exists()
    [insight] = OrgInsight.objects.filter(organization=world.acme)
    assert not insight.sources.filter(project=world.rival).exists()
    assert insight.sources.count() == 2


def test_promotion_is_idempotent(shared_pain):
    world = shared_pain
    promote_for_org(world.acme)
    before = _snapshot(world.acme)
    calls = LLMCall.objects.count()

    again = promote_for_org(world.acme)

    assert not again.changed
    assert again.unchanged == 1
    assert _snapshot(world.acme) == before
    assert LLMCall.objects.count() == calls  # the recorded confirmation was replayed


def test_invalidated_node_demotes_then_a_new_project_reactivates(shared_pain):
    world = shared_pain
    [insight_id] = promote_for_org(world.acme).created
    write_node(
        world.warehouse,
        1,
        "the app is slow when internet is weak",
        "honestly the app is slow when internet is weak in the loading bay",
        invalid_at="2026-04-01T09:00:00.000000Z",
    )

    report = promote_for_org(world.acme)

    assert report.deactivated == [insight_id]
    insight = OrgInsight.objects.get(pk=insight_id)
    assert insight.status == InsightStatus.INACTIVE
    assert insight.deactivated_at is not None
    assert [h["event"] for h in insight.history] == ["promoted", "demoted"]
    assert "warehouse #1" in insight.history[-1]["reason"]
    # Sources are kept: the chain of what the insight rested on stays readable.
    states = {s.project.slug: s.active for s in insight.sources.select_related("project")}
    assert states == {"couriers": True, "warehouse": False}
    before = _snapshot(world.acme)
    assert not promote_for_org(world.acme).changed
    assert _snapshot(world.acme) == before

    depot = Project.objects.create(organization=world.acme, slug="depot", name="Depot")
    write_node(depot, 1, "App lags on weak internet", "the app lags on weak internet at night")
    report = promote_for_org(world.acme)

    assert report.reactivated == [insight_id]
    assert not report.created
    insight.refresh_from_db()
    assert insight.status == InsightStatus.ACTIVE
    assert insight.deactivated_at is None
    assert [h["event"] for h in insight.history] == ["promoted", "demoted", "reactivated"]
    assert insight.sources.filter(active=True).count() == 2


def test_a_node_gone_from_the_graph_demotes_too(shared_pain):
    world = shared_pain
    [insight_id] = promote_for_org(world.acme).created
    from kg.graph import store

    store.delete_project_graph(world.warehouse.graph_scope)

    assert promote_for_org(world.acme).deactivated == [insight_id]


def test_a_third_project_joins_and_raises_confidence(shared_pain):
    world = shared_pain
    [insight_id] = promote_for_org(world.acme).created
    depot = Project.objects.create(organization=world.acme, slug="depot", name="Depot")
    write_node(
        depot,
        4,
        "app lags on a weak internet connection",
        "the app lags on a weak internet connection",
        confidence=80,
    )

    report = promote_for_org(world.acme)

    assert report.updated == [insight_id]
    insight = OrgInsight.objects.get(pk=insight_id)
    assert insight.sources.count() == 3
    assert insight.confidence == insight_confidence([65, 65, 80])
    assert insight.label == "app lags on a weak internet connection"  # the best-evidenced one


def test_nodes_of_one_project_are_never_merged_by_promotion(world):
    write_node(world.couriers, 1, "app lags on weak internet", "app lags on weak internet")
    write_node(world.couriers, 2, "the app lags on weak internet", "the app lags on weak internet")

    assert promote_for_org(world.acme).created == []


@pytest.mark.parametrize(
    ("confidences", "expected"),
    [
        ([65, 65], 70),
        ([80, 80], 76),
        ([90, 90], 80),
        ([65, 65, 65], 75),
        ([90] * 6, 95),
        ([90], 0),
    ],
)
def test_insight_confidence_is_deterministic(confidences, expected):
    assert insight_confidence(confidences) == expected


@pytest.mark.parametrize(
    ("evidence", "independent"),
    [
        ({1: {"a"}, 2: {"a"}}, {1}),  # one message imported into both
        ({1: {"a", "b"}, 2: {"a", "b"}}, {1}),  # a file of two chunks imported into both
        ({1: {"a", "b"}, 2: {"a"}}, {2}),  # 1's own message does not make 2's copy its own
        ({1: {"a", "b"}, 2: {"a", "c"}}, {1, 2}),  # a shared file, and words of their own
        ({1: {"a"}, 2: {"a", "b"}, 3: {"b"}}, {1, 3}),  # 2 holds only the others' messages
        ({1: {"a"}, 2: {"a"}, 3: {"b"}, 4: {"b"}}, {1, 3}),  # two files, each in two projects
    ],
)
def test_projects_count_as_independent_only_with_messages_of_their_own(evidence, independent):
    hashes = {project: frozenset(held) for project, held in evidence.items()}
    assert largest_independent_group(hashes) == independent
