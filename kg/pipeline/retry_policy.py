"""Which failures are worth a retry, and when to retry.

A transient failure is an outage of a server the pipeline talks to (SQL, graph, Redis, the
model's API), a lock it could not hold, or a graph write that met a concurrent one; it says
nothing about the episode, so the task runs again later. The libraries' own error classes are
listed: redis's and openai's connection errors do not inherit the built-in ConnectionError.
Retries are spaced to outlast a restart (seconds at first, then minutes), with jitter, so one
outage does not use up every task's retries at once.
"""

from __future__ import annotations

import random

import openai
import redis
from django.db import InterfaceError, OperationalError

from kg.graph import GraphConflict, GraphUnavailable
from kg.pipeline.locks import LeaseLost, LockBusy, LockReleaseFailed

TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (
    GraphUnavailable,
    GraphConflict,  # a key created by a concurrent write: written again, it matches
    redis.exceptions.ConnectionError,  # BusyLoadingError (a restarting Redis) is one of these
    redis.exceptions.TimeoutError,
    OperationalError,
    InterfaceError,
    openai.APIConnectionError,  # APITimeoutError is one of these
    openai.RateLimitError,
    openai.InternalServerError,
    LockBusy,
    LeaseLost,
    LockReleaseFailed,
    ConnectionError,
    TimeoutError,
)

# Seconds before retry n (0-based); the last value repeats. About 29 minutes in all.
RETRY_DELAYS_SECONDS: tuple[int, ...] = (5, 10, 20, 40, 60, 90, 120, 180, 300)
MAX_RETRIES = 12
JITTER = 0.2


def is_transient(exc: BaseException) -> bool:
    return isinstance(exc, TRANSIENT_ERRORS)


def retry_delay(retries: int, rng: random.Random | None = None) -> float:
    """Seconds before the next attempt after `retries` retries, with ±20% jitter."""
    base = RETRY_DELAYS_SECONDS[min(retries, len(RETRY_DELAYS_SECONDS) - 1)]
    return base * (1 + (rng or random).uniform(-JITTER, JITTER))


def describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:4000]
