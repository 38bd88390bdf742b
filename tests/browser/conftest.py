"""Fixtures for the end-to-end tests: a real Celery worker beside Django's live server."""

from __future__ import annotations

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import connection
from django.db.backends.signals import connection_created

from config.celery import app


def _read_without_locks(sender=None, connection=None, on: bool = True, **kwargs) -> None:
    if connection is not None and connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA read_uncommitted = {int(on)}")


@pytest.fixture
def sqlite_reads_never_lock(transactional_db):
    """The SQLite test database lives in shared-cache memory, where a reader's table lock makes
    a concurrent writer fail at once ("database table is locked") instead of waiting. The
    pages poll while the worker writes, so here readers take no locks (PostgreSQL and file
    databases wait for locks and need nothing)."""
    if connection.vendor != "sqlite" or not connection.is_in_memory_db():
        yield
        return
    connection_created.connect(_read_without_locks, dispatch_uid="e2e-read-uncommitted")
    connection.ensure_connection()
    _read_without_locks(connection=connection)  # the live server shares this connection
    yield
    connection_created.disconnect(dispatch_uid="e2e-read-uncommitted")
    _read_without_locks(connection=connection, on=False)


@pytest.fixture
def worker(embedded_server, graph, sqlite_reads_never_lock):
    """A real Celery worker in a thread, consuming the embedded broker.

    Messages left in the broker by earlier tests point at rows their databases no longer have;
    they are purged so this worker only runs what this test queues.
    """
    app.control.purge()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10) as w:
        yield w
