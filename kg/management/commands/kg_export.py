"""Print a project's episodes, nodes, edges and contradictions as JSON."""

from __future__ import annotations

import json

from kg.management.commands._project import ProjectCommand
from kg.models import Project
from kg.reading.export import export_project


class Command(ProjectCommand):
    help = "Export a project's ledger and graph as JSON on stdout."

    def handle_project(self, project: Project, **options) -> None:
        self.stdout.write(json.dumps(export_project(project), ensure_ascii=False, indent=2))
