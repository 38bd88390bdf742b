"""JSON errors everywhere under /api/, whatever DEBUG is.

DRF's handler shapes the errors of its views (kg.web.api.exceptions). Some answers never reach it:
an unknown URL (Django's 404 page, or the technical page with DEBUG), a method the URL does
not route, a Bad Request raised by Django itself, a crash outside a view, or a view that
renders another media type (Markdown). This middleware gives those the same JSON shape.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

CODES = {
    400: ("bad_request", "The request is not valid."),
    401: ("not_authenticated", "Authentication credentials were not provided."),
    403: ("permission_denied", "You do not have permission to do this."),
    404: ("not_found", "Not found."),
    405: ("method_not_allowed", "This method is not allowed here."),
    406: ("not_acceptable", "No answer in the requested format."),
    413: ("too_large", "The request is too large."),
    415: ("unsupported_media_type", "The request's media type is not supported."),
    429: ("throttled", "Too many requests; try again later."),
}


def _is_json(response: HttpResponse) -> bool:
    return response.get("Content-Type", "").split(";")[0].strip() == "application/json"


def error_body(status: int, path: str) -> dict:
    code, message = CODES.get(status, ("server_error", "Internal error; it was logged."))
    if status == 404 and path:
        message = f"Nothing at {path}."
    return {"status": status, "code": code, "message": message}


class JsonErrorsUnderApi:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith("/api/") or response.status_code < 400:
            return response
        if _is_json(response) and _json_error(response):
            return response
        replacement = JsonResponse(
            error_body(response.status_code, request.path), status=response.status_code
        )
        for header in ("Allow", "Retry-After", "WWW-Authenticate"):
            if header in response:
                replacement[header] = response[header]
        return replacement


def _json_error(response: HttpResponse) -> bool:
    """Already in the API's error shape (DRF's handler made it)."""
    if getattr(response, "streaming", False):
        return False
    try:
        body = json.loads(response.content or b"null")
    except ValueError:
        return False
    return isinstance(body, dict) and "status" in body and "message" in body
