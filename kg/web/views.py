import contextlib

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET
from redis.exceptions import RedisError

from kg.operations.health import collect_health
from kg.web.rate_limits import client_address, take

PUBLIC_HEALTH_KEY = "health:public"
PUBLIC_HEALTH_SECONDS = 10  # every anonymous caller within this window gets the same answer


def _code(status: str) -> int:
    return 200 if status == "ok" else 503  # degraded too: a status-code monitor must see it


@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """The whole report for staff (every probe, each bounded); anyone else sees only the status
    (no hosts, no endpoints), computed without pinging workers and shared for a few seconds."""
    if request.user.is_authenticated and request.user.is_staff:
        report = collect_health()
        return JsonResponse(report.model_dump(), status=_code(report.status))
    try:
        wait = take("health", client_address(request), settings.HEALTH_CHECKS_PER_MINUTE, 60)
        public = cache.get(PUBLIC_HEALTH_KEY)
    except RedisError:  # the cache's Redis is down: answer anyway, that is what /health is for
        wait, public = None, None
    if wait:
        message = "Too many requests; try again later."
        response = JsonResponse(
            {"status": 429, "code": "throttled", "message": message}, status=429
        )
        response["Retry-After"] = str(wait)
        return response
    if public is None:
        report = collect_health(details=False)
        public = {"ok": report.ok, "status": report.status}
        with contextlib.suppress(RedisError):  # as above
            cache.set(PUBLIC_HEALTH_KEY, public, timeout=PUBLIC_HEALTH_SECONDS)
    return JsonResponse(public, status=_code(public["status"]))


@require_GET
def alive(request: HttpRequest) -> JsonResponse:
    """Liveness for the container's healthcheck: this process serves and its database answers.
    Not /health: a stuck pipeline (no worker yet) must not mark the web container unhealthy,
    or the worker, which waits for it, would never start."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"ok": True})
