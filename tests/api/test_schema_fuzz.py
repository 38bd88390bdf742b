"""Schemathesis against /api/schema/: generated requests to every operation, through the
Django WSGI app, authenticated with a token. No answer may be a 5xx, and every answer must
match the schema (status code, content type, body).

The project slug is pinned to a project the user belongs to (with seeded research), so the
generated numbers, filters and bodies reach the real code paths instead of stopping at 404.

The operations that write from a JSON body are also held to their schema both ways: a body the
schema allows is accepted (a refusal by the state of things is 404 or 409, never 400), one it
forbids is refused (400/415).
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, Phase, settings
from rest_framework.authtoken.models import Token
from schemathesis import checks

from chat.models import Conversation
from config.wsgi import application
from tests.api.research import Research, member, seed_research

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
def seeded(db, graph, settings, keep_test_connection) -> tuple[str, Research]:
    """The fuzzer's token and its project's research."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # The fuzzer sends thousands of calls a minute; the limits are tested on their own.
    settings.API_READS_PER_MINUTE = settings.API_WRITES_PER_MINUTE = 1_000_000
    user, project = member("fuzzer", "acme", "couriers")
    research = seed_research(project)
    member("stranger", "globex", "warehouse")  # another organization, never visible
    return Token.objects.create(user=user).key, research


@pytest.fixture
def token(seeded) -> str:
    return seeded[0]


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


# Conversations (create, rename), the project (change), node corrections (one shape per
# action) and contradiction answers: bodies the schema allows and bodies it forbids, with the
# coverage phase (each property at and past its limits, of each wrong type) as well.
WRITES = {
    "PATCH /api/projects/{slug}/",
    "POST /api/projects/{slug}/conversations/",
    "PATCH /api/projects/{slug}/conversations/{conversation_id}/",
    "POST /api/projects/{slug}/nodes/{number}/corrections/",
    "POST /api/projects/{slug}/corrections/{number}/undo/",
    "POST /api/projects/{slug}/contradictions/{uid}/resolve/",
}
write_schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
write_schema.config.phases.update(phases=["examples", "coverage", "fuzzing"])


@write_schema.parametrize()
@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_writes_accept_what_their_schema_allows_and_refuse_the_rest(case, seeded):
    if case.operation.label not in WRITES:
        pytest.skip("reads and the other writes: test_api_conforms_to_its_schema")
    token, research = seeded
    project = research.project
    known = {
        "slug": project.slug,
        "number": 1,  # seeded: a segment with edges, evidence and aliases
        "uid": research.contradiction_uid,
    }
    # Each case from the same start: one that archives the project would otherwise leave every
    # later one refused 403, whatever its body.
    with transaction.atomic():
        known["conversation_id"] = Conversation.objects.create(
            project=project, title="Fuzzed", created_by=Token.objects.get(key=token).user
        ).pk
        case.path_parameters.update({k: v for k, v in known.items() if "{" + k + "}" in case.path})
        case.call_and_validate(
            headers={"Authorization": f"Token {token}"},
            checks=[*CHECKS, checks.negative_data_rejection, checks.positive_data_acceptance],
        )
        transaction.set_rollback(True)
