"""Print a project's episodes, nodes, edges and contradictions as JSON."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from kg.reading.export import export_project
from kg.tenancy import ProjectNotFound, find_project


class Command(BaseCommand):
    help = "Export a project's ledger and graph as JSON on stdout."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--project", required=True)

    def handle(self, *args, project: str, **options) -> None:
        try:
            target = find_project(project)
        except ProjectNotFound as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(json.dumps(export_project(target), ensure_ascii=False, indent=2))
