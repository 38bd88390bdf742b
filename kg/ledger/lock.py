"""The database-level lock on the append-only tables: the episode ledger and the resolution audit.

Triggers refuse UPDATE and DELETE of a row, and TRUNCATE of a table that has rows. No session
setting, function or privilege a client holds through DML opens them:

- PostgreSQL: the trigger functions consult nothing but the operation. The triggers are
  `ENABLE ALWAYS`, so even `session_replication_role = replica` fires them. The one way past
  is DDL by the tables' owner (`ALTER TABLE ... DISABLE TRIGGER`), done by
  `ledger_maintenance()` inside one transaction: `ALTER TABLE` holds an ACCESS EXCLUSIVE lock
  until commit, so no other session ever sees the triggers disabled. A deployment that runs
  the web and workers as a role that does not own the tables (migrations run as the owner)
  leaves its clients no way at all.
- SQLite: the DELETE trigger asks `groundwork_ledger_unlocked()`, a function only Groundwork's
  own connections define (any other client gets "no such function" and is refused too); it
  is true only on a thread inside maintenance, i.e. when a test database is flushed.

Legitimate deletes are whole-database maintenance only (a test run's cleanup): the product
deletes no episode (a project with episodes is protected from deletion).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import transaction
from django.db.backends.signals import connection_created
from django.dispatch import receiver

_state = threading.local()

# The tables migration 0004 locked, then the correction ledger (kg.models.corrections), locked
# by its own migration once its table exists.
FIRST_LOCKED_TABLES = ("kg_episode", "kg_resolutiondecision")
CORRECTION_TABLE = "kg_correction"
APPEND_ONLY_TABLES = (*FIRST_LOCKED_TABLES, CORRECTION_TABLE)


def ledger_unlocked() -> bool:
    return bool(getattr(_state, "unlocked", False))


def set_ledger_unlocked(value: bool) -> None:
    """Switch the SQLite lock for this thread (a flushed test database)."""
    _state.unlocked = value


def _postgres_trigger_names(table: str) -> tuple[str, str]:
    return f"{table}_append_only", f"{table}_no_truncate"


@contextmanager
def ledger_maintenance() -> Iterator[None]:
    """Allow deleting ledger rows on this thread/transaction (whole-database maintenance only).

    On PostgreSQL this needs ownership of the tables: the triggers are disabled by DDL in a
    transaction and enabled again before it commits.
    """
    from django.db import connection

    previous = ledger_unlocked()
    _state.unlocked = True
    try:
        if connection.vendor == "postgresql":
            with transaction.atomic(), connection.cursor() as cursor:
                for table in APPEND_ONLY_TABLES:
                    for trigger in _postgres_trigger_names(table):
                        cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER {trigger}")
                yield
                for table in APPEND_ONLY_TABLES:
                    for trigger in _postgres_trigger_names(table):
                        cursor.execute(f"ALTER TABLE {table} ENABLE ALWAYS TRIGGER {trigger}")
        else:
            yield
    finally:
        _state.unlocked = previous


def empty_ledger() -> None:
    """Empty the append-only tables (and what references them): a test database's cleanup.

    On SQLite the flush itself deletes them once `set_ledger_unlocked(True)`; PostgreSQL
    flushes with TRUNCATE, which the triggers refuse while a ledger table has rows.
    """
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with ledger_maintenance(), connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {', '.join(APPEND_ONLY_TABLES)} CASCADE")


@receiver(connection_created)
def _register_sqlite_function(sender, connection, **kwargs) -> None:
    if connection.vendor == "sqlite":
        connection.connection.create_function(
            "groundwork_ledger_unlocked",
            0,
            lambda: 1 if ledger_unlocked() else 0,
            deterministic=False,
        )


def _sqlite_triggers(table: str) -> list[str]:
    return [
        f"""
        CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table}
        BEGIN SELECT RAISE(ABORT, '{table} is append-only: UPDATE refused'); END
        """,
        f"""
        CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table}
        WHEN groundwork_ledger_unlocked() = 0
        BEGIN SELECT RAISE(ABORT, '{table} is append-only: DELETE refused'); END
        """,
    ]


def _postgres_triggers(table: str) -> list[str]:
    rows, truncate = _postgres_trigger_names(table)
    return [
        f"""
        CREATE TRIGGER {rows} BEFORE UPDATE OR DELETE ON {table}
        FOR EACH ROW EXECUTE FUNCTION groundwork_refuse_change()
        """,
        f"""
        CREATE TRIGGER {truncate} BEFORE TRUNCATE ON {table}
        FOR EACH STATEMENT EXECUTE FUNCTION groundwork_refuse_truncate()
        """,
        f"ALTER TABLE {table} ENABLE ALWAYS TRIGGER {rows}",
        f"ALTER TABLE {table} ENABLE ALWAYS TRIGGER {truncate}",
    ]


SQLITE_TRIGGERS = [s for table in FIRST_LOCKED_TABLES for s in _sqlite_triggers(table)]
SQLITE_DROP = [
    f"DROP TRIGGER IF EXISTS {table}_{what}"
    for table in FIRST_LOCKED_TABLES
    for what in ("no_update", "no_delete")
]
POSTGRES_TRIGGERS = [
    """
    CREATE OR REPLACE FUNCTION groundwork_refuse_change() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
            USING ERRCODE = 'insufficient_privilege';
    END;
    $$ LANGUAGE plpgsql
    """,
    # An empty table may be truncated: that is how a test database is flushed once
    # empty_ledger() has run, and it removes nothing.
    """
    CREATE OR REPLACE FUNCTION groundwork_refuse_truncate() RETURNS trigger AS $$
    DECLARE has_rows boolean;
    BEGIN
        EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I.%I)', TG_TABLE_SCHEMA, TG_TABLE_NAME)
            INTO has_rows;
        IF has_rows THEN
            RAISE EXCEPTION '% is append-only: TRUNCATE refused', TG_TABLE_NAME
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NULL;
    END;
    $$ LANGUAGE plpgsql
    """,
    *[s for table in FIRST_LOCKED_TABLES for s in _postgres_triggers(table)],
]
POSTGRES_DROP = [
    *[
        f"DROP TRIGGER IF EXISTS {trigger} ON {table}"
        for table in FIRST_LOCKED_TABLES
        for trigger in _postgres_trigger_names(table)
    ],
    "DROP FUNCTION IF EXISTS groundwork_refuse_change()",
    "DROP FUNCTION IF EXISTS groundwork_refuse_truncate()",
]

# The correction ledger: the same triggers on its table (the PostgreSQL functions exist since
# migration 0004).
CORRECTION_SQLITE_TRIGGERS = _sqlite_triggers(CORRECTION_TABLE)
CORRECTION_SQLITE_DROP = [
    f"DROP TRIGGER IF EXISTS {CORRECTION_TABLE}_{what}" for what in ("no_update", "no_delete")
]
CORRECTION_POSTGRES_TRIGGERS = _postgres_triggers(CORRECTION_TABLE)
CORRECTION_POSTGRES_DROP = [
    f"DROP TRIGGER IF EXISTS {trigger} ON {CORRECTION_TABLE}"
    for trigger in _postgres_trigger_names(CORRECTION_TABLE)
]
