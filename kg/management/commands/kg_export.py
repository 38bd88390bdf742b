"""Print a project's episodes, nodes, edges and contradictions as JSON."""

from __future__ import annotations

from kg.management.commands._project import ProjectCommand
from kg.models import Project
from kg.reading.export import export_chunks


class Command(ProjectCommand):
    help = "Export a project's ledger and graph as JSON on stdout."

    def handle_project(self, project: Project, **options) -> None:
        # Written as read: a project of any size is exported in bounded memory.
        for chunk in export_chunks(project):
            self.stdout.write(chunk, ending="")
