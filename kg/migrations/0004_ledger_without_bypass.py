"""The ledger lock without a bypass, and the resolution audit append-only (kg.ledger.lock)."""

from django.db import migrations

from kg.ledger import lock as ledger_lock

OLD_SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS kg_episode_no_update",
    "DROP TRIGGER IF EXISTS kg_episode_no_delete",
]
OLD_POSTGRES_DROP = [
    "DROP TRIGGER IF EXISTS kg_episode_immutable ON kg_episode",
    "DROP FUNCTION IF EXISTS kg_episode_refuse_change()",
]


def _run(schema_editor, statements: list[str]) -> None:
    for statement in statements:
        schema_editor.execute(statement, params=None)


def replace_triggers(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        _run(schema_editor, OLD_SQLITE_DROP + ledger_lock.SQLITE_TRIGGERS)
    elif vendor == "postgresql":
        _run(schema_editor, OLD_POSTGRES_DROP + ledger_lock.POSTGRES_TRIGGERS)
    else:
        raise RuntimeError(f"no ledger lock for database vendor {vendor!r}")


def drop_triggers(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    _run(
        schema_editor, ledger_lock.SQLITE_DROP if vendor == "sqlite" else ledger_lock.POSTGRES_DROP
    )


class Migration(migrations.Migration):
    dependencies = [("kg", "0003_project_revision")]
    operations = [
        migrations.RemoveConstraint(model_name="resolutiondecision", name="unique_resolution"),
        migrations.RunPython(replace_triggers, drop_triggers),
    ]
