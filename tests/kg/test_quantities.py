"""Numbers are checked as quantities (value, scale, unit), and one message may state several
values of a functional relation without any of them getting a zero-length validity."""

from __future__ import annotations

import pytest

from artifacts.checks import uncovered_numbers
from kg.graph import EdgeRecord
from kg.pipeline.evidence import numbers_missing, quantities_in
from kg.pipeline.temporal import place_functional_edge


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("Revenue reached $3M", "revenue reached $3k last year"),
        ("40% of orders are late", "40 couriers are late"),
        ("40 couriers quit", "40% quit"),
        ("Conversion is 2.5%", "conversion is 25%"),
        ("It takes 2 weeks", "it takes 2 days"),
        ("€3M raised", "$3M raised"),
        ("3 млн пользователей", "3 тыс. пользователей"),
    ],
)
def test_a_different_quantity_is_not_quoted(claim, quote):
    assert numbers_missing(claim, quote) != []
    assert uncovered_numbers(claim, [quote]) != []


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("1 200 orders a day", "1,200 orders a day"),
        ("3000 рублей", "«3 тыс. рублей»"),
        ("Revenue reached $3M", "revenue reached $3 million"),
        ("Revenue reached 3M dollars", "revenue reached $3,000,000"),
        ("It takes 2 weeks", "it takes 14 days"),
        ("40 percent of orders", "40% of orders"),
        ("1200", "1 200 рублей в месяц"),  # a unit the claim leaves out is not contradicted
        ("2.5 hours", "2,5 hours"),
    ],
)
def test_the_same_quantity_written_differently_is_quoted(claim, quote):
    assert numbers_missing(claim, quote) == []
    assert uncovered_numbers(claim, ["nothing here", quote]) == []


def test_quantities_carry_scale_and_unit():
    three_k, three_m = quantities_in("$3k then $3M")
    assert (three_k.value, three_k.unit) == (3000, "$")
    assert (three_m.value, three_m.unit) == (3_000_000, "$")
    assert [q.written for q in quantities_in("1 200 and 3 тыс.")] == ["1200", "3"]


def test_uncovered_numbers_names_the_number_as_written():
    assert uncovered_numbers("$3M from 40% of 1,200 users", ["$3k from 40 of 1200 users"]) == [
        "3",
        "40",
    ]


def _market(uid: str, target: str, at: str) -> EdgeRecord:
    return EdgeRecord(
        uid=uid, relation="targets_market", source="product", target=target, valid_at=at
    )


def test_two_values_in_one_message_both_stay_valid():
    at = "2026-03-01T09:00:00.000000Z"
    first = _market("a", "clinics", at)
    second = _market("b", "hotels", at)
    place_functional_edge(first, [first])
    change = place_functional_edge(second, [first, second])
    assert first.invalid_at is None and second.invalid_at is None
    assert change.supersessions == []
    # A later message still supersedes both.
    later = _market("c", "schools", "2026-04-01T09:00:00.000000Z")
    place_functional_edge(later, [first, second, later])
    assert first.invalid_at == second.invalid_at == later.valid_at
    for edge in (first, second):
        assert edge.invalid_at > edge.valid_at  # never a zero-length validity
