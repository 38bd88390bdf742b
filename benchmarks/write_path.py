"""Write-path benchmarks. Run: python -m benchmarks.write_path [section ...]

- `resolution`: resolution through the candidate index at 1k / 10k / 100k nodes of one type
  (the SQL lookup + the resolution ladder on the candidates);
- `meaning`: the same with the vector stage on, as the pipeline resolves a mention
  (`candidates.resolution_pools`): the SQL lookup; unless its candidates match it exactly, the
  graph's vector index asked for the nearest nodes of the type and the index rows of those not
  among the candidates; the ladder with their cosines (the nodes' vectors are random unit
  vectors, the mention's vector is given: encoding is timed apart, as labels per second over
  1,000 distinct labels). Half the mentions restate a node (its words in another order: an
  exact match, so no vector search), half are unseen; each half's p50 is given too;
- `inprocess`: offline ingest of 600 varied messages one by one in this process (after 50 to
  warm up: models loaded, caches filled): wall and CPU milliseconds per episode, the figure to
  set one version against another (no worker, broker or pool in between);
- `worker`: offline ingest of varied imported messages through a real Celery worker process
  (2 pool processes, the machine's 2 cores), the embedded broker and graph: episodes per
  second, and the cost per episode of the first 100 episodes against the last 100 of a project
  of INGEST_EPISODES (default 10,000); then kg_rebuild of that project: its model calls (0
  expected) and whether its export equals the original;
- `openai`: the openai engine against the scripted server answering after 1 s, a real worker
  with four pool processes on one project: model calls per chat episode, per imported message,
  and how long the project lock is held per episode (p50/p95, from the worker's log).

Each section's figures replace its own entry in results/write_path.json. The machine is
shared: figures are noisy; the JSON says when and where they were taken.
"""

from __future__ import annotations

import json
import os
import platform
import random
import re
import secrets
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from benchmarks.environment import RESULTS, bench_environment
from benchmarks.feedback import mixed_feedback


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return round(ordered[max(0, int(share * len(ordered)) - 1)], 2)


def _latencies(size: int, timings: list[float], **more: float) -> dict:
    figures = {"p50_ms": _percentile(timings, 0.5), "p95_ms": _percentile(timings, 0.95), **more}
    print(size, figures, flush=True)
    return figures


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
        results[str(size)] = _latencies(size, timings, index_fill_seconds=round(filed, 1))
    return results


def resolution_with_meaning(sizes: tuple[int, ...], probes: int = 200) -> dict:
    import numpy as np

    from kg.graph import NodeRecord, store
    from kg.graph.client import get_client
    from kg.graph.cypher import dialect_statement
    from kg.language.encoder import DIMENSIONS, as_list
    from kg.models import Organization, Project
    from kg.pipeline import candidates
    from kg.pipeline.resolve import Mention, node_key, resolve_candidate

    rng = random.Random(7)
    vectors_rng = np.random.default_rng(7)
    words = [f"w{i}" for i in range(5000)]
    org = Organization.objects.create(slug="bench-meaning", name="bench")
    client = get_client()
    store.ensure_indexes()
    results: dict = {"encoding": encoding_speed()}
    for size in sizes:
        project = Project.objects.create(organization=org, slug=f"meaning-{size}", name="Bench")
        scope = project.graph_scope
        labels = [" ".join(rng.sample(words, 4)) for _ in range(size)]
        vectors = vectors_rng.normal(size=(size, DIMENSIONS)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        started = time.perf_counter()
        for start in range(0, size, 500):
            chunk = range(start, min(size, start + 500))
            candidates.index_nodes(
                project,
                [
                    NodeRecord(
                        uid=f"m{size}-{i}",
                        number=i + 1,
                        type="pain",
                        label=labels[i],
                        key=node_key(labels[i]),
                        valid_at="2026-01-01T00:00:00.000000Z",
                    )
                    for i in chunk
                ],
            )
            client.run(
                "UNWIND $rows AS row MERGE (n:Entity {uid: row.uid}) "
                "SET n.project = $project, n.org = $org, n.type = 'pain', n.number = row.number",
                rows=[{"uid": f"m{size}-{i}", "number": i + 1} for i in chunk],
                project=scope.project,
                org=scope.org,
            )
            client.run(
                dialect_statement("NODE_VECTORS_SET", client.dialect),
                rows=[
                    {"uid": f"m{size}-{i}", "type": "pain", "vector": as_list(vectors[i])}
                    for i in chunk
                ],
                project=scope.project,
                org=scope.org,
            )
        filed = time.perf_counter() - started
        timings: dict[str, list[float]] = {"restated": [], "unseen": []}
        for probe in range(probes):
            at = rng.randrange(size)
            if probe % 2:  # half restate an existing node (a near vector), half are unseen
                kind = "restated"
                label = " ".join(reversed(labels[at].split()))
                near = vectors[at] + 0.3 * vectors_rng.normal(size=DIMENSIONS) / DIMENSIONS**0.5
            else:
                kind = "unseen"
                label = " ".join(rng.sample(words, 4))
                near = vectors_rng.normal(size=DIMENSIONS)
            vector = as_list(near / np.linalg.norm(near))
            mention = Mention("pain", label, "q")
            started = time.perf_counter()
            # as the pipeline resolves a mention (kg.pipeline.proposal), its vector given
            [(pool, cosines)] = candidates.resolution_pools(project, [mention], vectors=[vector])
            resolve_candidate(mention, pool, lambda m, n: False, cosines)
            timings[kind].append((time.perf_counter() - started) * 1000)
        results[str(size)] = _latencies(
            size,
            timings["restated"] + timings["unseen"],
            fill_seconds=round(filed, 1),
            **{f"{kind}_p50_ms": _percentile(found, 0.5) for kind, found in timings.items()},
        )
    return results


def ingest_in_process(count: int = 600, warm: int = 50, seed: int = 5) -> dict:
    from kg.ledger.episodes import EpisodeInput, record_episode
    from kg.models import Organization, Project
    from kg.pipeline.ingest import episode_ingest

    tag = secrets.token_hex(3)
    org = Organization.objects.create(slug=f"bench-inprocess-{tag}", name="bench")
    project = Project.objects.create(
        organization=org, slug=f"inprocess-{tag}", name="", language="en"
    )
    episodes = [
        record_episode(project, EpisodeInput(content=text), enqueue=False)
        for text in varied_messages(count, seed=seed)
    ]
    for episode in episodes[:warm]:
        episode_ingest(episode.pk)
    wall, cpu = time.perf_counter(), time.process_time()
    for episode in episodes[warm:]:
        episode_ingest(episode.pk)
    measured = count - warm
    return {
        "episodes": measured,
        "wall_ms_per_episode": round((time.perf_counter() - wall) / measured * 1000, 2),
        "cpu_ms_per_episode": round((time.process_time() - cpu) / measured * 1000, 2),
    }


def encoding_speed(count: int = 1000) -> dict:
    """Labels per second, warm, over `count` distinct labels of the benchmark's messages."""
    from kg.language import encoder

    encoder.encode(["warm up the encoder"])
    labels = [m.split(" (")[0] for m in varied_messages(count, seed=21)]
    labels = [f"{label} #{i}" for i, label in enumerate(labels)]  # distinct: no cache hits
    started = time.perf_counter()
    encoder.encode(labels)
    seconds = time.perf_counter() - started
    return {"labels": count, "labels_per_second": round(count / seconds, 1)}


def varied_messages(count: int, seed: int = 11) -> list[str]:
    """Varied feedback in both languages (benchmarks.feedback: 120 roles and 120 product parts
    per language, 24 brands, 30 problems, 10-12 frames), as a long research project brings."""
    return mixed_feedback(count, seed=seed)


def _worker_process(
    log: Path, concurrency: int = 2, env: dict[str, str] | None = None
) -> subprocess.Popen:
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
            str(concurrency),
            "-l",
            "warning",
            "--without-gossip",
            "--without-mingle",
            "-n",
            f"bench-{os.getpid()}@%h",
        ],  # fmt: skip
        # As deployed: DEBUG off (Django then keeps no per-query debug record), with a key.
        env=os.environ | {"DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50)} | (env or {}),
        cwd=Path(__file__).resolve().parent.parent,
        start_new_session=True,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )


def _stop(worker: subprocess.Popen) -> None:
    os.killpg(worker.pid, 15)
    worker.wait(60)


def _record_and_wait(
    project, texts: list[str], start: int, timeout: float = 3600, kind: str = "import"
) -> float:
    """Record a chunk of messages (queued on commit), wait until all are done. Imports are
    recorded as an upload records them (in bulk), chat messages one by one."""
    import datetime as dt

    from django.db import transaction

    from kg.ledger.episodes import EpisodeInput, record_episode, record_new_episodes
    from kg.models import EpisodeProcessing

    base = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    items = [
        EpisodeInput(content=text, kind=kind, valid_at=base + dt.timedelta(minutes=i))
        for i, text in enumerate(texts, start=start)
    ]
    started = time.perf_counter()
    if kind == "import":
        recorded, _ = record_new_episodes(project, items)
    else:
        with transaction.atomic():
            recorded = [record_episode(project, item) for item in items]
    # The chunk's own episodes are asked after, not the project's: a poll whose cost grew with
    # the project would take the database from the worker it measures.
    chunk = [episode.pk for episode in recorded]
    last = EpisodeProcessing.objects.filter(episode_id=chunk[-1], status__in=["done", "failed"])
    while time.perf_counter() - started < timeout:
        if not last.exists():  # imports finish in order: the last one first tells the end is near
            time.sleep(0.05)
            continue
        finished = Counter(
            EpisodeProcessing.objects.filter(
                episode_id__in=chunk, status__in=["done", "failed"]
            ).values_list("status", flat=True)
        )
        if sum(finished.values()) >= len(chunk):
            if finished.get("failed"):
                raise RuntimeError(f"{finished['failed']} episodes failed")
            return time.perf_counter() - started
        time.sleep(0.05)
    raise TimeoutError(f"chunk of {len(texts)} not done in {timeout:.0f}s")


def offline_ingest_through_worker(
    total: int, edge: int = 100, chunk: int = 1000, repeats: int = 5
) -> dict:
    """Seconds per episode at the start of a project against at the end of one of `total`
    episodes. A window of `edge` episodes lasts a few seconds, so each end is the median of
    `repeats` windows: the first `edge` of `repeats` new projects, and the last `repeats`
    windows of `edge` before `total`."""
    import statistics
    import tempfile

    from kg.graph import store
    from kg.models import LLMCall, Organization, Project
    from kg.operations.consistency import evidence_lacking_mentions

    texts = varied_messages(total)
    org = Organization.objects.create(slug="bench-worker", name="bench")
    project = Project.objects.create(organization=org, slug="worker", name="", language="en")
    log = Path(tempfile.mkdtemp(prefix="groundwork-bench-worker-")) / "worker.log"
    worker = _worker_process(log)
    ends = repeats * edge
    try:
        # Warm-up: the worker's start, imports and first connections. In an organization of
        # its own, as every project here: one with two projects would also promote shared
        # insights, whose work is the organization's, not the write path's.
        warm = Organization.objects.create(slug="bench-worker-warm", name="bench")
        _record_and_wait(
            Project.objects.create(organization=warm, slug="warm", name="", language="en"),
            varied_messages(20, seed=3),
            0,
        )
        starts = [_record_and_wait(project, texts[:edge], 0)]
        for n in range(1, repeats):
            other = Organization.objects.create(slug=f"bench-worker-{n}", name="bench")
            new = Project.objects.create(organization=other, slug=f"start-{n}", name="")
            starts.append(_record_and_wait(new, texts[:edge], 0))
        done, middle = edge, 0.0
        grown = {done: store.count_nodes(project.graph_scope)}
        while done < total - ends:
            size = min(chunk, total - ends - done)
            middle += _record_and_wait(project, texts[done : done + size], done)
            done += size
            grown[done] = store.count_nodes(project.graph_scope)
            print(f"  {done} episodes, {grown[done]} nodes, {done / (starts[0] + middle):.1f}/s")
        last = []
        while done < total:
            size = min(edge, total - done)
            last.append(_record_and_wait(project, texts[done : done + size], done) / size)
            done += size
    finally:
        _stop(worker)
    elapsed = starts[0] + middle + sum(t * edge for t in last)
    at_start = statistics.median(starts) / edge * 1000
    at_end = statistics.median(last) * 1000
    calls = LLMCall.objects.filter(project=project)
    lost = len(evidence_lacking_mentions(project))
    rebuild = _rebuild_compared(project)
    return {
        "episodes": total,
        "seconds": round(elapsed, 1),
        "episodes_per_second": round(total / elapsed, 1),
        f"ms_per_episode_first_{edge}": round(at_start, 1),
        f"ms_per_episode_last_{edge}_of_{total}": round(at_end, 1),
        "end_over_start": round(at_end / at_start, 2),
        f"first_{edge}_windows_ms": [round(t / edge * 1000, 1) for t in starts],
        f"last_{edge}_windows_ms": [round(t * 1000, 1) for t in last],
        "batch_extraction_calls": calls.filter(operation="batch_extraction").count(),
        "nodes": store.count_nodes(project.graph_scope),
        "nodes_grown_by_episodes": grown,
        "nodes_lacking_evidence_of_their_mentions": lost,
        f"kg_rebuild_of_the_{total}": rebuild,
    }


def _differing(before: dict, after: dict) -> list[str]:
    """Which records of two exports differ, and in which fields ("nodes <uid>: evidence")."""
    out = []
    for part in ("nodes", "edges", "contradictions", "episodes"):
        was = {r.get("uid"): r for r in before.get(part, [])}
        now = {r.get("uid"): r for r in after.get(part, [])}
        for uid in sorted(was.keys() | now.keys(), key=str):
            old, new = was.get(uid, {}), now.get(uid, {})
            if old != new:
                fields = sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
                out.append(f"{part} {uid}: {', '.join(fields)}")
    return out


def _rebuild_compared(project) -> dict:
    """kg_rebuild of the project the worker built: its seconds, the model calls it made (the
    engine's calls are recorded like a model's) and whether its export equals the original."""
    from kg.models import LLMCall
    from kg.operations.rebuild import rebuild_project_graph
    from kg.reading.export import export_project

    before, calls = export_project(project), LLMCall.objects.count()
    started = time.perf_counter()
    rebuild_project_graph(project)
    seconds = time.perf_counter() - started
    after = export_project(project)
    return {
        "seconds": round(seconds, 1),
        "new_model_calls": LLMCall.objects.count() - calls,
        "export_equal": after == before,
        "differing": _differing(before, after)[:10],
        "nodes": len(after["nodes"]),
        "edges": len(after["edges"]),
    }


def _model_answer(body: dict) -> dict:
    """The scripted model: a group and its problem from each message it is sent."""
    import re

    operation = body["response_format"]["json_schema"]["name"]
    prompt = body["messages"][1]["content"]
    if operation == "resolution":  # the organization's promotion asks pair by pair
        return {"same": False, "reason": "different"}
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


# The worker's log line for each hold of a project's lease (kg.pipeline.ingest, at DEBUG), as
# the project's own handler writes it (the worker's root handler repeats it in its format).
HOLD_LINE = re.compile(
    r"groundwork\.pipeline: project (\d+): (\d+) episodes integrated in one hold of its lease, "
    r"([\d.]+) ms"
)


def held_per_episode(log: str, project_id: int) -> list[float]:
    """Milliseconds the lease was held, per episode (a hold's time shared by its episodes)."""
    held: list[float] = []
    for project, episodes, ms in HOLD_LINE.findall(log):
        if int(project) == project_id:
            held += [float(ms) / int(episodes)] * int(episodes)
    return held


def openai_against_slow_model(chat: int = 40, imported: int = 80, processes: int = 4) -> dict:
    """Calls per episode and lock held per episode: a real worker with four pool processes on
    one project, the openai engine against the scripted server answering after 1 s; measured
    after a warm-up project has reached every pool process."""
    import tempfile

    from kg.models import Organization, Project
    from tests.fixtures.llm_server import ScriptedLLMServer

    server = ScriptedLLMServer()
    server.responder = _model_answer
    server.latency = 1.0
    server.start()
    engine = {
        "LLM_ENGINE": "openai",
        "OPENAI_BASE_URL": server.base_url,
        "OPENAI_API_KEY": "bench",
        "LLM_MODEL": "scripted-model",
        "LLM_STRUCTURED_OUTPUT": "json_schema",
        "LLM_MAX_CONCURRENCY": str(processes),
        "LOG_LEVEL": "DEBUG",
    }
    log = Path(tempfile.mkdtemp(prefix="groundwork-bench-openai-")) / "worker.log"
    worker = _worker_process(log, concurrency=processes, env=engine)
    figures = {}
    try:
        # Warm-up: each pool process's first connections and imports, not counted.
        warm = Organization.objects.create(slug="bench-openai-warm", name="bench")
        _record_and_wait(
            Project.objects.create(organization=warm, slug="warm", name="", language="en"),
            varied_messages(3 * processes, seed=3),
            0,
            kind="chat_message",
        )
        for kind, count in (("chat_message", chat), ("import", imported)):
            # An organization each: one with two projects would also promote shared insights,
            # whose confirmations are the organization's, not the write path's.
            org = Organization.objects.create(slug=f"bench-openai-{kind}", name="bench")
            project = Project.objects.create(organization=org, slug=kind, name="", language="en")
            calls_before = server.calls
            seconds = _record_and_wait(project, varied_messages(count, seed=5), 0, kind=kind)
            calls = server.calls - calls_before
            held = held_per_episode(log.read_text(errors="replace"), project.pk)
            figures[kind] = {
                "episodes": count,
                "model_calls": calls,
                "calls_per_episode": round(calls / count, 3),
                "lock_held_ms_p50": _percentile(held, 0.5),
                "lock_held_ms_p95": _percentile(held, 0.95),
                "seconds": round(seconds, 1),
            }
            print(kind, figures[kind], flush=True)
    finally:
        _stop(worker)
        server.stop()
    return figures


SECTIONS = ("resolution", "meaning", "inprocess", "worker", "openai")


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
    if "meaning" in chosen:
        sizes = tuple(
            int(n) for n in os.environ.get("RESOLUTION_SIZES", "1000,10000,100000").split(",")
        )
        figures["resolution_with_meaning"] = {**when(), **resolution_with_meaning(sizes)}
    if "inprocess" in chosen:
        figures["ingest_in_process"] = {
            **when(),
            "runs": [ingest_in_process() for _ in range(int(os.environ.get("RUNS", "3")))],
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
