"""Drop a project's graph and replay its episodes from the recorded model outputs."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from kg.management.commands._progress import progress_bar
from kg.operations.rebuild import rebuild_project_graph
from kg.tenancy import ProjectNotFound, find_project


class Command(BaseCommand):
    help = "Rebuild a project's graph from its episodes (no new model calls for seen prompts)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--project", required=True)

    def handle(self, *args, project: str, **options) -> None:
        try:
            target = find_project(project)
        except ProjectNotFound as exc:
            raise CommandError(str(exc)) from None
        count = rebuild_project_graph(target, lambda d, t: progress_bar(d, t, "replay"))
        self.stdout.write(f"rebuilt {target.slug} from {count} episodes")
