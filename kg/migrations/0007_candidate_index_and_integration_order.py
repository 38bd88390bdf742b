import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("kg", "0006_episode_recovery")]

    operations = [
        migrations.CreateModel(
            name="IndexedNode",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("uid", models.CharField(max_length=64)),
                ("node_type", models.CharField(max_length=20)),
                ("number", models.PositiveIntegerField()),
                ("label", models.TextField()),
                ("key", models.TextField()),
                ("aliases", models.JSONField(default=list)),
                ("alias_keys", models.JSONField(default=list)),
                ("subject", models.CharField(blank=True, max_length=300)),
                ("stance", models.CharField(blank=True, max_length=10)),
                ("value", models.TextField(blank=True)),
                ("valid_at", models.CharField(max_length=40)),
                ("active", models.BooleanField(default=True)),
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
                "indexes": [
                    models.Index(fields=["project", "number"], name="kg_indexed_node_number")
                ],
                "constraints": [
                    models.UniqueConstraint(fields=("project", "uid"), name="unique_indexed_node")
                ],
            },
        ),
        migrations.CreateModel(
            name="IndexPosting",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("node_type", models.CharField(max_length=20)),
                ("block", models.CharField(max_length=200)),
                ("node_uid", models.CharField(max_length=64)),
                ("number", models.PositiveIntegerField()),
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
                "indexes": [
                    models.Index(
                        fields=["project", "node_type", "block", "-number"], name="kg_posting_typed"
                    ),
                    models.Index(
                        fields=["project", "block", "-number"], name="kg_posting_any_type"
                    ),
                    models.Index(fields=["project", "node_uid"], name="kg_posting_node"),
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("project", "block", "node_uid"), name="unique_index_posting"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="EpisodeIntegration",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("proposal", models.JSONField()),
                ("order", models.PositiveBigIntegerField(blank=True, null=True)),
                (
                    "episode",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="integration",
                        to="kg.episode",
                    ),
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
                "indexes": [models.Index(fields=["project", "order"], name="kg_integration_order")],
            },
        ),
    ]
