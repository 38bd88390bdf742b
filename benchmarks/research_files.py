"""Research files imported offline: a 200-page PDF and a 10,000-row CSV survey read and
recorded as episodes (the ledger write, in bulk), then end to end: recorded and run through the
pipeline with the offline engine in this process, by its batch path
(kg.pipeline.ingest.ingest_recorded_episodes), the whole PDF and the first PIPELINE_ROWS rows
of the survey. Run: python -m benchmarks.research_files

The machine is shared: figures are noisy; each is the median of a few runs, min/max kept.
"""

from __future__ import annotations

import json
import platform
import random
import statistics
import time

from benchmarks.environment import RESULTS, bench_environment

RUNS = 3
PAGES = 200
ROWS = 10_000
PIPELINE_ROWS = 1_000  # rows of the survey run end to end (the whole file would take long)
WORDS = [
    "couriers",
    "maps",
    "route",
    "export",
    "invoice",
    "photo",
    "upload",
    "sync",
    "slow",
    "offline",
    "report",
    "visit",
    "dispatcher",
    "customer",
    "price",
    "team",
    "schedule",
    "paper",
    "late",
    "app",
    "error",
    "login",
    "support",
]


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 16))).capitalize() + "."


def _pdf(rng: random.Random) -> bytes:
    from tests.kg.source_files import pdf_bytes

    return pdf_bytes([[_sentence(rng) for _ in range(40)] for _ in range(PAGES)])


def _csv(rng: random.Random) -> bytes:
    from tests.kg.source_files import csv_bytes

    rows = [
        [str(n), " ".join(_sentence(rng) for _ in range(2)), f"user{n % 300}", "2024-03-05"]
        for n in range(1, ROWS + 1)
    ]
    return csv_bytes(["id", "answer", "respondent", "submitted"], rows)


def _first_rows(raw: bytes, rows: int) -> bytes:
    lines = raw.split(b"\n")
    return b"\n".join(lines[: rows + 1]) + b"\n"


def _measure(name: str, raw: bytes, options, run: int) -> dict:
    from kg.ledger.sources import read_source
    from kg.ledger.sources.recording import record_read
    from kg.models import Organization, Project

    org, _ = Organization.objects.get_or_create(slug="bench-files", name="bench")
    project = Project.objects.create(organization=org, slug=f"{name.replace('.', '-')}-{run}")
    started = time.perf_counter()
    read = read_source(name, raw, options)
    read_s = time.perf_counter() - started
    report = record_read(project, name, read, fmt=name.rsplit(".", 1)[1], enqueue=False)
    total_s = time.perf_counter() - started
    return {
        "read_s": read_s,
        "record_s": total_s - read_s,
        "total_s": total_s,
        "episodes": len(report.episodes),
    }


def _end_to_end(name: str, raw: bytes, options) -> dict:
    """Read, record and run the pipeline (offline engine, in this process) for one file."""
    from kg.ledger.sources import read_source
    from kg.ledger.sources.recording import record_read
    from kg.models import EpisodeProcessing, Organization, ProcessingStatus, Project
    from kg.pipeline.ingest import ingest_recorded_episodes

    org, _ = Organization.objects.get_or_create(slug="bench-files", name="bench")
    project = Project.objects.create(organization=org, slug=f"{name.replace('.', '-')}-e2e")
    started = time.perf_counter()
    read = read_source(name, raw, options)
    report = record_read(project, name, read, fmt=name.rsplit(".", 1)[1], enqueue=False)
    recorded_s = time.perf_counter() - started
    failed = ingest_recorded_episodes(report.episodes, sync=True)
    total_s = time.perf_counter() - started
    done = EpisodeProcessing.objects.filter(
        episode__project=project, status=ProcessingStatus.DONE
    ).count()
    episodes = len(report.episodes)
    return {
        "episodes": episodes,
        "done": done,
        "failed": len(failed),
        "record_s": round(recorded_s, 3),
        "pipeline_s": round(total_s - recorded_s, 3),
        "total_s": round(total_s, 3),
        "episodes_per_s": round(episodes / total_s, 1),
    }


def _summary(runs: list[dict], size: dict) -> dict:
    totals = [r["total_s"] for r in runs]
    median = statistics.median(totals)
    episodes = runs[0]["episodes"]
    return {
        **size,
        "episodes": episodes,
        "runs": len(runs),
        "read_s_median": round(statistics.median(r["read_s"] for r in runs), 3),
        "record_s_median": round(statistics.median(r["record_s"] for r in runs), 3),
        "total_s_median": round(median, 3),
        "total_s_min": round(min(totals), 3),
        "total_s_max": round(max(totals), 3),
        "episodes_per_s": round(episodes / median, 1),
    }


def main() -> None:
    bench_environment()
    from kg.ledger.sources import ImportOptions

    rng = random.Random(15)
    pdf, survey = _pdf(rng), _csv(rng)
    columns = ImportOptions(
        text_columns=("answer",), author_column="respondent", date_column="submitted"
    )
    figures = {
        "machine": f"{platform.machine()} {platform.python_version()}",
        "database": "sqlite (temporary file)",
        "note": "read (pypdf / csv) and record (one transaction, written in bulk, pipeline not "
        "queued); shared 2-core machine: median of runs, min/max kept",
        "pdf_200_pages": _summary(
            [_measure("interviews.pdf", pdf, ImportOptions(), n) for n in range(RUNS)],
            {"pages": PAGES, "bytes": len(pdf)},
        ),
        "csv_10000_rows": _summary(
            [_measure("survey.csv", survey, columns, n) for n in range(RUNS)],
            {"rows": ROWS, "bytes": len(survey)},
        ),
        "end_to_end_offline": {
            "note": "read, record, then the pipeline in this process (offline engine, batch "
            "path, one run each)",
            "pdf_200_pages": _end_to_end("interviews.pdf", pdf, ImportOptions()),
            f"csv_first_{PIPELINE_ROWS}_rows": _end_to_end(
                "survey.csv", _first_rows(survey, PIPELINE_ROWS), columns
            ),
        },
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "research_files.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
