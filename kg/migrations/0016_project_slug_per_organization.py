"""Project slugs unique per organization; the graph keys projects by graph_key instead.

Existing projects keep their slug as graph key, so the graph needs no change."""

from django.db import migrations, models


def slug_as_graph_key(apps, schema_editor):
    Project = apps.get_model("kg", "Project")
    for project in Project.objects.only("pk", "slug"):
        Project.objects.filter(pk=project.pk).update(graph_key=project.slug)


class Migration(migrations.Migration):
    dependencies = [("kg", "0014_correction_undo_and_edges")]

    operations = [
        migrations.AddField(
            model_name="project",
            name="graph_key",
            field=models.CharField(max_length=80, null=True, editable=False),
        ),
        migrations.RunPython(slug_as_graph_key, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="project",
            name="graph_key",
            field=models.CharField(max_length=80, unique=True, editable=False),
        ),
        migrations.AlterField(model_name="project", name="slug", field=models.SlugField()),
        migrations.AddConstraint(
            model_name="project",
            constraint=models.UniqueConstraint(
                fields=("organization", "slug"), name="project_slug_unique_in_organization"
            ),
        ),
    ]
