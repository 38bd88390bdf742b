"""What the gateway knows about one model endpoint (base URL + model), shared by all workers.

* The probe: which structured-output dialect the endpoint takes and whether it answered,
  remembered in Redis (and in the process) so an endpoint is probed once, not once per call.
* The slots: at most LLM_MAX_CONCURRENCY calls in flight per endpoint across every worker.
  A single-slot local server (llama.cpp) otherwise queues requests it cannot serve yet, and
  each waits out its own timeout behind the others.

Both live in Redis (the lock server, LOCK_REDIS_URL). When Redis cannot be reached they fall
back to the process: the answer is still remembered and the calls still limited, per process.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass

import redis
from django.conf import settings

logger = logging.getLogger("groundwork.llm")

KEY_PREFIX = "groundwork:llm-endpoint:"
PROBE_REMEMBERED_SECONDS = 24 * 3600
UNANSWERED_PROBE_REMEMBERED_SECONDS = 60  # a server that was down is asked again soon
SLOT_POLL_SECONDS = 0.05
REDIS_RETRY_AFTER_SECONDS = 30.0


@dataclass(frozen=True)
class EndpointProbe:
    """The answer to the probe: a tiny structured call made once per endpoint."""

    answered: bool
    dialect: str = ""  # json_schema | json_object | none; empty when it did not answer
    detail: str = ""
    checked_at: float = 0.0  # epoch seconds


def endpoint_key(base_url: str, model: str) -> str:
    return f"{KEY_PREFIX}{base_url or 'default'}|{model}"


# --- Redis, or the process when Redis is away ----------------------------------------------

_redis_down_until: dict[str, float] = {}  # per URL: a Redis that failed, until when
_clients: dict[str, redis.Redis] = {}
_process_probes: dict[str, tuple[float, EndpointProbe]] = {}
_process_slots: dict[str, threading.BoundedSemaphore] = {}
_process_lock = threading.Lock()


def _redis() -> redis.Redis | None:
    url = settings.LOCK_REDIS_URL
    if time.monotonic() < _redis_down_until.get(url, 0.0):
        return None
    client = _clients.get(url)
    if client is None:
        client = _clients[url] = redis.Redis.from_url(
            url, socket_connect_timeout=1, socket_timeout=5
        )
    try:
        client.ping()
    except redis.RedisError as exc:
        logger.warning("LLM endpoint state kept per process: Redis unreachable (%s)", exc)
        _redis_down_until[url] = time.monotonic() + REDIS_RETRY_AFTER_SECONDS
        return None
    return client


def remembered_probe(key: str, setting: str) -> EndpointProbe | None:
    key = f"{key}|{setting}:probe"
    with _process_lock:
        held = _process_probes.get(key)
    if held and held[0] > time.time():
        return held[1]
    client = _redis()
    if client is None:
        return None
    try:
        raw = client.get(key)
    except redis.RedisError:
        return None
    if raw is None:
        return None
    probe = EndpointProbe(**json.loads(raw))
    with _process_lock:
        _process_probes[key] = (time.time() + UNANSWERED_PROBE_REMEMBERED_SECONDS, probe)
    return probe


def remember_probe(key: str, setting: str, probe: EndpointProbe) -> None:
    key = f"{key}|{setting}:probe"
    ttl = PROBE_REMEMBERED_SECONDS if probe.answered else UNANSWERED_PROBE_REMEMBERED_SECONDS
    with _process_lock:
        # The process copy is short-lived so that a probe redone by another worker shows soon.
        _process_probes[key] = (time.time() + min(ttl, UNANSWERED_PROBE_REMEMBERED_SECONDS), probe)
    client = _redis()
    if client is not None:
        with suppress(redis.RedisError):
            client.set(key, json.dumps(asdict(probe)), ex=ttl)


def forget_endpoint(base_url: str) -> None:
    """Drop what is remembered about every model at base_url (tests, or after a server swap)."""
    prefix = f"{KEY_PREFIX}{base_url or 'default'}|"
    with _process_lock:
        for key in [k for k in _process_probes if k.startswith(prefix)]:
            del _process_probes[key]
        for key in [k for k in _process_slots if k.startswith(prefix)]:
            del _process_slots[key]
    client = _redis()
    if client is not None:
        try:
            for key in client.scan_iter(match=f"{prefix}*"):
                client.delete(key)
        except redis.RedisError:
            pass


# --- slots -----------------------------------------------------------------------------------

# A sorted set of holders scored by lease expiry: expired holders (a killed worker) are dropped
# before counting, so a slot is never lost for longer than one lease.
_TAKE_SLOT = """
redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1])
if redis.call('zcard', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('zadd', KEYS[1], ARGV[1] + ARGV[3], ARGV[4])
  redis.call('expire', KEYS[1], math.ceil(ARGV[3]) + 60)
  return 1
end
return 0
"""


class EndpointBusy(TimeoutError):
    """No slot of the endpoint came free in time."""


@contextmanager
def endpoint_slot(
    key: str, limit: int, lease_seconds: float, wait_seconds: float
) -> Iterator[None]:
    """Hold one of the endpoint's `limit` slots for the duration of the block."""
    client = _redis()
    if client is None:
        with _process_slot(key, limit, wait_seconds):
            yield
        return
    slots = f"{key}:slots"
    token = uuid.uuid4().hex
    take = client.register_script(_TAKE_SLOT)
    deadline = time.monotonic() + wait_seconds
    while not take(keys=[slots], args=[time.time(), limit, lease_seconds, token]):
        if time.monotonic() > deadline:
            raise EndpointBusy(f"no free call slot at the model endpoint in {wait_seconds:.0f}s")
        time.sleep(SLOT_POLL_SECONDS)
    try:
        yield
    finally:
        with suppress(redis.RedisError):  # else the lease runs out by itself
            client.zrem(slots, token)


@contextmanager
def _process_slot(key: str, limit: int, wait_seconds: float) -> Iterator[None]:
    with _process_lock:
        semaphore = _process_slots.setdefault(f"{key}|{limit}", threading.BoundedSemaphore(limit))
    if not semaphore.acquire(timeout=wait_seconds):
        raise EndpointBusy(f"no free call slot at the model endpoint in {wait_seconds:.0f}s")
    try:
        yield
    finally:
        semaphore.release()
