from django.db import migrations

from kg.ledger_lock import POSTGRES_DROP, POSTGRES_TRIGGERS, SQLITE_DROP, SQLITE_TRIGGERS


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
