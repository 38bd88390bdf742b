"""API throttles on the shared cache (kg.web.rate_limits): reads and writes per user (per address
when anonymous), sign-in attempts per address. Limits are read from settings at each request."""

from __future__ import annotations

from django.conf import settings
from rest_framework.throttling import BaseThrottle

from kg.web.rate_limits import client_address, take

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class _CountedThrottle(BaseThrottle):
    scope = ""
    period_seconds = 60

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
        self._wait = take(self.scope, self.subject(request), self.limit(), self.period_seconds)
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

    def subject(self, request) -> str:
        return f"address:{client_address(request)}"

    def limit(self) -> int:
        return settings.LOGIN_ATTEMPTS_PER_MINUTE
