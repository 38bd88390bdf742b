from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from kg.operations.health import collect_health


@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """The whole report for staff; anyone else sees only the status (no hosts, no endpoints)."""
    report = collect_health()
    code = 200 if report.ok else 503
    if request.user.is_authenticated and request.user.is_staff:
        return JsonResponse(report.model_dump(), status=code)
    return JsonResponse({"ok": report.ok, "status": report.status}, status=code)
