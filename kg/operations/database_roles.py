"""Two database roles on PostgreSQL: the owner, who migrates, and the app, who cannot rewrite
the ledger.

The triggers of kg.ledger.lock refuse UPDATE, DELETE and TRUNCATE of the append-only tables,
but a table's owner can switch them off (`ALTER TABLE ... DISABLE TRIGGER`), drop them, or
replace their function. The web, worker and beat therefore connect as a role that owns nothing:

- on every table, SELECT, INSERT, UPDATE and DELETE (what the app does; no TRUNCATE, no DDL);
- on the ledger tables (kg.ledger.lock.APPEND_ONLY_TABLES), SELECT and INSERT only;
- on the migrations' record, SELECT only; on the sequences, USAGE and SELECT.

`set_up_database()` migrates as the owner (settings.DATABASE_OWNER) and then grants the app's
role (DATABASE_URL's user), creating it with its password when missing (the owner then needs
CREATEROLE, as the superuser of PostgreSQL's image has; a role created beforehand by an
administrator is granted as it is). Run again after every
migration (compose's web does, at each start): tables created since are granted then. It is
idempotent, and it refuses an app role that is a superuser or owns a table.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.db import connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper

from kg.ledger.lock import APPEND_ONLY_TABLES

APP_TABLE_PRIVILEGES = "SELECT, INSERT, UPDATE, DELETE"
LEDGER_PRIVILEGES = "SELECT, INSERT"
MIGRATIONS_TABLE = "django_migrations"
# One setup at a time per cluster (two web containers starting together).
_SETUP_LOCK = "groundwork-database-roles"


@dataclass
class RoleSetup:
    owner: str = ""
    app: str = ""
    created: bool = False
    ledger_tables: list[str] = field(default_factory=list)


@dataclass
class DatabaseSetup:
    migrated_as: str
    roles: RoleSetup | None  # None: one role does everything (DATABASE_OWNER_URL unset)


def set_up_database(*, verbosity: int = 1) -> DatabaseSetup:
    """Migrate, as the owner when DATABASE_OWNER_URL is set, then grant the app's role."""
    if settings.DATABASE_OWNER is None:
        call_command("migrate", interactive=False, verbosity=verbosity)
        return DatabaseSetup(
            migrated_as=settings.DATABASES["default"].get("USER") or "", roles=None
        )
    app = settings.DATABASES["default"]
    with connected_as_owner():
        call_command("migrate", interactive=False, verbosity=verbosity)
        roles = grant_app_role(connections["default"], app["USER"], app.get("PASSWORD") or None)
    return DatabaseSetup(migrated_as=roles.owner, roles=roles)


@contextmanager
def connected_as_owner() -> Iterator[None]:
    """The default connection as the owner for the block (migrations and their data steps use
    it), as the app's role again after."""
    app = connections.settings["default"]
    owner = settings.DATABASE_OWNER
    _reconnect({**app, **{k: owner.get(k) for k in ("USER", "PASSWORD", "HOST", "PORT", "NAME")}})
    try:
        yield
    finally:
        _reconnect(app)


def _reconnect(database: dict) -> None:
    connections["default"].close()
    connections.settings["default"] = database
    del connections["default"]  # made anew from the settings at its next use


def grant_app_role(
    connection: BaseDatabaseWrapper, role: str, password: str | None = None
) -> RoleSetup:
    """Create the app's role if missing (with LOGIN and the password) and grant it what the app
    needs, as the owner connected on `connection`; idempotent, in one transaction."""
    if connection.vendor != "postgresql":
        raise ImproperlyConfigured("database roles are a PostgreSQL deployment's")
    quoted = connection.ops.quote_name(role)
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [_SETUP_LOCK])
        cursor.execute("SELECT current_user, current_schema()")
        owner, schema = cursor.fetchone()
        if role == owner:
            raise ImproperlyConfigured(
                f"the app's role {role!r} is the tables' owner: give DATABASE_URL a role of its own"
            )
        cursor.execute(
            "SELECT rolsuper OR rolreplication OR rolbypassrls FROM pg_roles WHERE rolname = %s",
            [role],
        )
        found = cursor.fetchone()
        if found and found[0]:
            raise ImproperlyConfigured(
                f"the app's role {role!r} is a superuser (or bypasses row security, or "
                "replicates): give DATABASE_URL an ordinary role"
            )
        cursor.execute(
            "SELECT count(*) FROM pg_tables WHERE schemaname = %s AND tableowner = %s",
            [schema, role],
        )
        if cursor.fetchone()[0]:
            raise ImproperlyConfigured(
                f"the app's role {role!r} owns tables: migrate as DATABASE_OWNER_URL's role "
                "(ALTER TABLE ... OWNER TO it moves tables migrated before)"
            )
        cursor.execute(
            "SELECT rolsuper OR rolcreaterole FROM pg_roles WHERE rolname = current_user"
        )
        manages_roles = cursor.fetchone()[0]
        if manages_roles:
            # An existing role was found ordinary above; only a superuser may name the
            # superuser, replication and row-security attributes in ALTER ROLE.
            verb, login = (
                ("ALTER", "LOGIN NOCREATEDB NOCREATEROLE")
                if found
                else ("CREATE", "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE")
            )
            if password:
                cursor.execute(f"{verb} ROLE {quoted} WITH {login} PASSWORD %s", [password])
            else:
                cursor.execute(f"{verb} ROLE {quoted} WITH {login}")
        elif not found:
            raise ImproperlyConfigured(
                f"the app's role {role!r} does not exist and {owner!r} may not create roles: "
                f"create it (CREATE ROLE {role} LOGIN PASSWORD '...') or give {owner!r} CREATEROLE"
            )
        schema_name = connection.ops.quote_name(schema)
        database = connection.ops.quote_name(connection.settings_dict["NAME"])
        ledger = [t for t in APPEND_ONLY_TABLES if _exists(cursor, schema, t)]
        ledger_list = ", ".join(connection.ops.quote_name(t) for t in ledger)
        statements = [
            f"GRANT CONNECT, TEMPORARY ON DATABASE {database} TO {quoted}",
            f"GRANT USAGE ON SCHEMA {schema_name} TO {quoted}",
            # No role creates objects in the schema but its owner's (PostgreSQL 15's default).
            f"REVOKE CREATE ON SCHEMA {schema_name} FROM PUBLIC",
            f"REVOKE CREATE ON SCHEMA {schema_name} FROM {quoted}",
            f"GRANT {APP_TABLE_PRIVILEGES} ON ALL TABLES IN SCHEMA {schema_name} TO {quoted}",
            f"REVOKE TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA {schema_name} "
            f"FROM {quoted}",
            f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema_name} TO {quoted}",
        ]
        if ledger:
            statements.append(f"REVOKE UPDATE, DELETE ON {ledger_list} FROM {quoted}")
        if _exists(cursor, schema, MIGRATIONS_TABLE):
            statements.append(f"REVOKE INSERT, UPDATE, DELETE ON {MIGRATIONS_TABLE} FROM {quoted}")
        for statement in statements:
            cursor.execute(statement)
    return RoleSetup(owner=owner, app=role, created=not found, ledger_tables=ledger)


def _exists(cursor, schema: str, table: str) -> bool:
    cursor.execute(
        "SELECT 1 FROM pg_tables WHERE schemaname = %s AND tablename = %s", [schema, table]
    )
    return cursor.fetchone() is not None
