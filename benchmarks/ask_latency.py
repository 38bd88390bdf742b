"""How long a question and a quote search take at 10,000 messages (offline engine).

The 10,000 app reviews of en_app_reviews_features (study 2) are imported into one throwaway
project and run through the pipeline; then every question of the ask set about those apps'
reviews is answered and searched, each timed three times (the first of a question warms
the encoder's cache of the passages it reads). Targets: an answer's p95 ≤ 1 s, a search's
p95 ≤ 300 ms. Figures in results/ask_latency.json.
Run: python -m benchmarks.ask_latency [messages]
"""

from __future__ import annotations

import csv
import json
import statistics
import sys
import time

from benchmarks.environment import RESULTS, bench_environment

ROUNDS = 3


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _figures(values: list[float]) -> dict:
    return {
        "runs": len(values),
        "p50_ms": round(statistics.median(values) * 1000, 1),
        "p95_ms": round(_percentile(values, 0.95) * 1000, 1),
        "max_ms": round(max(values) * 1000, 1),
    }


def main() -> None:
    bench_environment()
    from chat.answers import answer_question
    from chat.realdata import load_questions
    from kg.ledger.episodes import EpisodeInput, record_new_episodes
    from kg.models import EpisodeKind, Organization, Project
    from kg.pipeline.ingest import ingest_recorded_episodes
    from kg.reading.search import search_quotes
    from kg.realdata.suite import default_annotations, default_datasets

    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    path = default_datasets() / "en_app_reviews_features" / "study2_reviews.csv"
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))[:limit]
    org = Organization.objects.create(slug="bench", name="bench")
    project = Project.objects.create(organization=org, slug="reviews", name="Reviews")
    started = time.perf_counter()
    episodes, _ = record_new_episodes(
        project,
        (EpisodeInput(content=r["content"], kind=EpisodeKind.IMPORT) for r in rows),
        enqueue=False,
    )
    ingest_recorded_episodes(episodes, sync=True)
    built = time.perf_counter() - started
    questions = [
        q["question"]
        for q in load_questions(default_annotations())
        if q["corpus"].startswith("app_reviews_")
    ]
    answers: list[float] = []
    searches: list[float] = []
    refused = 0
    for _ in range(ROUNDS):
        for question in questions:
            begun = time.perf_counter()
            refused += answer_question(project, question).refused
            answers.append(time.perf_counter() - begun)
            begun = time.perf_counter()
            search_quotes(project, question)
            searches.append(time.perf_counter() - begun)
    report = {
        "messages": len(episodes),
        "build_seconds": round(built, 1),
        "questions": len(questions),
        "answer": _figures(answers),
        "search": _figures(searches),
        "refused_share": round(refused / len(answers), 3),
        "targets": {"answer_p95_ms": 1000, "search_p95_ms": 300},
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "ask_latency.json").write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
