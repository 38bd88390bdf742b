"""A requirement the research recommends comes before items that are only mentioned."""

from __future__ import annotations

from artifacts.prd_selection import _section_priority, recommended
from kg.graph import Evidence, NodeRecord

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
