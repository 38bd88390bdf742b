"""Does a new review about a feature the project knows land on that feature?

A PM's project holds a feature node ("Offline listening"); a review arrives. The product
should extract the review's features and the resolution ladder should merge the one that is
the known feature, in whatever words the reviewer used ("listen to my playlists without
wifi"). The study-2 judgments of `en_app_reviews_features` say, for 24 feature queries and
1,111 reviews pooled for them, whether each review is about the query's feature. The
annotators were the paper's, not ours, and none of these reviews was read to write a rule.

Scoring rule, fixed before the first run: for each judged (query, review) pair, the offline
engine extracts the review's nodes; each extracted feature is a mention resolved by the real
ladder (`resolve_candidate`, offline confirmation) against one existing feature node labelled
with the query. The pair is "found" when any feature merges. Precision = found pairs judged
relevant / found pairs; recall = found pairs judged relevant / pairs judged relevant. Queries,
not pairs, go to dev or test (`split_of` over "app|query"), so no query is seen on both sides.
The rule reads each review with no product known. The same pairs are also scored as a PM's
project would read them, a project named after the app (added later, reported beside it): the
app's own name is then never a rival or a workaround, and the features said with it stay.
"""

from __future__ import annotations

import csv
from pathlib import Path

from kg.llm.prompts.extraction_models import ExtractionRequest
from kg.operations.evaluation import Score
from kg.pipeline.resolve import Mention, resolve_candidate
from kg.realdata.resolution import existing_node, offline_confirmation
from kg.realdata.splits import Split, split_of

DATASET = "en_app_reviews_features/study2_queries"
FILE = Path("en_app_reviews_features") / "study2_query_review_relevance.csv"


def query_split(app: str, query: str) -> Split:
    return split_of(DATASET, f"{app}|{query}")


def features_of(text: str, project_name: str = "") -> list[Mention]:
    """The features the offline engine accepts from a review, as resolution mentions."""
    from kg.llm.offline.extractor import extract_offline
    from kg.pipeline.extract import check_answer

    request = ExtractionRequest(text=text, language="en", product="", project_name=project_name)
    answer = extract_offline(request)
    return [
        Mention("feature", n.candidate.label, n.candidate.quote)
        for n in check_answer(text, answer).nodes
        if n.candidate.type == "feature"
    ]


def lands_on(query: str, mentions: list[Mention]) -> bool:
    known = [existing_node(query, "feature")]
    return any(resolve_candidate(m, known, offline_confirmation).method != "new" for m in mentions)


def evaluate_feature_queries(datasets: Path, split: Split) -> dict:
    path = datasets / FILE
    if not path.exists():
        return {}
    with path.open(encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if query_split(r["app"], r["query"]) == split]
    queries = {f"{row['app']}|{row['query']}" for row in rows}
    unnamed, named = _score(rows, named_project=False), _score(rows, named_project=True)
    return {
        "queries": len(queries),
        "pairs": len(rows),
        "relevant": unnamed.tp + unnamed.fn,
        **_figures(unnamed),
        "in_a_project_named_after_the_app": _figures(named),
    }


def _score(rows: list[dict[str, str]], *, named_project: bool) -> Score:
    score = Score()
    mentions: dict[tuple[str, str], list[Mention]] = {}
    for row in rows:
        text = row["review_content"].strip()
        project = row["app"].strip() if named_project else ""
        if (text, project) not in mentions:
            mentions[text, project] = features_of(text, project)
        found = lands_on(row["query"], mentions[text, project])
        relevant = row["relevant"].strip().upper() == "Y"
        score.tp += found and relevant
        score.fp += found and not relevant
        score.fn += relevant and not found
    return score


def _figures(score: Score) -> dict:
    return {
        "found": score.tp + score.fp,
        "precision": round(score.precision, 3),
        "recall": round(score.recall, 3),
        "f1": round(score.f1, 3),
    }
