"""The ledger's full-text index: a lemma table, searched by FTS5 on SQLite and by a GIN-indexed
`simple` tsvector on PostgreSQL (the lemmas are already the language's work)."""

import django.db.models.deletion
from django.db import migrations, models

SQLITE_FORWARD = [
    "CREATE VIRTUAL TABLE kg_episode_fts USING fts5(lemmas, content='kg_episodesearchtext', "
    "content_rowid='episode_id', tokenize='unicode61 remove_diacritics 2')",
    "CREATE TRIGGER kg_episode_fts_insert AFTER INSERT ON kg_episodesearchtext BEGIN "
    "INSERT INTO kg_episode_fts(rowid, lemmas) VALUES (new.episode_id, new.lemmas); END",
    "CREATE TRIGGER kg_episode_fts_delete AFTER DELETE ON kg_episodesearchtext BEGIN "
    "INSERT INTO kg_episode_fts(kg_episode_fts, rowid, lemmas) "
    "VALUES ('delete', old.episode_id, old.lemmas); END",
    "CREATE TRIGGER kg_episode_fts_update AFTER UPDATE ON kg_episodesearchtext BEGIN "
    "INSERT INTO kg_episode_fts(kg_episode_fts, rowid, lemmas) "
    "VALUES ('delete', old.episode_id, old.lemmas); "
    "INSERT INTO kg_episode_fts(rowid, lemmas) VALUES (new.episode_id, new.lemmas); END",
]
SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS kg_episode_fts_update",
    "DROP TRIGGER IF EXISTS kg_episode_fts_delete",
    "DROP TRIGGER IF EXISTS kg_episode_fts_insert",
    "DROP TABLE IF EXISTS kg_episode_fts",
]
POSTGRES_FORWARD = [
    "CREATE INDEX kg_episode_search_tsv ON kg_episodesearchtext "
    "USING gin (to_tsvector('simple', lemmas))",
]
POSTGRES_BACKWARD = ["DROP INDEX IF EXISTS kg_episode_search_tsv"]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("kg", "0017_broker_epoch"),
    ]

    operations = [
        migrations.CreateModel(
            name="EpisodeSearchText",
            fields=[
                (
                    "episode",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to="kg.episode",
                    ),
                ),
                (
                    "lemmas",
                    models.TextField(help_text="The episode's content words as lemmas, in order."),
                ),
                (
                    "project",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="kg.project",
                    ),
                ),
            ],
            options={
                "indexes": [models.Index(fields=["project"], name="episode_search_project")],
            },
        ),
        migrations.RunPython(
            _run({"sqlite": SQLITE_FORWARD, "postgresql": POSTGRES_FORWARD}),
            _run({"sqlite": SQLITE_BACKWARD, "postgresql": POSTGRES_BACKWARD}),
        ),
    ]
