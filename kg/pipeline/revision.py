"""The per-project revision counter: one number that changes whenever the graph does.

Readers that cache something derived from a project's graph (a PRD, a context) compare the
number they cached against `project_revision(project)` instead of re-reading the graph.
`graph_changed` is the one place that bumps it, and it is also what sends
`project_graph_changed`, so the counter and the signal never disagree.
"""

from __future__ import annotations

from django.db import IntegrityError, connection, transaction
from django.db.models import F

from kg.models import Project, ProjectRevision
from kg.signals import project_graph_changed


def _project_id(project: Project | int) -> int:
    return project if isinstance(project, int) else project.pk


def project_revision(project: Project | int) -> int:
    """The project's current graph revision: 0 before anything was written."""
    row = (
        ProjectRevision.objects.filter(project_id=_project_id(project))
        .values_list("revision", flat=True)
        .first()
    )
    return int(row or 0)


def bump_revision(project: Project | int) -> int:
    """Count one change of the project's graph; returns the new revision."""
    project_id = _project_id(project)
    # One statement for the usual case (the row exists): incremented and read back together.
    table = ProjectRevision._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET revision = revision + 1 WHERE project_id = %s "  # noqa: S608
            "RETURNING revision",
            [project_id],
        )
        row = cursor.fetchone()
    if row is not None:
        return int(row[0])
    with transaction.atomic():
        updated = ProjectRevision.objects.filter(project_id=project_id).update(
            revision=F("revision") + 1
        )
        if not updated:
            try:
                with transaction.atomic():
                    ProjectRevision.objects.create(project_id=project_id, revision=1)
            except IntegrityError:  # another writer created the row first
                ProjectRevision.objects.filter(project_id=project_id).update(
                    revision=F("revision") + 1
                )
    return project_revision(project_id)


def graph_changed(project: Project | int, sender: type = Project) -> int:
    """The project's graph changed: bump its revision, then tell the listeners."""
    revision = bump_revision(project)
    project_graph_changed.send(sender=sender, project_id=_project_id(project))
    return revision
