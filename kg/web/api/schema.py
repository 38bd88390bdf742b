"""OpenAPI post-processing: document the error answers every endpoint can give.

drf-spectacular documents the success answers it can see in the views; the error shape comes
from kg.web.api.exceptions and applies everywhere, so it is added here once instead of repeated
on every view.
"""

from __future__ import annotations

ERROR_SCHEMA = {
    "type": "object",
    "description": "Every API error.",
    "properties": {
        "status": {"type": "integer"},
        "code": {"type": "string"},
        "message": {"type": "string"},
        "errors": {"type": "object", "additionalProperties": {}},
    },
    "required": ["status", "code", "message"],
}

ERRORS = {
    "400": "The request is not valid; `errors` names the fields.",
    "401": "Not authenticated (send `Authorization: Token <key>` or log in).",
    "403": "Authenticated, but not allowed (e.g. a missing CSRF token with session auth).",
    "404": "Not found, or in an organization you do not belong to.",
    "503": "The knowledge graph or the task backend is unavailable; try again shortly.",
}
# Every call is throttled (kg.web.api.throttles); sign-in per client and per account.
THROTTLED = {"429": "Too many requests from this user or client; retry after `Retry-After`."}
SIGN_IN_THROTTLED = {
    "429": "Too many sign-in attempts from this client, or failures of this account from it; "
    "retry after `Retry-After`."
}
# Answered by the web server before the app sees the request (gunicorn reads a request line of
# 4 KB at most), so in whatever form the server writes it: documented without a body.
URI_TOO_LONG = {
    "414": {"description": "The address with its query is longer than the server reads."}
}
SIGN_IN_PATHS = {"/api/auth/token/"}
METHODS = {"get", "post", "put", "patch", "delete"}


def add_error_responses(result: dict, generator, request, public) -> dict:
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault("Error", ERROR_SCHEMA)
    reference = {"$ref": "#/components/schemas/Error"}
    for path, operations in result.get("paths", {}).items():
        if not path.startswith("/api/"):
            continue
        for method, operation in operations.items():
            if method not in METHODS:
                continue
            responses = operation.setdefault("responses", {})
            content = {"application/json": {"schema": reference}}
            # DRF renders an error with the view's negotiated renderer, so an endpoint that
            # answers e.g. text/markdown can answer its errors that way too (as plain text).
            for media_type in _success_media_types(responses):
                content.setdefault(media_type, {"schema": {"type": "string"}})
            errors = ERRORS | (SIGN_IN_THROTTLED if path in SIGN_IN_PATHS else THROTTLED)
            for code, description in errors.items():
                responses.setdefault(code, {"description": description, "content": content})
            for code, response in URI_TOO_LONG.items():
                responses.setdefault(code, response)
    return result


def _success_media_types(responses: dict) -> list[str]:
    return sorted(
        {
            media_type
            for code, response in responses.items()
            if str(code).startswith("2")
            for media_type in (response.get("content") or {})
            if "json" not in media_type
        }
    )


def require_discriminated_bodies(result: dict, generator, request, public) -> dict:
    """A request body that is one of several shapes told apart by a field (a oneOf with a
    discriminator, e.g. a node correction's `action`) must be sent: drf-spectacular marks a
    body required only when its component lists required fields, which a oneOf does not."""
    schemas = result.get("components", {}).get("schemas", {})
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            body = operation.get("requestBody") if method in METHODS else None
            if not body or body.get("required"):
                continue
            for content in body.get("content", {}).values():
                reference = content.get("schema", {}).get("$ref", "")
                component = schemas.get(reference.rpartition("/")[2], {})
                if "oneOf" in component and "discriminator" in component:
                    body["required"] = True
    return result
