"""The subjects an extraction prompt lists are counted from an index of the nodes that have a
subject (project, subject, valid_at), not by grouping over every node of the project."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("kg", "0018_episode_search_text"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="indexednode",
            index=models.Index(
                condition=models.Q(("subject", ""), _negated=True),
                fields=["project", "subject", "valid_at"],
                name="kg_indexed_node_subject",
            ),
        ),
    ]
