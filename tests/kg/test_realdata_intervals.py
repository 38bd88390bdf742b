"""The bootstrap interval reported beside every real-data figure."""

from __future__ import annotations

from kg.operations.evaluation import Score
from kg.realdata.intervals import bootstrap_interval


def _items(times: int) -> list[Score]:
    # a mix of items: found all, found some with a false node, found nothing, invented one
    mix = [Score(tp=2), Score(tp=1, fp=1, fn=1), Score(fn=1), Score(fp=1)]
    return mix * times


def test_the_interval_holds_the_figure_and_repeats_exactly():
    scores = _items(10)
    total = Score()
    for s in scores:
        total.add(s)
    interval = bootstrap_interval(scores)
    low, high = interval["precision"]
    assert 0.0 <= low < total.precision < high <= 1.0
    low, high = interval["recall"]
    assert 0.0 <= low < total.recall < high <= 1.0
    assert bootstrap_interval(scores) == interval
    assert interval["level"] == 0.95 and interval["resamples"] == 1000


def test_more_items_of_the_same_kind_give_a_narrower_interval():
    def width(scores: list[Score]) -> float:
        low, high = bootstrap_interval(scores)["precision"]
        return high - low

    assert width(_items(100)) < width(_items(10)) / 2


def test_items_all_right_leave_no_doubt_and_no_items_give_no_interval():
    assert bootstrap_interval([Score(tp=1)] * 20)["precision"] == [1.0, 1.0]
    empty = bootstrap_interval([])
    assert empty["precision"] is None and empty["resamples"] == 0
