"""Rate limits and sign-in backoff, counted in Django's cache (Redis, shared by every process).

Who a request comes from is decided once, here (`client_address`): the connection's address, or
the address the outermost trusted proxy saw when NUM_PROXIES proxies stand in front of the app.
Counters are keyed by a digest of the subject (an address, a user id, a user name), so no user
name or address is stored in the cache in the clear.
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR without trusted proxies; with N of them, the N-th entry
    from the end of X-Forwarded-For (each proxy appends the address it was reached from, so
    whatever a client writes into the header itself stays to the left and is never read)."""
    remote = request.META.get("REMOTE_ADDR", "") or "unknown"
    proxies = settings.NUM_PROXIES
    if proxies <= 0:
        return remote
    forwarded = [
        entry.strip()
        for entry in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if entry.strip()
    ]
    if not forwarded:
        return remote
    return forwarded[-min(proxies, len(forwarded))]


def _key(scope: str, subject: str) -> str:
    digest = hashlib.sha256(subject.encode("utf-8", "surrogatepass")).hexdigest()[:40]
    return f"rate:{scope}:{digest}"


def take(scope: str, subject: str, limit: int, period_seconds: int) -> int | None:
    """Count one request of `subject` in the current window of `period_seconds`.

    None while at most `limit` were counted in the window; otherwise the seconds until the
    window ends (what Retry-After says). The count is one atomic increment, so concurrent
    requests in any process cannot all slip under the limit."""
    now = time.time()
    window = int(now // period_seconds)
    key = f"{_key(scope, subject)}:{window}"
    cache.add(key, 0, timeout=period_seconds + 1)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr: this request opens the window again
        cache.set(key, 1, timeout=period_seconds + 1)
        count = 1
    if count <= limit:
        return None
    return max(1, int(period_seconds - now % period_seconds + 0.999))


# --- sign-in: failures of one account from one address, with a growing wait ---------------

_FORGET_AFTER_SECONDS = 86_400  # a day without a failure clears the count


def _account_subject(username: str, address: str) -> str:
    return f"{username.strip().casefold()}\n{address}"


def sign_in_wait(username: str, address: str) -> int:
    """Seconds before this account may be tried again from this address (0: now).

    The first LOGIN_FREE_FAILURES failures cost nothing; after that the next attempt waits
    1 s, 2 s, 4 s ... from the last failure, at most LOGIN_BACKOFF_MAX_SECONDS.
    Keyed by account and address together: an attacker guessing a password slows only
    themselves, never the account's owner signing in from elsewhere."""
    key = _key("sign-in-failures", _account_subject(username, address))
    state = cache.get(key)
    if not state:
        return 0
    failures, last = state
    extra = failures - settings.LOGIN_FREE_FAILURES
    if extra < 0:
        return 0
    backoff = min(2 ** min(extra, 30), settings.LOGIN_BACKOFF_MAX_SECONDS)
    left = last + backoff - time.time()
    return max(0, int(left + 0.999))


def record_sign_in_failure(username: str, address: str) -> int:
    """Count a failed sign-in; returns how many failures the account has from the address."""
    key = _key("sign-in-failures", _account_subject(username, address))
    failures = (cache.get(key) or (0, 0.0))[0] + 1
    cache.set(key, (failures, time.time()), timeout=_FORGET_AFTER_SECONDS)
    return failures


def forget_sign_in_failures(username: str, address: str) -> None:
    cache.delete(_key("sign-in-failures", _account_subject(username, address)))
