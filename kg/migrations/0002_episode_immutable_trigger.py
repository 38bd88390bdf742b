from django.db import migrations

# The first form of the ledger lock, as it was created; 0004 replaces it (kg.ledger.lock).
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


def _statements(vendor: str, create: bool) -> list[str]:
    if vendor == "sqlite":
        return SQLITE_TRIGGERS if create else SQLITE_DROP
    if vendor == "postgresql":
        return POSTGRES_TRIGGERS if create else POSTGRES_DROP
    raise RuntimeError(f"no episode immutability trigger for database vendor {vendor!r}")


def create_triggers(apps, schema_editor):
    for statement in _statements(schema_editor.connection.vendor, create=True):
        schema_editor.execute(statement, params=None)


def drop_triggers(apps, schema_editor):
    for statement in _statements(schema_editor.connection.vendor, create=False):
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("kg", "0001_initial")]
    operations = [migrations.RunPython(create_triggers, drop_triggers)]
