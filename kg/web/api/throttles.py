"""API throttles on the shared cache (kg.web.rate_limits): reads and writes per user (per address
when anonymous), sign-in attempts per address. Limits are read from settings at each request.

When the cache's Redis cannot be reached, reads and writes go on uncounted (logged): the limits
must not take the API down with them. Sign-in does not: its limits protect the accounts, so it
answers 503 until they can be counted again.
"""

from __future__ import annotations

import logging

from django.conf import settings
from redis.exceptions import RedisError
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.throttling import BaseThrottle

from kg.web.rate_limits import client_address, take

logger = logging.getLogger("groundwork.api")


class LimitsUnavailable(APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "unavailable"
    default_detail = "Sign-in is unavailable for a moment; try again shortly."


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class _CountedThrottle(BaseThrottle):
    scope = ""
    period_seconds = 60
    fail_open = True  # when the cache is unreachable: let the request through uncounted

    def applies(self, request) -> bool:
        return True

    def limit(self) -> int:
        raise NotImplementedError

    def subject(self, request) -> str:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return f"user:{user.pk}"
        return f"address:{client_address(request)}"

    def allow_request(self, request, view) -> bool:
        self._wait: int | None = None
        if not self.applies(request):
            return True
        try:
            self._wait = take(self.scope, self.subject(request), self.limit(), self.period_seconds)
        except RedisError as exc:
            if not self.fail_open:
                raise LimitsUnavailable() from exc
            logger.warning("%s not counted, the cache is unreachable: %s", self.scope, exc)
            return True
        return self._wait is None

    def get_ident(self, request) -> str:
        return client_address(request)

    def wait(self) -> float | None:
        return self._wait


class ApiReadThrottle(_CountedThrottle):
    scope = "api-read"

    def applies(self, request) -> bool:
        return request.method in SAFE_METHODS

    def limit(self) -> int:
        return settings.API_READS_PER_MINUTE


class ApiWriteThrottle(_CountedThrottle):
    scope = "api-write"

    def applies(self, request) -> bool:
        return request.method not in SAFE_METHODS

    def limit(self) -> int:
        return settings.API_WRITES_PER_MINUTE


class LoginThrottle(_CountedThrottle):
    """Sign-in attempts per client address, successful or not."""

    scope = "login"
    fail_open = False

    def subject(self, request) -> str:
        return f"address:{client_address(request)}"

    def limit(self) -> int:
        return settings.LOGIN_ATTEMPTS_PER_MINUTE
