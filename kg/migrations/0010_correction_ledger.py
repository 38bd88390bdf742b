"""The correction ledger, append-only like the episodes (kg.ledger.lock)."""

import uuid

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from kg.ledger import lock as ledger_lock


def _run(schema_editor, statements: list[str]) -> None:
    for statement in statements:
        schema_editor.execute(statement, params=None)


def lock_corrections(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        _run(schema_editor, ledger_lock.CORRECTION_SQLITE_TRIGGERS)
    elif vendor == "postgresql":
        _run(schema_editor, ledger_lock.CORRECTION_POSTGRES_TRIGGERS)
    else:
        raise RuntimeError(f"no ledger lock for database vendor {vendor!r}")


def unlock_corrections(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    _run(
        schema_editor,
        ledger_lock.CORRECTION_SQLITE_DROP
        if vendor == "sqlite"
        else ledger_lock.CORRECTION_POSTGRES_DROP,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("kg", "0009_episode_content_hash"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Correction",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("uid", models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                (
                    "number",
                    models.PositiveIntegerField(help_text="Sequential within the project, from 1."),
                ),
                (
                    "action",
                    models.CharField(
                        choices=[
                            ("merge", "Merge"),
                            ("split", "Split an alias off"),
                            ("rename", "Rename"),
                            ("retype", "Change the type"),
                            ("reject", "Reject"),
                            ("confirm", "Confirm"),
                            ("edit_edge", "Change an edge's relation"),
                            ("remove_edge", "Remove an edge"),
                        ],
                        max_length=20,
                    ),
                ),
                ("node_uid", models.CharField(max_length=64)),
                ("other_uid", models.CharField(blank=True, max_length=64)),
                ("params", models.JSONField(blank=True, default=dict)),
                ("note", models.TextField(blank=True)),
                ("author_name", models.CharField(blank=True, max_length=200)),
                ("after_order", models.PositiveBigIntegerField(default=0)),
                ("created_at", models.DateTimeField()),
                (
                    "author",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "project",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="corrections",
                        to="kg.project",
                    ),
                ),
            ],
            options={
                "ordering": ["project", "number"],
                "indexes": [
                    models.Index(fields=["project", "node_uid"], name="kg_correction_node"),
                    models.Index(fields=["project", "other_uid"], name="kg_correction_other"),
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("project", "number"), name="unique_correction_number"
                    )
                ],
            },
        ),
        migrations.RunPython(lock_corrections, unlock_corrections),
    ]
