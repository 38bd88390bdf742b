"""Corrections can add an edge, re-source one (another quote cited), and undo an earlier
correction (a later event referring to it: the ledger stays append-only)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("kg", "0012_index_without_lone_project_index"),
    ]

    operations = [
        migrations.AlterField(
            model_name="correction",
            name="action",
            field=models.CharField(
                choices=[
                    ("merge", "Merge"),
                    ("split", "Split an alias off"),
                    ("rename", "Rename"),
                    ("retype", "Change the type"),
                    ("reject", "Reject"),
                    ("confirm", "Confirm"),
                    ("edit_edge", "Change an edge's relation"),
                    ("remove_edge", "Remove an edge"),
                    ("add_edge", "Add an edge"),
                    ("resource_edge", "Change the evidence an edge cites"),
                    ("undo", "Undo a correction"),
                ],
                max_length=20,
            ),
        ),
    ]
