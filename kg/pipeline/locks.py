"""Redis locks that serialise work across workers.

Resolve-and-write is serialised per project, so parallel workers never create twins.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextlib import contextmanager

import redis
from django.conf import settings

LOCK_TIMEOUT_SECONDS = 600


def lock_redis() -> redis.Redis:
    return redis.Redis.from_url(settings.LOCK_REDIS_URL, socket_connect_timeout=3)


@contextmanager
def named_lock(name: str, timeout: int = LOCK_TIMEOUT_SECONDS) -> Iterator[None]:
    lock = lock_redis().lock(f"groundwork:{name}", timeout=timeout, blocking_timeout=timeout)
    if not lock.acquire():
        raise TimeoutError(f"{name} stayed locked for {timeout}s")
    try:
        yield
    finally:
        # Expired while held: the next holder already took over, nothing to release.
        with contextlib.suppress(redis.exceptions.LockError):
            lock.release()


def project_lock(project_id: int) -> contextlib.AbstractContextManager[None]:
    return named_lock(f"project-lock:{project_id}")
