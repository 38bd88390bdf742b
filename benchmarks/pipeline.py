"""Pipeline benchmarks: chat messages per second in this process (offline engine, real graph),
and the resolution ladder's own cost over a list of 1k / 10k / 100k candidates, as it was before
the candidate index. The pipeline never hands the ladder such a list: the index gives it a few
dozen (`benchmarks.write_path`'s resolution section measures the lookup at 100k nodes).
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


def main() -> None:
    bench_environment()
    figures = {
        "machine": f"{platform.machine()} {platform.python_version()}",
        "ladder_ms_over_a_candidate_list_of": resolve_times(),
        "chat_messages_in_process": episodes_per_second(),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "pipeline.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
