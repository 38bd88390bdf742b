"""The database-level lock on the episode ledger.

A trigger on kg_episode refuses UPDATE and DELETE. The only way past it is
`ledger_maintenance()`, used when a whole test database is flushed: on SQLite the trigger
asks the function `groundwork_ledger_unlocked()`, which only Groundwork's own connections
define (any other client gets "no such function" and is refused too); on PostgreSQL it reads
the transaction setting `groundwork.ledger_unlocked`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.db.backends.signals import connection_created
from django.dispatch import receiver

_state = threading.local()


def ledger_unlocked() -> bool:
    return bool(getattr(_state, "unlocked", False))


def set_ledger_unlocked(value: bool) -> None:
    """Switch the SQLite lock for this thread (PostgreSQL flushes with TRUNCATE, untouched)."""
    _state.unlocked = value


@contextmanager
def ledger_maintenance() -> Iterator[None]:
    """Allow deleting episodes on this thread (whole-database maintenance only)."""
    from django.db import connection

    previous = ledger_unlocked()
    _state.unlocked = True
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('groundwork.ledger_unlocked', 'on', false)")
    try:
        yield
    finally:
        _state.unlocked = previous
        if connection.vendor == "postgresql" and not previous:
            with connection.cursor() as cursor:
                cursor.execute("SELECT set_config('groundwork.ledger_unlocked', 'off', false)")


@receiver(connection_created)
def _register_sqlite_function(sender, connection, **kwargs) -> None:
    if connection.vendor == "sqlite":
        connection.connection.create_function(
            "groundwork_ledger_unlocked",
            0,
            lambda: 1 if ledger_unlocked() else 0,
            deterministic=False,
        )


SQLITE_TRIGGERS = [
    """
    CREATE TRIGGER kg_episode_no_update BEFORE UPDATE ON kg_episode
    BEGIN SELECT RAISE(ABORT, 'episodes are immutable: UPDATE refused'); END
    """,
    """
    CREATE TRIGGER kg_episode_no_delete BEFORE DELETE ON kg_episode
    WHEN groundwork_ledger_unlocked() = 0
    BEGIN SELECT RAISE(ABORT, 'episodes are immutable: DELETE refused'); END
    """,
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS kg_episode_no_update",
    "DROP TRIGGER IF EXISTS kg_episode_no_delete",
]
POSTGRES_TRIGGERS = [
    """
    CREATE OR REPLACE FUNCTION kg_episode_refuse_change() RETURNS trigger AS $$
    BEGIN
        IF TG_OP = 'DELETE' AND current_setting('groundwork.ledger_unlocked', true) = 'on' THEN
            RETURN OLD;
        END IF;
        RAISE EXCEPTION 'episodes are immutable: % refused', TG_OP;
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER kg_episode_immutable BEFORE UPDATE OR DELETE ON kg_episode
    FOR EACH ROW EXECUTE FUNCTION kg_episode_refuse_change()
    """,
]
POSTGRES_DROP = [
    "DROP TRIGGER IF EXISTS kg_episode_immutable ON kg_episode",
    "DROP FUNCTION IF EXISTS kg_episode_refuse_change()",
]
