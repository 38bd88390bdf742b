from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from kg.health import collect_health


@require_GET
def health(request: HttpRequest) -> JsonResponse:
    report = collect_health()
    return JsonResponse(report.model_dump(), status=200 if report.ok else 503)
