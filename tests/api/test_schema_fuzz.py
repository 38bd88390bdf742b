"""Schemathesis against /api/schema/: generated requests to every operation, through the
Django WSGI app, authenticated with a token. No answer may be a 5xx, and every answer must
match the schema (status code, content type, body).

The project slug is pinned to a project the user belongs to (with seeded research), so the
generated numbers, filters and bodies reach the real code paths instead of stopping at 404.
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, settings
from rest_framework.authtoken.models import Token
from schemathesis import checks

from config.wsgi import application
from tests.api.research import member, seed_research

CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
]


@pytest.fixture
def keep_test_connection():
    """Schemathesis calls the WSGI app directly, so Django would close the database connection
    at the end of each request (the test client switches that off; do the same here)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def token(db, graph, settings, keep_test_connection) -> str:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user, project = member("fuzzer", "acme", "couriers")
    seed_research(project)
    member("stranger", "globex", "warehouse")  # another organization, never visible
    return Token.objects.create(user=user).key


# Loaded at collection (schema generation needs no database); one test per operation.
# (schemathesis.pytest.from_fixture would be lazier, but its subtests break on pytest 9.)
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)


@schema.parametrize()
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_api_conforms_to_its_schema(case, token):
    if "slug" in (case.path_parameters or {}) and "/orgs/" not in case.path:
        case.path_parameters["slug"] = "couriers"
    case.call_and_validate(headers={"Authorization": f"Token {token}"}, checks=CHECKS)
