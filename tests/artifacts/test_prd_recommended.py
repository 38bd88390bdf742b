"""A requirement the research recommends comes before items that are only mentioned."""

from __future__ import annotations

from artifacts.checks import CheckedClaim, ContextIndex
from artifacts.prd_selection import _section_priority, recommended, within_budget
from kg.graph import Evidence, NodeRecord
from kg.reading.context import ContextNode, EvidenceView

_AT = "2026-01-01T00:00:00.000000Z"


def _feature(number: int, quote: str, confidence: int, episodes: int) -> NodeRecord:
    evidence = [
        Evidence(
            episode_uid=f"e{number}-{i}",
            episode_number=i + 1,
            quote=quote,
            start=0,
            end=len(quote),
            valid_at=_AT,
        )
        for i in range(episodes)
    ]
    return NodeRecord(
        uid=f"n{number}",
        number=number,
        type="feature",
        label=quote,
        key=quote.lower(),
        valid_at=_AT,
        confidence=confidence,
        evidence=evidence,
    )


def test_recommendation_cues():
    assert recommended(_feature(1, "Recommendation: show the waiting time", 65, 1))
    assert recommended(_feature(2, "We recommend a status page for every order", 65, 1))
    assert recommended(_feature(3, "Agencies should publish the median time", 65, 1))
    assert not recommended(_feature(4, "People search for their orders", 65, 1))


def test_recommended_items_lead_the_requirements_section_only():
    mentioned = _feature(1, "People search for their orders", 85, 4)
    asked = _feature(2, "Recommendation: show the waiting time", 65, 1)
    assert [n.number for n in _section_priority("requirements", [mentioned, asked])] == [2, 1]
    assert [n.number for n in _section_priority("pains", [mentioned, asked])] == [1, 2]


def _shown(number: int, quote: str, episodes: int) -> ContextNode:
    evidence = [
        EvidenceView(
            episode_uid=f"e{number}-{i}",
            episode_number=100 * number + i,
            date=_AT,
            quote=quote,
            start=0,
            end=len(quote),
        )
        for i in range(episodes)
    ]
    return ContextNode(
        uid=f"n{number}",
        number=number,
        type="feature",
        label=quote,
        confidence=65 + 5 * episodes,
        valid_at=_AT,
        evidence=evidence,
    )


def test_the_budget_cut_keeps_recommended_requirements_first():
    # Two much-mentioned items and two recommended ones, with room for two claims: the
    # recommended ones stay, as they did when the section's nodes were chosen.
    nodes = [
        _shown(1, "People search for their orders", 4),
        _shown(2, "People print their tickets", 3),
        _shown(3, "Recommendation: show the waiting time", 1),
        _shown(4, "We should offer a printable receipt", 1),
    ]
    index = ContextIndex(nodes={n.number: n for n in nodes}, as_of=None)
    claims = [
        CheckedClaim(section="requirements", text=n.label, nodes=(n.number,), kind="fact")
        for n in nodes
    ]
    kept, cut = within_budget(claims, index, 2)
    assert [c.nodes for c in kept] == [(3,), (4,)]
    assert [c.nodes for c in cut] == [(1,), (2,)]
    # other sections keep the plain priority order
    pains = [
        CheckedClaim(section="pains", text=n.label, nodes=(n.number,), kind="fact") for n in nodes
    ]
    assert [c.nodes for c in within_budget(pains, index, 2)[0]] == [(1,), (2,)]
