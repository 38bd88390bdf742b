"""The grounding rule of the write-time checks: a claim names only nodes its quotes name, and a
claim relating two nodes rests on the quote of their relation."""

from __future__ import annotations

from artifacts.checks import (
    CheckedClaim,
    ContextIndex,
    Draft,
    FailedClaim,
    check_claim,
    names_grounded,
)
from kg.reading.context import ArtifactContext, ContextEdge, ContextNode, EvidenceView

DAY = "2026-03-01T00:00:00.000000Z"


def evidence(quote: str, episode: int) -> EvidenceView:
    return EvidenceView(
        episode_uid=f"e{episode}",
        episode_number=episode,
        date=DAY,
        quote=quote,
        start=0,
        end=len(quote),
    )


def node(number: int, node_type: str, label: str, *quotes: tuple[str, int]) -> ContextNode:
    return ContextNode(
        uid=f"n{number}",
        number=number,
        type=node_type,
        label=label,
        confidence=80,
        valid_at=DAY,
        evidence=[evidence(q, e) for q, e in quotes],
    )


def test_a_name_is_grounded_by_half_of_its_content_lemmas():
    assert names_grounded(["App lags on weak internet"], "the app lagged on a weak connection")
    assert names_grounded(["Администратор салона"], "Администраторы салонов теряют 2 часа")
    assert names_grounded(["B2B"], "Мы работаем на B2B-рынке")
    assert names_grounded(["Gig couriers on bikes"], "Our couriers are gig workers on bikes")
    # One of three content lemmas is less than half.
    assert not names_grounded(["Gig couriers on bikes"], "Couriers say the app lags")
    assert not names_grounded(["Demo product"], "We target the market: after the last release")
    # Function words alone ground nothing; a name without content words must be quoted as is.
    assert not names_grounded(["The app"], "the weather")
    assert names_grounded(["24/7"], "support 24/7 is a must")
    assert not names_grounded(["24/7"], "support around the clock")
    # An alias counts as the node's name.
    assert names_grounded(["Yandex Delivery", "Яндекс Доставка"], "Яндекс Доставка скопирует")


def _index(nodes: list[ContextNode], edges: list[ContextEdge], edge_quotes: dict) -> ContextIndex:
    context = ArtifactContext(
        project="p",
        kind="prd",
        language="en",
        nodes=nodes,
        edges=edges,
        gaps=[],
        contradictions=[],
        average_confidence=80,
    )
    return ContextIndex.of(context, edge_quotes)


SEGMENT = node(1, "segment", "Gig couriers on bikes", ("Our couriers are gig workers on bikes", 1))
LAG = node(2, "pain", "App lags on weak internet", ("the app lags on weak internet", 2))
PRODUCT = node(3, "product", "Demo product", ("We target the market: after the last release", 3))
EDGE = ContextEdge(
    uid="r1", relation="experiences", source=1, target=2, confidence=65, valid_at=DAY
)


def test_a_node_its_quote_does_not_name_fails():
    index = _index([SEGMENT, LAG, PRODUCT], [], {})

    result = check_claim(Draft("problem", "Product: Demo product.", (3,)), index)

    assert isinstance(result, FailedClaim)
    assert result.reasons == ("node #3 'Demo product' not in its cited quote",)
    ok = check_claim(Draft("pains", "The app lags on weak internet.", (2,)), index)
    assert isinstance(ok, CheckedClaim)
    assert ok.anchors == {2: (LAG.evidence[0],)}


def test_a_relation_rests_on_the_edge_quote_not_on_the_nodes_quotes():
    # Each node's own quote names it; the relation's quote names only the pain.
    weak = evidence("Couriers say the app lags on weak internet", 2)
    index = _index([SEGMENT, LAG], [EDGE], {"r1": [weak]})
    draft = Draft("pains", "Gig couriers on bikes suffer from app lags.", (1, 2))

    result = check_claim(draft, index)

    assert isinstance(result, FailedClaim)
    assert result.reasons == (
        "node #1 'Gig couriers on bikes' not in its cited quote "
        "(the quote of its relation #1 experiences #2)",
    )
    # Written apart, each node stands on its own quote.
    assert isinstance(check_claim(Draft("segments", "Gig couriers.", (1,)), index), CheckedClaim)

    # An edge without a quote to cite cannot back the relation either.
    bare = check_claim(draft, _index([SEGMENT, LAG], [EDGE], {}))
    assert isinstance(bare, FailedClaim)
    assert "has no quote to cite" in bare.reason


def test_a_relation_whose_quote_names_both_is_cited_by_that_quote():
    strong = evidence("Our gig couriers on bikes say the app lags on weak internet", 2)
    index = _index([SEGMENT, LAG], [EDGE], {"r1": [strong]})

    result = check_claim(Draft("pains", "Gig couriers on bikes suffer app lags.", (1, 2)), index)

    assert isinstance(result, CheckedClaim)
    # The relation's quote under the first node; the other shows its own quote of that message.
    assert result.anchors == {1: (strong,), 2: (LAG.evidence[0],)}


def test_a_user_story_or_criterion_needs_the_relations_that_ground_it():
    owners = node(11, "segment", "Salon owners", ("Salon owners need to fill empty slots", 1))
    slots = node(12, "job", "Fill empty slots", ("fill empty slots", 1))
    waitlist = node(13, "feature", "Waitlist", ("A waitlist helps fill empty slots", 2))
    late = node(14, "pain", "Late cancellations", ("late cancellations", 3))
    has_job = ContextEdge(
        uid="j", relation="has_job", source=11, target=12, confidence=65, valid_at=DAY
    )
    supports = ContextEdge(
        uid="s", relation="supports", source=13, target=12, confidence=65, valid_at=DAY
    )
    quotes = {
        "j": [evidence("Salon owners need to fill empty slots", 1)],
        "s": [evidence("A waitlist helps fill empty slots", 2)],
    }
    story = Draft(
        "user_stories", "As Salon owners, I want Waitlist, so that Fill empty slots.", (11, 13, 12)
    )
    criterion = Draft(
        "acceptance", "Waitlist is accepted when Late cancellations no longer happens.", (13, 14)
    )

    # Every node is named by its own quote, but without the relations nothing grounds them.
    bare = _index([owners, slots, waitlist, late], [], {})
    failed = check_claim(story, bare)
    assert isinstance(failed, FailedClaim) and "user story" in failed.reason
    failed = check_claim(criterion, bare)
    assert isinstance(failed, FailedClaim) and "a pain it solves" in failed.reason

    linked = _index([owners, slots, waitlist, late], [has_job, supports], quotes)
    assert isinstance(check_claim(story, linked), CheckedClaim)
    # Only the segment's relation: still not a story.
    half = _index([owners, slots, waitlist, late], [has_job], {"j": quotes["j"]})
    assert isinstance(check_claim(story, half), FailedClaim)
