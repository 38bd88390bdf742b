"""Per-project serialisation of resolve-and-write, so parallel workers never create twins."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextlib import contextmanager

import redis
from django.conf import settings

LOCK_TIMEOUT_SECONDS = 600


@contextmanager
def project_lock(project_id: int) -> Iterator[None]:
    client = redis.Redis.from_url(settings.LOCK_REDIS_URL, socket_connect_timeout=3)
    lock = client.lock(
        f"groundwork:project-lock:{project_id}",
        timeout=LOCK_TIMEOUT_SECONDS,
        blocking_timeout=LOCK_TIMEOUT_SECONDS,
    )
    if not lock.acquire():
        raise TimeoutError(f"project {project_id} stayed locked for {LOCK_TIMEOUT_SECONDS}s")
    try:
        yield
    finally:
        # Expired while held: the next holder already took over, nothing to release.
        with contextlib.suppress(redis.exceptions.LockError):
            lock.release()
