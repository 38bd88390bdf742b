"""Reviews judged about a feature, scored by whether the ladder lands them on that feature."""

from __future__ import annotations

import csv

from kg.realdata.feature_queries import FILE, evaluate_feature_queries, query_split

HEADER = ["app", "query", "app_id", "review_id", "review_content", "relevant"]


def _judgements(tmp_path, rows):
    path = tmp_path / FILE
    path.parent.mkdir(parents=True)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        for number, (query, review, relevant) in enumerate(rows):
            writer.writerow(["WhatsApp", query, "app", f"r{number}", review, relevant])
    return tmp_path


def test_a_review_naming_the_feature_lands_on_it_and_an_unrelated_one_does_not(tmp_path):
    datasets = _judgements(
        tmp_path,
        [
            ("Send messages", "I can send messages to anyone for free.", "Y"),
            ("Send messages", "The camera takes lovely pictures.", "N"),
            ("Send messages", "The battery drains too fast.", "Y"),
        ],
    )
    split = query_split("WhatsApp", "Send messages")
    figures = evaluate_feature_queries(datasets, split)
    assert figures["queries"] == 1 and figures["pairs"] == 3 and figures["relevant"] == 2
    assert figures["found"] == 1
    assert figures["precision"] == 1.0 and figures["recall"] == 0.5
    other = "test" if split == "dev" else "dev"
    assert evaluate_feature_queries(datasets, other)["pairs"] == 0


def test_no_judgement_file_gives_no_figures(tmp_path):
    assert evaluate_feature_queries(tmp_path, "dev") == {}


def test_in_a_project_named_after_the_app_its_name_no_longer_hides_a_feature(tmp_path):
    """Read with no product known, "WhatsApp groups" is a workaround (a messenger's groups);
    in the project of WhatsApp itself it is the app's feature the query names."""
    datasets = _judgements(
        tmp_path, [("Groups", "We coordinate the whole team in WhatsApp groups.", "Y")]
    )
    figures = evaluate_feature_queries(datasets, query_split("WhatsApp", "Groups"))
    assert figures["found"] == 0 and figures["recall"] == 0.0
    named = figures["in_a_project_named_after_the_app"]
    assert named["found"] == 1 and named["recall"] == 1.0
