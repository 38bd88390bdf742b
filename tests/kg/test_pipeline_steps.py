"""The pipeline's pure steps: resolution ladder, time, confidence, contradictions."""

from __future__ import annotations

from kg.graph import EdgeRecord, Evidence, GraphScope, NodeRecord
from kg.pipeline.confidence import confidence_from, passage_fingerprints
from kg.pipeline.contradictions import find_contradictions
from kg.pipeline.resolve import Mention, resolve_candidate
from kg.pipeline.temporal import place_functional_edge
from tests.kg.pipeline_helpers import node_record

SCOPE = GraphScope(org="o", project="p")


def _evidence(episode: str, quote: str = "q") -> Evidence:
    return Evidence(
        episode_uid=episode,
        episode_number=1,
        quote=quote,
        start=0,
        end=len(quote),
        valid_at="2026-03-01T00:00:00.000000Z",
    )


def _evidence_in(episode: str, text: str, quote: str) -> Evidence:
    start = text.index(quote)
    return Evidence(
        episode_uid=episode,
        episode_number=1,
        quote=quote,
        start=start,
        end=start + len(quote),
        valid_at="2026-03-01T00:00:00.000000Z",
        passages=passage_fingerprints(text, start, start + len(quote)),
    )


def _node(number: int, label: str, node_type: str = "pain", **extra) -> NodeRecord:
    evidence = [_evidence(f"e{number}", label)]
    return node_record(number, label, node_type, evidence[0].valid_at, evidence=evidence, **extra)


def _never(mention, node) -> bool:
    raise AssertionError("the model must not be asked outside the ambiguous band")


def test_exact_key_and_alias_merge_without_model():
    existing = [_node(1, "The app lags on weak internet", alias_keys=["map freezes"])]
    assert (
        resolve_candidate(
            Mention("pain", "app lags on weak internet!", "q"), existing, _never
        ).method
        == "exact"
    )
    assert resolve_candidate(Mention("pain", "Map freezes", "q"), existing, _never).node.number == 1


def test_equal_lemma_keys_merge_as_exact():
    existing = [_node(1, "salon owners", "segment"), _node(2, "app lags on weak internet")]
    same = resolve_candidate(Mention("segment", "owners of salons", "q"), existing, _never)
    assert same.method == "exact" and same.node.number == 1
    inflected = resolve_candidate(
        Mention("pain", "the app lagged on a weak internet", "q"), existing, _never
    )
    assert inflected.method == "exact" and inflected.node.number == 2


def test_lemma_keys_keep_negations_and_codes_apart():
    existing = [_node(1, "export works offline"), _node(2, "photoshop cs3", "competitor")]
    negated = resolve_candidate(Mention("pain", "export does not work offline", "q"), existing, _no)
    assert negated.node is None
    other = resolve_candidate(Mention("competitor", "Photoshop CS2", "q"), existing, _no)
    assert other.node is None


def _no(mention, node) -> bool:
    return False


def test_fuzzy_merge_above_threshold_and_new_below():
    existing = [_node(1, "app lags on weak internet")]
    close = resolve_candidate(
        Mention("pain", "the app lags on weak internt", "q"), existing, _never
    )
    assert close.method == "fuzzy" and close.node.number == 1
    far = resolve_candidate(Mention("pain", "pricing is confusing", "q"), existing, _never)
    assert far.method == "new" and far.node is None


def test_model_is_asked_only_in_the_band():
    existing = [_node(1, "app lags on weak internet")]
    asked = []

    def confirm(mention, node) -> bool:
        asked.append((mention.label, node.number))
        return True

    decision = resolve_candidate(
        Mention("pain", "app is slow on bad internet", "q"), existing, confirm
    )
    assert asked == [("app is slow on bad internet", 1)]
    assert decision.method == "llm" and decision.node.number == 1


def test_different_model_numbers_are_never_merged_even_above_the_fuzzy_threshold():
    existing = [_node(1, "sony cyber-shot digital camera dsc-w170", "competitor")]
    decision = resolve_candidate(
        Mention("competitor", "sony cyber-shot digital camera dsc-w120", "q"), existing, _never
    )
    assert decision.node is None


def test_type_numbers_and_stance_keep_facts_apart():
    existing = [
        _node(1, "40% of orders are late", "metric"),
        _node(2, "price matters", "insight", subject="price", stance="positive"),
    ]
    assert (
        resolve_candidate(Mention("metric", "30% of orders are late", "q"), existing, _never).node
        is None
    )
    assert (
        resolve_candidate(Mention("pain", "40% of orders are late", "q"), existing, _never).node
        is None
    )
    opposite = Mention("insight", "price matters", "q", stance="negative")
    assert resolve_candidate(opposite, existing, _never).node is None


def _market_edge(uid: str, target: str, at: str) -> EdgeRecord:
    return EdgeRecord(
        uid=uid, relation="targets_market", source="product", target=target, valid_at=at
    )


def test_newer_value_closes_functional_relation():
    old = _market_edge("e1", "b2b", "2026-03-01T00:00:00Z")
    new = _market_edge("e2", "b2c", "2026-04-01T00:00:00Z")
    change = place_functional_edge(new, [old, new])
    assert old.invalid_at == "2026-04-01T00:00:00Z"
    assert new.invalid_at is None
    assert [(s.old, s.new, s.at) for s in change.supersessions] == [
        ("b2b", "b2c", "2026-04-01T00:00:00Z")
    ]


def test_late_older_value_goes_into_history():
    newer = _market_edge("e2", "b2c", "2026-04-01T00:00:00Z")
    late = _market_edge("e1", "b2b", "2026-03-01T00:00:00Z")
    place_functional_edge(late, [newer, late])
    assert newer.invalid_at is None  # an older fact never closes a newer one
    assert late.invalid_at == "2026-04-01T00:00:00Z"


def test_non_functional_relation_is_untouched():
    a = EdgeRecord(
        uid="a", relation="serves", source="p", target="s1", valid_at="2026-03-01T00:00:00Z"
    )
    b = EdgeRecord(
        uid="b", relation="serves", source="p", target="s2", valid_at="2026-04-01T00:00:00Z"
    )
    place_functional_edge(b, [a, b])
    assert a.invalid_at is None and b.invalid_at is None


def test_confidence_rules():
    one = [_evidence("e1")]
    two = [_evidence("e1"), _evidence("e2")]
    same_episode_twice = [_evidence("e1"), _evidence("e1", "other words")]
    many = [_evidence(f"e{i}") for i in range(8)]
    assert 60 <= confidence_from(one) <= 70
    assert 80 <= confidence_from(two) <= 90
    assert confidence_from(same_episode_twice) == confidence_from(one)
    assert confidence_from(many) == 90
    assert confidence_from(two, open_contradictions=1) < confidence_from(two)
    assert confidence_from([]) == 0


def test_opposite_stances_on_one_subject_contradict():
    matters = _node(1, "price is the main factor", "insight", subject="price", stance="positive")
    irrelevant = _node(2, "price does not matter", "insight", subject="price", stance="negative")
    speed = _node(3, "speed matters", "insight", subject="speed", stance="positive")
    found = find_contradictions(
        SCOPE, [irrelevant], [matters, irrelevant, speed], "2026-04-01T00:00:00Z"
    )
    assert [(c.a, c.b, c.status) for c in found] == [("u1", "u2", "open")]
    assert found[0].quote_a == "price is the main factor"
    again = find_contradictions(SCOPE, [matters], [matters, irrelevant], "2026-04-02T00:00:00Z")
    assert again[0].uid == found[0].uid  # the same pair always gets the same link


def test_offline_discovery_matches_whole_names_and_one_edge_per_pair():
    from kg.llm.prompts.relation_discovery import DiscoveryRequest, NodeBrief, offline_answer

    request = DiscoveryRequest(
        text="Independent couriers use Circuit every day.",
        new_nodes=[
            NodeBrief(number=5, type="segment", label="independent couriers"),
            NodeBrief(number=6, type="competitor", label="Circuit"),
        ],
        existing_nodes=[
            NodeBrief(number=1, type="segment", label="couriers"),
            NodeBrief(number=2, type="competitor", label="Circ"),
            NodeBrief(number=3, type="pain", label="route planning takes long"),
        ],
    )
    edges = [(e.relation, e.source, e.target) for e in offline_answer(request).edges]
    # "couriers" stands inside "independent couriers", "Circ" is not a whole word, and the
    # pain is not named: nothing links to them.
    assert edges == []

    request.existing_nodes = [NodeBrief(number=1, type="segment", label="dispatchers")]
    request.text = "Dispatchers compare everything to Circuit."
    assert [(e.relation, e.source, e.target) for e in offline_answer(request).edges] == [
        ("uses", 1, 6)
    ]


def test_a_passage_repeated_verbatim_across_episodes_corroborates_nothing():
    notice = (
        "This message and any attachments are confidential and intended solely for the "
        "addressee; if you received it in error, delete it."
    )
    copied = [_evidence("e1", notice), _evidence("e2", notice), _evidence("e3", notice)]
    assert confidence_from(copied) == confidence_from([_evidence("e1", notice)])
    # Short words said again by someone else are a second source, not a copy.
    said_twice = [_evidence("e1", "the app lags"), _evidence("e2", "the app lags")]
    assert confidence_from(said_twice) == confidence_from([_evidence("e1"), _evidence("e2")])
    # A copied passage plus an independent message: two sources.
    mixed = [*copied, _evidence("e4", "checkout takes too long on mobile")]
    assert confidence_from(mixed) == confidence_from([_evidence("e1"), _evidence("e4")])


def test_a_short_quote_inside_a_notice_pasted_into_several_documents_is_one_source():
    notice = (
        "This research is preliminary.\n"
        "* Imperfect and incomplete: please tell us what we missed in the interviews so far!"
    )
    documents = [f"# Findings {n}\n\n{notice}\n\nOther text {n}." for n in range(3)]
    copied = [_evidence_in(f"e{n}", text, "what we missed") for n, text in enumerate(documents)]
    assert confidence_from(copied) == confidence_from(copied[:1])
    # The same few words in sentences of their own are said again, not copied.
    own = [
        "Several requesters told us what we missed in the first round.",
        "An agency officer listed what we missed about their intake process.",
    ]
    said = [_evidence_in(f"o{n}", text, "what we missed") for n, text in enumerate(own)]
    assert confidence_from(said) > confidence_from(said[:1])


def test_sources_counted_item_by_item_agree_with_the_whole_list_in_any_order():
    """The count kept as evidence arrives (the pipeline never re-reads a node's evidence)
    equals the count over the whole list, whatever order the items came in, including an
    item that joins two groups that were apart until then."""
    import random

    from kg.pipeline.confidence import SourceCount, independent_sources

    first = "Couriers in Leeds lose the last address on every single route they drive today."
    second = "Paper lists go missing in the depot every morning before the vans leave the yard."
    both = f"{first} {second}"
    items = [
        _evidence_in("e1", first, "lose the last address"),
        _evidence_in("e2", second, "Paper lists go missing"),
        _evidence_in("e3", "Couriers hate paper maps.", "hate paper maps"),
        _evidence_in("e4", both, "lose the last address"),
        _evidence_in("e4", both, "Paper lists go missing"),  # e1 and e2 become one source
        _evidence_in("e5", first, "lose the last address"),
    ]
    assert independent_sources(items) == 2
    rng = random.Random(3)
    for _ in range(20):
        order = rng.sample(items, len(items))
        counted = SourceCount()
        seen = []
        for item in order:
            counted.add(item)
            seen.append(item)
            assert counted.count == independent_sources(seen)
        twin = counted.copy()
        twin.add(_evidence("e9", "checkout takes too long"))
        assert (counted.count, twin.count) == (2, 3)
