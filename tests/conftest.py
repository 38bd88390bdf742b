"""Shared fixtures: real embedded services, the ledger lock for flushed databases, sample data."""

from __future__ import annotations

import pytest

from kg.ledger.lock import empty_ledger, set_ledger_unlocked
from tests.fixtures.llm_server import llm_server, openai_mode  # noqa: F401
from tests.fixtures.services import (  # noqa: F401
    _adapter_clients,
    any_graph_client,
    embedded_server,
    graph,
)

pytest_plugins: list[str] = []


@pytest.fixture(autouse=True)
def _ledger_open_for_flush(request):
    """Transactional tests end with a flush that deletes every row, episodes included.

    The database triggers refuse that unless the ledger is in maintenance, so the flush (which
    runs in transactional_db's teardown, after this fixture's) is prepared here: SQLite's
    flush deletes with the thread's lock open; PostgreSQL's TRUNCATE passes once the
    append-only tables are empty.
    """
    set_ledger_unlocked(False)
    transactional = bool({"transactional_db", "live_server"} & set(request.fixturenames))
    if transactional:
        request.getfixturevalue("transactional_db")
    yield
    if transactional:
        set_ledger_unlocked(True)
        empty_ledger()


@pytest.fixture(autouse=True)
def _fresh_cache(embedded_server):  # noqa: F811 - the session fixture, asked for by name
    """Every test starts with empty rate-limit counters and no cached /health answer: the
    cache lives on the embedded server's Redis, shared by the whole session."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture
def org_project(db):
    from kg.models import Organization, Project

    org = Organization.objects.create(slug="acme", name="Acme")
    project = Project.objects.create(organization=org, slug="couriers", name="Couriers app")
    return project
