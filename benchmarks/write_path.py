"""Write-path benchmarks. Run: python -m benchmarks.write_path [section ...]

- `resolution`: resolution through the candidate index at 1k / 10k / 100k nodes of one type
  (the SQL lookup + the resolution ladder on the candidates);
- `worker`: offline ingest of varied imported messages through a real Celery worker process
  (2 pool processes, the machine's 2 cores), the embedded broker and graph: episodes per
  second, and the cost per episode of the first 100 episodes against the last 100 of a project
  of INGEST_EPISODES (default 10,000);
- `openai`: the openai engine against the scripted server answering after 1 s, four worker
  threads on one project: model calls per chat episode, per imported message, and how long
  the project lock is held per episode (p50/p95).

Each section's figures replace its own entry in results/write_path.json. The machine is
shared: figures are noisy; the JSON says when and where they were taken.
"""

from __future__ import annotations

import json
import os
import platform
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

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


ROLES = [
    "couriers", "dispatchers", "florists", "bakers", "tutors", "nurses", "drivers", "cashiers",
    "landlords", "plumbers", "pharmacists", "barbers", "waiters", "teachers", "accountants",
    "gardeners", "mechanics", "librarians", "painters", "electricians",
]  # fmt: skip
PLACES = [
    "Leeds", "York", "Bath", "Derby", "Hull", "Ripon", "Wells", "Truro", "Exeter", "Bristol",
    "Oxford", "Durham", "Chester", "Lincoln", "Norwich", "Carlisle", "Preston", "Salford",
    "Dundee", "Perth", "Stirling", "Inverness", "Cardiff", "Newport", "Swansea", "Bangor",
    "Belfast", "Armagh", "Lisburn", "Derry",
]  # fmt: skip
THINGS = [
    "booking app", "route planner", "invoice form", "rota sheet", "price list", "order screen",
    "delivery map", "stock report", "payment page", "sign-up form", "search box", "calendar",
    "chat widget", "export button", "photo upload", "login page", "receipt printer",
    "loyalty card", "reminder text", "timesheet",
]  # fmt: skip
PROBLEMS = [
    "lags on weak internet", "freezes every morning", "loses the last address",
    "takes ten minutes to load", "crashes after the update", "shows the wrong prices",
    "logs everyone out at noon", "drops half of the orders", "sends reminders twice",
    "forgets the saved filters", "hides the cancel button", "rounds totals the wrong way",
]  # fmt: skip
TOOLS = ["Excel", "WhatsApp groups", "paper lists", "a shared calendar", "sticky notes"]
JOBS = [
    "hand out routes every morning", "track who paid", "plan the weekly rota",
    "count the stock on Fridays", "match invoices to payments",
]  # fmt: skip


def varied_messages(count: int, seed: int = 11) -> list[str]:
    """Messages that keep naming new groups, things and problems, as a long research project
    does (no two alike, so no answer is reused from the record of an identical prompt)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        role, place = rng.choice(ROLES), rng.choice(PLACES)
        if i % 3 == 2:
            out.append(
                f"Most {role} in {place} use {rng.choice(TOOLS)} to {rng.choice(JOBS)}, "
                f"interview {i}."
            )
        else:
            out.append(
                f"{role.capitalize()} in {place} say the {rng.choice(THINGS)} "
                f"{rng.choice(PROBLEMS)} (note {i})."
            )
    return out


def _worker_process(log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool",
            "prefork",
            "--concurrency",
            "2",
            "-l",
            "warning",
            "--without-gossip",
            "--without-mingle",
            "-n",
            f"bench-{os.getpid()}@%h",
        ],  # fmt: skip
        env=os.environ | {"DEBUG": "true"},
        cwd=Path(__file__).resolve().parent.parent,
        start_new_session=True,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )


def _record_and_wait(project, texts: list[str], start: int, timeout: float = 3600) -> float:
    """Record a chunk of imported messages (queued on commit), wait until all are done."""
    import datetime as dt

    from django.db import transaction

    from kg.ledger.episodes import EpisodeInput, record_episode
    from kg.models import EpisodeKind, EpisodeProcessing

    base = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    target = start + len(texts)
    started = time.perf_counter()
    with transaction.atomic():
        for i, text in enumerate(texts, start=start):
            item = EpisodeInput(
                content=text, kind=EpisodeKind.IMPORT, valid_at=base + dt.timedelta(minutes=i)
            )
            record_episode(project, item)
    while time.perf_counter() - started < timeout:
        finished = Counter(
            EpisodeProcessing.objects.filter(
                episode__project=project, status__in=["done", "failed"]
            ).values_list("status", flat=True)
        )
        if sum(finished.values()) >= target:
            if finished.get("failed"):
                raise RuntimeError(f"{finished['failed']} episodes failed")
            return time.perf_counter() - started
        time.sleep(0.2)
    raise TimeoutError(f"chunk of {len(texts)} not done in {timeout:.0f}s")


def offline_ingest_through_worker(total: int, edge: int = 100, chunk: int = 1000) -> dict:
    """The first `edge` episodes, the bulk in chunks, the last `edge`: seconds per episode at
    the start against at the end of a project of `total` episodes."""
    import tempfile

    from kg.graph import store
    from kg.models import LLMCall, Organization, Project

    texts = varied_messages(total)
    org = Organization.objects.create(slug="bench-worker", name="bench")
    project = Project.objects.create(organization=org, slug="worker", name="", language="en")
    log = Path(tempfile.mkdtemp(prefix="groundwork-bench-worker-")) / "worker.log"
    worker = _worker_process(log)
    try:
        _record_and_wait(  # warm-up: the worker's start, imports and first connections
            Project.objects.create(organization=org, slug="warm", name="", language="en"),
            varied_messages(20, seed=3),
            0,
        )
        first = _record_and_wait(project, texts[:edge], 0)
        done, middle = edge, 0.0
        while done < total - edge:
            size = min(chunk, total - edge - done)
            middle += _record_and_wait(project, texts[done : done + size], done)
            done += size
            print(f"  {done} episodes, {done / (first + middle):.1f}/s", flush=True)
        last = _record_and_wait(project, texts[done:total], done) if total > edge else 0.0
    finally:
        os.killpg(worker.pid, 15)
        worker.wait(60)
    elapsed = first + middle + last
    at_start = first / edge * 1000
    at_end = last / max(1, total - done) * 1000 if total > edge else at_start
    calls = LLMCall.objects.filter(project=project)
    return {
        "episodes": total,
        "seconds": round(elapsed, 1),
        "episodes_per_second": round(total / elapsed, 1),
        "ms_per_episode_first_100": round(at_start, 1),
        f"ms_per_episode_last_100_of_{total}": round(at_end, 1),
        "end_over_start": round(at_end / at_start, 2),
        "batch_extraction_calls": calls.filter(operation="batch_extraction").count(),
        "nodes": len(store.list_nodes(project.graph_scope)),
    }


@contextmanager
def _timed_lock(held: list[float]):
    """kg.pipeline.ingest's project lock, with the time it is held recorded per episode
    integrated in the hold (the episodes of a batch are integrated in one hold)."""
    from kg.pipeline import ingest

    original, integrate = ingest._project_lease, ingest.integrate
    integrated = threading.local()

    def counted_integrate(*args, **kwargs):
        integrated.count = getattr(integrated, "count", 0) + 1
        return integrate(*args, **kwargs)

    @contextmanager
    def project_lease(project_id: int):
        with original(project_id) as lease:
            integrated.count = 0
            started = time.perf_counter()
            try:
                yield lease
            finally:
                elapsed = (time.perf_counter() - started) * 1000
                episodes = max(1, integrated.count)
                held.extend([elapsed / episodes] * episodes)

    ingest._project_lease, ingest.integrate = project_lease, counted_integrate
    try:
        yield
    finally:
        ingest._project_lease, ingest.integrate = original, integrate


def _model_answer(body: dict) -> dict:
    """The scripted model: a group and its problem from each message it is sent."""
    import re

    operation = body["response_format"]["json_schema"]["name"]
    prompt = body["messages"][1]["content"]
    if operation == "resolution_batch":
        questions = re.findall(r"--- question (\d+) ", prompt)
        return {"answers": [{"question": int(q), "same": False, "reason": "-"} for q in questions]}

    def answer(text: str) -> dict:
        found = re.match(r"(\w+) in (\w+) say the (.+?) \(", text.strip())
        if not found:
            return {"nodes": [], "relations": []}
        role, place, problem = found.groups()
        nodes = [
            {"ref": "n1", "type": "segment", "label": f"{role.lower()} in {place}",
             "quote": f"{role} in {place}"},
            {"ref": "n2", "type": "pain", "label": problem, "quote": problem},
        ]  # fmt: skip
        relation = {"relation": "experiences", "source": "n1", "target": "n2",
                    "quote": f"{role} in {place} say the {problem}"}  # fmt: skip
        return {"nodes": nodes, "relations": [relation]}

    if operation == "batch_extraction":
        blocks = re.findall(
            r"--- message (\d+) ---\n(.*?)(?=\n--- message \d+ ---\n|\Z)",
            prompt.split("Messages:\n", 1)[1],
            re.S,
        )
        return {"items": [{"message": int(n), **answer(t)} for n, t in blocks]}
    return answer(prompt.split("Message:\n", 1)[1])


def _ingest_in_threads(episode_ids: list[int], threads: int) -> None:
    """Workers as threads of this process, each taking the next episode, as a pool does."""
    from django.db import connection

    from kg.pipeline.ingest import episode_ingest

    queue = list(episode_ids)
    guard = threading.Lock()
    errors: list[BaseException] = []

    def work() -> None:
        try:
            while True:
                with guard:
                    if not queue:
                        return
                    episode_id = queue.pop(0)
                episode_ingest(episode_id)
        except BaseException as exc:  # raised below
            errors.append(exc)
        finally:
            connection.close()

    pool = [threading.Thread(target=work) for _ in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    if errors:
        raise errors[0]


def openai_against_slow_model(chat: int = 40, imported: int = 80, threads: int = 4) -> dict:
    """Calls per episode and lock held per episode, four workers (threads) on one project."""
    import datetime as dt

    from django.conf import settings

    from kg.ledger.episodes import EpisodeInput, record_episode
    from kg.llm.endpoint import forget_endpoint
    from kg.models import EpisodeKind, Organization, Project
    from tests.fixtures.llm_server import ScriptedLLMServer

    server = ScriptedLLMServer()
    server.responder = _model_answer
    server.latency = 1.0
    server.start()
    forget_endpoint(server.base_url)
    settings.LLM_ENGINE = "openai"
    settings.OPENAI_BASE_URL = server.base_url
    settings.OPENAI_API_KEY = "bench"
    settings.LLM_MODEL = "scripted-model"
    settings.LLM_STRUCTURED_OUTPUT = "json_schema"
    settings.LLM_MAX_CONCURRENCY = threads
    org = Organization.objects.create(slug="bench-openai", name="bench")
    base = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    figures = {}
    try:
        for kind, count in ((EpisodeKind.CHAT_MESSAGE, chat), (EpisodeKind.IMPORT, imported)):
            project = Project.objects.create(organization=org, slug=kind, name="", language="en")
            episodes = [
                record_episode(
                    project,
                    EpisodeInput(content=t, kind=kind, valid_at=base + dt.timedelta(minutes=i)),
                    enqueue=False,
                )
                for i, t in enumerate(varied_messages(count, seed=5))
            ]
            held: list[float] = []
            calls_before = server.calls
            started = time.perf_counter()
            with _timed_lock(held):
                _ingest_in_threads([e.pk for e in episodes], threads)
            calls = server.calls - calls_before
            figures[kind] = {
                "episodes": count,
                "model_calls": calls,
                "calls_per_episode": round(calls / count, 3),
                "lock_held_ms_p50": _percentile(held, 0.5),
                "lock_held_ms_p95": _percentile(held, 0.95),
                "seconds": round(time.perf_counter() - started, 1),
            }
            print(kind, figures[kind], flush=True)
    finally:
        server.stop()
        settings.LLM_ENGINE = "offline"
    return figures


SECTIONS = ("resolution", "worker", "openai")


def main() -> None:
    bench_environment()
    chosen = [a for a in sys.argv[1:] if a in SECTIONS] or list(SECTIONS)
    path = RESULTS / "write_path.json"
    figures = json.loads(path.read_text()) if path.exists() else {}
    for stale in ("taken_at", "load_average_at_start"):  # now recorded per section
        figures.pop(stale, None)
    figures |= {
        "machine": f"{platform.machine()} {platform.python_version()}, 2 shared cores",
        "note": "shared machine: other engineers ran test suites at the same time; noisy. "
        "Each section says when it ran and the load average (1, 5, 15 min) as it started.",
    }
    from django.db import connection

    def when() -> dict:
        return {
            "database": f"{connection.vendor} (BENCH_DATABASE_URL to choose PostgreSQL)",
            "taken_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "load_average_at_start": [round(x, 1) for x in os.getloadavg()],
        }

    if "resolution" in chosen:
        sizes = tuple(
            int(n) for n in os.environ.get("RESOLUTION_SIZES", "1000,10000,100000").split(",")
        )
        figures["resolution_through_candidate_index"] = {
            **when(),
            **resolution_through_index(sizes),
        }
    if "worker" in chosen:
        total = int(os.environ.get("INGEST_EPISODES", "10000"))
        figures["offline_ingest_through_worker"] = {
            **when(),
            **offline_ingest_through_worker(total),
        }
    if "openai" in chosen:
        figures["openai_scripted_model_1s"] = {
            **when(),
            **openai_against_slow_model(),
        }
    RESULTS.mkdir(exist_ok=True)
    path.write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
