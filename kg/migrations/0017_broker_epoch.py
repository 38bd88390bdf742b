"""The broker epoch the stale-work sweep last saw (kg.pipeline.recovery)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("kg", "0016_project_slug_per_organization"),
    ]

    operations = [
        migrations.CreateModel(
            name="BrokerEpoch",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("epoch", models.CharField(max_length=100)),
                ("seen_at", models.DateTimeField(auto_now=True)),
            ],
        ),
    ]
