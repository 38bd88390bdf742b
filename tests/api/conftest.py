from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.api.research import member, seed_research


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    # The default PBKDF2 costs about a second per user; these tests are not about hashing.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def alice(db):
    """Alice, owner of org "acme" with project "couriers"."""
    return member("alice", "acme", "couriers")


@pytest.fixture
def bob(db):
    """Bob, of another organization ("globex", project "warehouse")."""
    return member("bob", "globex", "warehouse")


@pytest.fixture
def api(alice) -> APIClient:
    user, _ = alice
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


@pytest.fixture
def research(alice, graph):
    _, project = alice
    return seed_research(project)


@pytest.fixture
def other_research(bob, graph):
    _, project = bob
    return seed_research(project, author="Bob")
