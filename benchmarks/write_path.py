"""Write-path benchmarks: resolution through the candidate index at 1k / 10k / 100k nodes of
one type (SQL lookup + the resolution ladder on the candidates), and offline ingest per
episode early and late in a growing project. Run: python -m benchmarks.write_path

The machine is shared: figures are noisy; the JSON says when and where they were taken.
"""

from __future__ import annotations

import json
import platform
import random
import sys
import time

from benchmarks.environment import RESULTS, bench_environment


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return round(ordered[max(0, int(share * len(ordered)) - 1)], 2)


def resolution_through_index(sizes: tuple[int, ...], probes: int = 200) -> dict:
    from kg.graph import NodeRecord
    from kg.models import Organization, Project
    from kg.pipeline import candidates
    from kg.pipeline.resolve import Mention, node_key, resolve_candidate

    rng = random.Random(7)
    words = [f"w{i}" for i in range(5000)]
    org = Organization.objects.create(slug="bench-index", name="bench")
    results = {}
    for size in sizes:
        project = Project.objects.create(organization=org, slug=f"index-{size}", name="Bench")
        labels = [" ".join(rng.sample(words, 4)) for _ in range(size)]
        started = time.perf_counter()
        for start in range(0, size, 2000):
            candidates.index_nodes(
                project,
                [
                    NodeRecord(
                        uid=f"n{i}",
                        number=i + 1,
                        type="pain",
                        label=label,
                        key=node_key(label),
                        valid_at="2026-01-01T00:00:00.000000Z",
                    )
                    for i, label in enumerate(labels[start : start + 2000], start=start)
                ],
            )
        filed = time.perf_counter() - started
        timings = []
        for probe in range(probes):
            if probe % 2:  # half are restatements of an existing label, half are unseen
                label = " ".join(reversed(rng.choice(labels).split()))
            else:
                label = " ".join(rng.sample(words, 4))
            mention = Mention("pain", label, "q")
            started = time.perf_counter()
            pool = candidates.candidates_for(project, "pain", label)
            resolve_candidate(mention, pool, lambda m, n: False)
            timings.append((time.perf_counter() - started) * 1000)
        results[str(size)] = {
            "p50_ms": _percentile(timings, 0.5),
            "p95_ms": _percentile(timings, 0.95),
            "index_fill_seconds": round(filed, 1),
        }
        print(size, results[str(size)], flush=True)
    return results


def main() -> None:
    bench_environment()
    sizes = tuple(int(a) for a in sys.argv[1:]) or (1_000, 10_000, 100_000)
    figures = {
        "machine": f"{platform.machine()} {platform.python_version()}, 2 shared cores",
        "taken_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "note": "shared machine: other engineers ran test suites at the same time; noisy",
        "resolution_through_candidate_index": resolution_through_index(sizes),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "write_path.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
