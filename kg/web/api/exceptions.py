"""One JSON shape for every API error: {"status", "code", "message", "errors"?}.

Domain errors from the services are mapped here, so views never translate exceptions
themselves: a project of another organization is simply not found (404), an unreachable
graph is 503, a validation failure names its fields.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from kg.graph import GraphUnavailable
from kg.ledger.episodes import EpisodeRejected
from kg.ledger.sources.base import UnreadableFile
from kg.tenancy import (
    NotAllowed,
    OrgNotFound,
    ProjectNameTaken,
    ProjectNotFound,
    TenancyRejected,
)
from kg.web.api import services

logger = logging.getLogger("groundwork.api")


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"
    default_detail = "The resource is not in a state that allows this."


class TooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"
    default_detail = "The request body is too large."


class Unavailable(exceptions.APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "unavailable"
    default_detail = "A service the API depends on is unavailable; try again shortly."


def _domain(exc: Exception) -> Exception:
    """Map the services' exceptions to API exceptions (others pass through)."""
    match exc:
        # Limits Django applies while reading the body, whichever parser asked for it.
        case RequestDataTooBig():
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            return TooLarge(f"The request body is larger than {limit} bytes.")
        case TooManyFieldsSent() | TooManyFilesSent():
            return exceptions.ParseError(str(exc))
        case ProjectNotFound() | OrgNotFound() | services.ResourceNotFound():
            return exceptions.NotFound(str(exc))
        case NotAllowed():
            return exceptions.PermissionDenied(str(exc))
        case ProjectNameTaken():
            # A well-formed name another project of the organization has: a conflict with
            # what is stored, not a bad request.
            return Conflict({"name": [str(exc)]})
        case TenancyRejected():
            return exceptions.ValidationError({"project": [str(exc)]})
        case services.ContradictionAlreadyResolved():
            return Conflict(str(exc))
        case services.UnknownFilter():
            return exceptions.ValidationError({"query": [str(exc)]})
        case services.NotOneOfTheTwo():
            # A well-formed node number that is not one of the contradiction's two statements.
            return Conflict({"keep": [str(exc)]})
        case EpisodeRejected():
            return exceptions.ValidationError({"text": [str(exc)]})
        case UnreadableFile():
            return exceptions.ValidationError({"file": [str(exc)]})
        case GraphUnavailable():
            logger.warning("graph unavailable: %s", exc)
            return Unavailable("The knowledge graph is unavailable; try again shortly.")
        case services.TaskBackendUnavailable():
            logger.warning("%s", exc)
            return Unavailable("The task result backend is unavailable; try again shortly.")
    return exc


def _message(exc: exceptions.APIException) -> str:
    detail = exc.detail
    if isinstance(exc, exceptions.ValidationError):
        return "The request is not valid: " + "; ".join(_flatten(detail))
    if isinstance(detail, list | dict):
        return "; ".join(_flatten(detail))
    return str(detail)


def _flatten(detail, prefix: str = "") -> list[str]:
    if isinstance(detail, dict):
        return [m for key, value in detail.items() for m in _flatten(value, f"{prefix}{key}: ")]
    if isinstance(detail, list):
        return [m for item in detail for m in _flatten(item, prefix)]
    return [f"{prefix}{detail}"]


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    exc = _domain(exc)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or None)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    if not isinstance(exc, exceptions.APIException):
        # Unexpected: log the traceback, answer JSON rather than an HTML error page.
        logger.exception("unhandled API error", exc_info=exc)
        return Response(
            {"status": 500, "code": "server_error", "message": "Internal error; it was logged."},
            status=500,
        )
    response = drf_exception_handler(exc, context)
    if response is None:  # pragma: no cover - every APIException gets a response
        return None
    body: dict = {
        "status": response.status_code,
        "code": _code(exc),
        "message": _message(exc),
    }
    if isinstance(exc.detail, dict):  # a validation failure or a conflict naming its fields
        body["errors"] = exc.detail
    elif isinstance(exc, exceptions.ValidationError):
        body["errors"] = {"non_field_errors": exc.detail}
    response.data = body
    return response


def _code(exc: exceptions.APIException) -> str:
    codes = exc.get_codes()
    return codes if isinstance(codes, str) else exc.default_code


def not_found(request, exception=None):
    """handler404: JSON under /api/, Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"status": 404, "code": "not_found", "message": f"No API endpoint at {request.path}."},
            status=404,
        )
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)
