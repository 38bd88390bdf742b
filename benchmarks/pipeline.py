"""Pipeline benchmarks: chat messages per second in this process (offline engine, real graph),
and the resolution ladder's own cost over a list of 1k / 10k / 100k candidates, as it was before
the candidate index. The pipeline never hands the ladder such a list: the index gives it a few
dozen (`benchmarks.write_path`'s resolution section measures the lookup at 100k nodes).
Also promotion to the organization over two projects of N nodes each: its seconds should grow
with N, not with N squared (each node is compared with the few its blocks name).
Run: python -m benchmarks.pipeline
"""

from __future__ import annotations

import json
import platform
import random
import statistics
import time
from pathlib import Path

from benchmarks.environment import RESULTS, bench_environment

GOLD = Path(__file__).resolve().parent.parent / "tests" / "kg" / "gold"


def resolve_times(sizes: tuple[int, ...] = (1_000, 10_000, 100_000), probes: int = 50) -> dict:
    from kg.graph import Evidence, NodeRecord
    from kg.pipeline.resolve import Mention, node_key, resolve_candidate

    rng = random.Random(7)
    # Words of letters: a word with a digit is a code (a version, a model number), which labels
    # seldom hold and which the ladder compares apart.
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = sorted({"".join(rng.choices(letters, k=6)) for _ in range(5000)})
    results = {}
    for size in sizes:
        nodes = []
        for i in range(size):
            label = " ".join(rng.sample(words, 4))
            nodes.append(
                NodeRecord(
                    uid=f"n{i}",
                    number=i + 1,
                    type="pain",
                    label=label,
                    key=node_key(label),
                    valid_at="2026-01-01T00:00:00Z",
                    evidence=[
                        Evidence(
                            episode_uid="e",
                            episode_number=1,
                            quote=label,
                            start=0,
                            end=len(label),
                            valid_at="2026-01-01T00:00:00Z",
                        )
                    ],
                )
            )
        timings = []
        for _ in range(probes):
            mention = Mention("pain", " ".join(rng.sample(words, 4)), "q")
            started = time.perf_counter()
            resolve_candidate(mention, nodes, lambda m, n: False)
            timings.append((time.perf_counter() - started) * 1000)
        results[str(size)] = {
            "median_ms": round(statistics.median(timings), 2),
            "p95_ms": round(sorted(timings)[int(0.95 * len(timings)) - 1], 2),
        }
    return results


def episodes_per_second(repeat: int = 3) -> dict:
    from kg.ledger.episodes import EpisodeInput, record_episode
    from kg.models import Organization, Project
    from kg.pipeline.ingest import episode_ingest

    messages = []
    for path in sorted(GOLD.glob("*.json")):
        gold = json.loads(path.read_text(encoding="utf-8"))
        messages += [(gold["language"], m["text"]) for m in gold["messages"]]
    org = Organization.objects.create(slug="bench", name="bench")
    project = Project.objects.create(organization=org, slug="bench", name="Bench", language="en")
    started = time.perf_counter()
    count = 0
    for _ in range(repeat):
        for _language, text in messages:
            episode = record_episode(project, EpisodeInput(content=text), enqueue=False)
            episode_ingest(episode.pk)
            count += 1
    elapsed = time.perf_counter() - started
    return {
        "episodes": count,
        "seconds": round(elapsed, 2),
        "episodes_per_second": round(count / elapsed, 2),
    }


def promotion_seconds(sizes: tuple[int, ...] = (300, 1_500), seed: int = 5) -> dict:
    """Promotion of an organization of two projects with `size` pains each (labels that share
    words, as real pains do): seconds of the first run and of an unchanged second run."""
    from benchmarks.write_path import PLACES, PROBLEMS, ROLES, THINGS
    from kg.graph import NodeRecord, store
    from kg.graph.records import EpisodeStub
    from kg.models import Organization, Project
    from kg.pipeline.resolve import node_key
    from orgmemory.services import promote_for_org

    rng = random.Random(seed)
    out = {}
    for size in sizes:
        org = Organization.objects.create(slug=f"promotion-{size}", name="bench")
        for slug in ("one", "two"):
            project = Project.objects.create(organization=org, slug=f"{slug}-{size}", name="")
            scope = project.graph_scope
            store.upsert_episode_stub(
                scope, EpisodeStub(uid=f"{scope.project}-e", number=1, valid_at="2026-01-01")
            )
            nodes = []
            for number in range(1, size + 1):
                label = (
                    f"{rng.choice(THINGS)} {rng.choice(PROBLEMS)} "
                    f"for {rng.choice(ROLES)} in {rng.choice(PLACES)}"
                )
                nodes.append(
                    NodeRecord(
                        uid=f"{scope.project}-{number}",
                        number=number,
                        type="pain",
                        label=label,
                        key=node_key(label),
                        confidence=65,
                        valid_at="2026-01-01T00:00:00Z",
                    )
                )
            for start in range(0, size, 500):
                store.write_nodes(scope, nodes[start : start + 500])
        started = time.perf_counter()
        report = promote_for_org(org)
        first = time.perf_counter() - started
        started = time.perf_counter()
        promote_for_org(org)
        out[str(size)] = {
            "first_run_seconds": round(first, 2),
            "unchanged_run_seconds": round(time.perf_counter() - started, 2),
            "insights": len(report.created),
            "confirmations": report.confirmations,
        }
    return out


def main() -> None:
    bench_environment()
    figures = {
        "machine": f"{platform.machine()} {platform.python_version()}",
        "ladder_ms_over_a_candidate_list_of": resolve_times(),
        "chat_messages_in_process": episodes_per_second(),
        "promotion_two_projects_of_n_pains": promotion_seconds(),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "pipeline.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
