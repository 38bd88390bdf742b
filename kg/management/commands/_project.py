"""The base of the commands that work on one project named by `--project SLUG`."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from kg.models import Project
from kg.tenancy import ProjectNotFound, find_project


class ProjectCommand(BaseCommand):
    """Takes `--project`, finds the project (an unknown one is a clear error) and hands it to
    `handle_project`."""

    def add_arguments(self, parser) -> None:
        parser.add_argument("--project", required=True)

    def handle(self, *args, project: str, **options) -> None:
        try:
            target = find_project(project)
        except ProjectNotFound as exc:
            raise CommandError(str(exc)) from None
        self.handle_project(target, **options)

    def handle_project(self, project: Project, **options) -> None:
        raise NotImplementedError
