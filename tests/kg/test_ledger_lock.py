"""The append-only tables refuse change at the database, whatever a client sets or calls."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from kg.ledger.episodes import record_episode
from kg.ledger.lock import empty_ledger, ledger_maintenance
from kg.models import Episode, ResolutionDecision

pytestmark = pytest.mark.django_db

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL's triggers and settings"
)


def refused(sql: str, params: tuple = (), setup: tuple[str, ...] = ()) -> str:
    with pytest.raises(DatabaseError) as error, transaction.atomic(), connection.cursor() as c:
        for statement in setup:
            c.execute(statement)
        c.execute(sql, params)
    return str(error.value)


@pytest.fixture
def ledger(org_project):
    from kg.ledger.episodes import EpisodeInput

    episode = record_episode(org_project, EpisodeInput(content="Couriers wait."), enqueue=False)
    decision = ResolutionDecision.objects.create(
        project=org_project,
        episode=episode,
        node_type="pain",
        candidate_label="Couriers wait",
        method="new",
        node_uid="n1",
        node_number=1,
    )
    return episode, decision


def test_episode_update_and_delete_refused_by_raw_sql(ledger):
    episode, _ = ledger
    assert "UPDATE refused" in refused(
        "UPDATE kg_episode SET content = 'x' WHERE id = %s", (episode.id,)
    )
    assert "DELETE refused" in refused("DELETE FROM kg_episode WHERE id = %s", (episode.id,))
    assert Episode.objects.get(id=episode.id).content == "Couriers wait."


def test_resolution_audit_refuses_rewrite(ledger):
    _, decision = ledger
    assert "UPDATE refused" in refused(
        "UPDATE kg_resolutiondecision SET method = 'exact' WHERE id = %s", (decision.id,)
    )
    assert "DELETE refused" in refused(
        "DELETE FROM kg_resolutiondecision WHERE id = %s", (decision.id,)
    )
    assert ResolutionDecision.objects.get(id=decision.id).method == "new"


@postgres_only
def test_postgres_session_setting_opens_nothing(ledger):
    episode, _ = ledger
    message = refused(
        "DELETE FROM kg_episode WHERE id = %s",
        (episode.id,),
        setup=("SELECT set_config('groundwork.ledger_unlocked', 'on', false)",),
    )
    assert "DELETE refused" in message
    # Replica mode skips ordinary triggers; these are ENABLE ALWAYS.
    assert "DELETE refused" in refused(
        "DELETE FROM kg_episode WHERE id = %s",
        (episode.id,),
        setup=("SET LOCAL session_replication_role = replica",),
    )
    assert Episode.objects.filter(id=episode.id).exists()


@postgres_only
def test_postgres_truncate_refused(transactional_db, ledger):
    assert "TRUNCATE refused" in refused("TRUNCATE kg_episode CASCADE")
    assert "TRUNCATE refused" in refused("TRUNCATE kg_resolutiondecision")
    assert "TRUNCATE refused" in refused("TRUNCATE kg_project CASCADE")
    assert Episode.objects.count() == 1 and ResolutionDecision.objects.count() == 1


@postgres_only
def test_postgres_old_bypass_function_is_gone(ledger):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_proc WHERE proname IN "
            "('kg_episode_refuse_change', 'groundwork_ledger_unlocked')"
        )
        assert cursor.fetchone()[0] == 0
        cursor.execute(
            "SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid = 'kg_episode'::regclass "
            "AND NOT tgisinternal ORDER BY tgname"
        )
        assert cursor.fetchall() == [
            ("kg_episode_append_only", "A"),
            ("kg_episode_no_truncate", "A"),
        ]


@postgres_only
def test_postgres_maintenance_is_owner_ddl_and_reenables(transactional_db, ledger):
    with connection.cursor() as cursor:
        cursor.execute("CREATE ROLE groundwork_test_client NOLOGIN")
        try:
            cursor.execute("GRANT ALL ON ALL TABLES IN SCHEMA public TO groundwork_test_client")
            with pytest.raises(DatabaseError, match="owner"), transaction.atomic():
                cursor.execute("SET LOCAL ROLE groundwork_test_client")
                cursor.execute("ALTER TABLE kg_episode DISABLE TRIGGER kg_episode_append_only")
            assert "TRUNCATE refused" in refused(
                "TRUNCATE kg_episode CASCADE", setup=("SET LOCAL ROLE groundwork_test_client",)
            )
        finally:
            cursor.execute("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM groundwork_test_client")
            cursor.execute("DROP ROLE groundwork_test_client")
    empty_ledger()
    assert Episode.objects.count() == 0
    episode, _ = _one_more(ledger[0].project)
    assert "DELETE refused" in refused("DELETE FROM kg_episode WHERE id = %s", (episode.id,))


def _one_more(project):
    from kg.ledger.episodes import EpisodeInput

    return record_episode(project, EpisodeInput(content="Again."), enqueue=False), None


def test_sqlite_maintenance_opens_delete_only_on_its_thread(ledger):
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's connection function")
    episode, decision = ledger
    with ledger_maintenance(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM kg_resolutiondecision WHERE id = %s", (decision.id,))
        cursor.execute("DELETE FROM kg_episodeprocessing WHERE episode_id = %s", (episode.id,))
        cursor.execute("DELETE FROM kg_episode WHERE id = %s", (episode.id,))
    assert not Episode.objects.filter(id=episode.id).exists()
    other, _ = _one_more(episode.project)
    assert "DELETE refused" in refused("DELETE FROM kg_episode WHERE id = %s", (other.id,))
