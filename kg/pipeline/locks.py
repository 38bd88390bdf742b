"""Lease locks in Redis that serialise work across workers.

Resolve-and-write is serialised per project, so parallel workers never create twins. A lock is
a short lease (LEASE_SECONDS) that a background heartbeat renews while its holder lives: a
holder killed with `kill -9` frees the project within one lease, not after a long TTL.

Every acquisition takes the next value of a per-name counter, the fencing token. A holder calls
`Lease.check()` right before it writes: the check fails when the lease expired or another
holder took it since (a stalled process, a partition), so two writers are never inside together
unnoticed. A failed release is logged and raised, never swallowed.

Keys carry the installation's namespace, so installations sharing one Redis never share locks.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager

import redis
from django.conf import settings

from kg.installation import installation_namespace

logger = logging.getLogger("groundwork.locks")

LEASE_SECONDS = 15.0
RENEW_EVERY_SECONDS = LEASE_SECONDS / 3
WAIT_SECONDS = 600  # how long an acquirer waits for a busy lock before giving up (retryable)
LOCK_TIMEOUT_SECONDS = WAIT_SECONDS  # the name callers used before leases

# Take the lease and the next fencing token in one step.
_ACQUIRE = """
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('incr', KEYS[2])
end
return 0
"""
# Renew only our own lease: a lease that expired and was taken by another holder stays theirs.
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_CHECK = """
if redis.call('get', KEYS[1]) == ARGV[1] and redis.call('get', KEYS[2]) == ARGV[2] then
  return 1
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


class LockBusy(TimeoutError):
    """Another holder kept the lock for longer than the wait; worth a retry later."""


class LeaseLost(RuntimeError):
    """The lease expired or passed to another holder: the work must not be written."""


class LockReleaseFailed(RuntimeError):
    """The lease could not be released; it expires on its own within one lease."""


def namespaced_key(name: str) -> str:
    return f"groundwork:{installation_namespace()}:{name}"


_clients: dict[str, redis.Redis] = {}
_clients_lock = threading.Lock()


def lock_redis() -> redis.Redis:
    """One client (and connection pool) per URL and process."""
    url = settings.LOCK_REDIS_URL
    with _clients_lock:
        client = _clients.get(url)
        if client is None:
            client = redis.Redis.from_url(
                url, socket_connect_timeout=3, socket_timeout=5, health_check_interval=10
            )
            _clients[url] = client
        return client


class Lease:
    """A held lock: `token` is its fencing token, `check()` proves it is still ours."""

    def __init__(
        self, name: str, *, lease_seconds: float = LEASE_SECONDS, client: redis.Redis | None = None
    ) -> None:
        self.name = name
        self.key = namespaced_key(f"lock:{name}")
        self.fence_key = namespaced_key(f"fence:{name}")
        self.lease_seconds = lease_seconds
        self.token = 0
        self._client = client or lock_redis()
        self._value = uuid.uuid4().hex
        self._renewed_at = 0.0
        self._lost = ""
        self._stop = threading.Event()
        self._heartbeat: threading.Thread | None = None

    # -- acquiring ------------------------------------------------------------------------
    def acquire(self, wait_seconds: float = WAIT_SECONDS) -> Lease:
        deadline = time.monotonic() + wait_seconds
        pause = 0.02
        while True:
            started = time.monotonic()
            token = int(
                self._client.eval(
                    _ACQUIRE, 2, self.key, self.fence_key, self._value, self._lease_ms()
                )
            )
            if token:
                self.token = token
                self._renewed_at = started
                self._start_heartbeat()
                return self
            if time.monotonic() >= deadline:
                raise LockBusy(f"{self.name} stayed locked for {wait_seconds:.0f}s")
            time.sleep(pause)
            pause = min(pause * 2, 0.25)

    def _lease_ms(self) -> int:
        return int(self.lease_seconds * 1000)

    # -- renewing -------------------------------------------------------------------------
    def _start_heartbeat(self) -> None:
        self._stop.clear()
        self._heartbeat = threading.Thread(
            target=self._renew_until_stopped, name=f"lease:{self.name}", daemon=True
        )
        self._heartbeat.start()

    def _renew_until_stopped(self) -> None:
        every = self.lease_seconds / 3
        while not self._stop.wait(every):
            started = time.monotonic()
            try:
                renewed = int(self._client.eval(_RENEW, 1, self.key, self._value, self._lease_ms()))
            except redis.exceptions.RedisError as exc:
                # Keep trying: the lease is still ours until it expires on the server.
                logger.warning("lease %s not renewed: %s", self.name, exc)
                continue
            if not renewed:
                self._lost = "the lease expired and was not renewed in time"
                logger.error("lease %s lost (token %s)", self.name, self.token)
                return
            self._renewed_at = started

    # -- checking ---------------------------------------------------------------------------
    def check(self) -> None:
        """Raise LeaseLost unless this holder still holds the lease with its token."""
        if self._lost:
            raise LeaseLost(f"{self.name}: {self._lost}")
        if time.monotonic() - self._renewed_at >= self.lease_seconds:
            raise LeaseLost(f"{self.name}: not renewed for {self.lease_seconds:.0f}s")
        held = int(
            self._client.eval(_CHECK, 2, self.key, self.fence_key, self._value, str(self.token))
        )
        if not held:
            self._lost = f"another holder took the lock (our token {self.token})"
            raise LeaseLost(f"{self.name}: {self._lost}")

    # -- releasing --------------------------------------------------------------------------
    def release(self) -> None:
        self._stop.set()
        if self._heartbeat is not None:
            self._heartbeat.join(timeout=self.lease_seconds)
        try:
            self._client.eval(_RELEASE, 1, self.key, self._value)
        except redis.exceptions.RedisError as exc:
            logger.error(
                "lease %s (token %s) not released, it expires within %.0fs: %s",
                self.name,
                self.token,
                self.lease_seconds,
                exc,
            )
            raise LockReleaseFailed(f"{self.name} not released: {exc}") from exc


@contextmanager
def holding(lease: Lease) -> Iterator[Lease]:
    """Release an acquired lease after the block; a failed release is raised, or noted on the
    block's own error (which stays the cause)."""
    try:
        yield lease
    except BaseException as exc:
        try:
            lease.release()
        except LockReleaseFailed as release_error:
            exc.add_note(str(release_error))  # logged; the block's own error stays the cause
        raise
    lease.release()


def named_lock(
    name: str, timeout: float = WAIT_SECONDS, *, lease_seconds: float = LEASE_SECONDS
) -> AbstractContextManager[Lease]:
    """Hold the lease `name` for the block; `timeout` bounds the wait to acquire it."""
    return holding(Lease(name, lease_seconds=lease_seconds).acquire(timeout))


def project_lock(project_id: int) -> AbstractContextManager[Lease]:
    return named_lock(f"project-lock:{project_id}")


def replay_lock(project_id: int) -> AbstractContextManager[Lease]:
    """Held while the project's graph is dropped and replayed (kg_rebuild, an undo)."""
    return named_lock(f"project-replay:{project_id}")


_REPLAYING = threading.local()


@contextmanager
def replaying(project_id: int) -> Iterator[None]:
    """Marks this thread as the one replaying the project (under replay_lock): its own
    pipeline runs go on while every other one waits for the replay to end."""
    held = getattr(_REPLAYING, "projects", set())
    _REPLAYING.projects = held | {project_id}
    try:
        yield
    finally:
        _REPLAYING.projects = held


def replayed_elsewhere(project_id: int) -> bool:
    """Another process or thread is replaying the project's graph right now."""
    return project_id not in getattr(_REPLAYING, "projects", set()) and replay_running(project_id)


def replay_running(project_id: int) -> bool:
    """Whether the project's graph is being replayed: asked under the project's lease by a
    correction, which would otherwise meet a graph half rebuilt."""
    return bool(lock_redis().exists(namespaced_key(f"lock:project-replay:{project_id}")))
