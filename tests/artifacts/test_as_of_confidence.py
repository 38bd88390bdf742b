"""An as-of PRD weighs each node and edge by the evidence known at that date."""

from __future__ import annotations

from artifacts.prd_selection import select_context
from artifacts.services import parse_as_of
from kg.pipeline.confidence import CORROBORATED, SINGLE
from tests.artifacts.conftest import Research


def test_confidence_as_of_counts_only_the_evidence_known_then(project, graph):
    r = Research(project)
    e1 = r.say("Couriers wait 20 minutes at pickup.", "2026-05-01T09:00:00Z")
    e2 = r.say("Again: couriers wait at pickup, every shift.", "2026-05-20T09:00:00Z")
    segment = r.node("segment", "Couriers", (e1, "Couriers"), (e2, "couriers"))
    pain = r.node("pain", "Couriers wait at pickup", (e1, "Couriers wait"), (e2, "couriers wait"))
    r.edge("experiences", segment, pain, e1, "Couriers wait")
    assert pain.confidence == CORROBORATED  # today: two independent messages

    today = {n.uid: n for n in select_context(project).context.nodes}
    before = select_context(project, parse_as_of("2026-05-10")).context

    assert today[pain.uid].confidence == CORROBORATED
    then = {n.uid: n for n in before.nodes}
    assert then[pain.uid].confidence == SINGLE  # one message at that date: not yet a fact
    assert [e.episode_number for e in then[pain.uid].evidence] == [e1.number]
