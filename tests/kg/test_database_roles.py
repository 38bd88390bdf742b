"""The app's database role cannot rewrite the ledger, yet does everything the app does.

PostgreSQL only (SQLite has no roles): the role is created and granted by the setup the
deployment runs after migrating (kg.operations.database_roles), inside the test's transaction,
so it is gone again after the test. The statements then run as it (SET LOCAL ROLE: the
privileges of a session logged in as it).
"""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from kg.ledger.episodes import EpisodeInput, record_episode
from kg.ledger.lock import APPEND_ONLY_TABLES
from kg.models import (
    Correction,
    Episode,
    EpisodeProcessing,
    Membership,
    ProcessingStatus,
    ResolutionDecision,
)
from kg.operations.database_roles import grant_app_role
from kg.pipeline.recovery import record_retry

pytestmark = pytest.mark.django_db

postgres_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's roles")

APP_ROLE = "groundwork_test_app"
AS_APP = f"SET LOCAL ROLE {APP_ROLE}"


def refused(sql: str) -> str:
    """Run `sql` as the app's role; returns PostgreSQL's refusal."""
    with pytest.raises(DatabaseError) as error, transaction.atomic(), connection.cursor() as c:
        c.execute(AS_APP)
        c.execute(sql)
    return str(error.value)


@pytest.fixture
def ledger(org_project):
    episode = record_episode(org_project, EpisodeInput(content="Couriers wait."), enqueue=False)
    ResolutionDecision.objects.create(
        project=org_project,
        episode=episode,
        node_type="pain",
        candidate_label="Couriers wait",
        method="new",
        node_uid="n1",
        node_number=1,
    )
    Correction.objects.create(
        project=org_project,
        number=1,
        action="reject",
        node_uid="n1",
        created_at=timezone.now(),
    )
    return episode


@pytest.fixture
def app_role(ledger):
    setup = grant_app_role(connection, APP_ROLE, "app-password")
    assert setup.created and setup.app == APP_ROLE
    assert sorted(setup.ledger_tables) == sorted(APPEND_ONLY_TABLES)
    return setup


@postgres_only
def test_the_app_role_cannot_rewrite_the_ledger_or_its_lock(app_role):
    for table in APPEND_ONLY_TABLES:
        rows, truncate = f"{table}_append_only", f"{table}_no_truncate"
        for sql in (
            f"UPDATE {table} SET id = id",  # noqa: S608  (names from a constant)
            f"DELETE FROM {table}",  # noqa: S608
            f"TRUNCATE {table} CASCADE",
            f"ALTER TABLE {table} DISABLE TRIGGER {rows}",
            f"ALTER TABLE {table} DISABLE TRIGGER ALL",
            f"ALTER TABLE {table} ADD COLUMN rewritten boolean",
            f"DROP TRIGGER {truncate} ON {table}",
            f"DROP TABLE {table} CASCADE",
            f"CREATE TRIGGER sneaky BEFORE INSERT ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION groundwork_refuse_change()",
        ):
            message = refused(sql)
            assert "permission denied" in message or "must be owner" in message, (sql, message)
    for function in ("groundwork_refuse_change", "groundwork_refuse_truncate"):
        message = refused(
            f"CREATE OR REPLACE FUNCTION {function}() RETURNS trigger AS $$ "
            "BEGIN RETURN NEW; END; $$ LANGUAGE plpgsql"
        )
        assert "must be owner" in message or "permission denied" in message
        assert "must be owner" in refused(f"DROP FUNCTION {function}()")
    # Nor can it make objects of its own in the schema, nor rewrite the migrations' record.
    assert "permission denied" in refused("CREATE TABLE kg_shadow (id int)")
    assert "permission denied" in refused("DELETE FROM django_migrations")
    assert "must be superuser" in refused("ALTER ROLE groundwork_test_app SUPERUSER")
    assert Episode.objects.count() == 1 and Correction.objects.count() == 1
    assert ResolutionDecision.objects.count() == 1
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_trigger WHERE tgname LIKE %s AND tgenabled = 'A'",
            ["%append_only"],
        )
        assert cursor.fetchone()[0] == len(APPEND_ONLY_TABLES)


@postgres_only
def test_the_app_still_works_as_its_role(app_role, org_project):
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(AS_APP)
        cursor.execute("SELECT current_user")
        assert cursor.fetchone()[0] == APP_ROLE
        # The ledger grows: an episode recorded (ledger, processing row, project counters),
        # its state moved on; an account signs up and joins, the project is renamed, the
        # account is deleted with its membership.
        episode = record_episode(
            org_project, EpisodeInput(content="Riders want shorter routes."), enqueue=False
        )
        record_retry(episode.pk, "GraphUnavailable: graph down", 30)
        user = get_user_model().objects.create_user("rider", password="a long passphrase")
        Membership.objects.create(user=user, organization=org_project.organization)
        org_project.name = "Couriers, renamed"
        org_project.save(update_fields=["name"])
        removed, by_model = user.delete()
    assert Episode.objects.filter(pk=episode.pk, content="Riders want shorter routes.").exists()
    assert EpisodeProcessing.objects.get(episode=episode).status == ProcessingStatus.PENDING
    assert by_model.get("kg.Membership") == 1
    assert not Membership.objects.exists()


@postgres_only
def test_the_role_setup_is_idempotent_and_refuses_the_owner_and_superusers(app_role):
    again = grant_app_role(connection, APP_ROLE, "app-password")
    assert not again.created and again.owner == app_role.owner
    with pytest.raises(ImproperlyConfigured, match="owner"):
        grant_app_role(connection, app_role.owner)
    with connection.cursor() as cursor:
        cursor.execute("CREATE ROLE groundwork_test_super SUPERUSER")
    with pytest.raises(ImproperlyConfigured, match="superuser"):
        grant_app_role(connection, "groundwork_test_super")
    # Refused by its privileges, before the ledger's triggers are reached.
    assert "permission denied" in refused("UPDATE kg_episode SET content = 'x'")


def test_without_an_owner_url_the_setup_migrates_as_the_one_role():
    out = io.StringIO()
    call_command("kg_database_setup", verbosity=0, stdout=out)
    assert "one database role (DATABASE_OWNER_URL unset): migrations applied" in out.getvalue()
