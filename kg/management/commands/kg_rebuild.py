"""Drop a project's graph and replay its episodes from the recorded model outputs."""

from __future__ import annotations

from kg.management.commands._progress import progress_bar
from kg.management.commands._project import ProjectCommand
from kg.models import Project
from kg.operations.rebuild import rebuild_project_graph


class Command(ProjectCommand):
    help = "Rebuild a project's graph from its episodes (no new model calls for seen prompts)."

    def handle_project(self, project: Project, **options) -> None:
        count = rebuild_project_graph(project, lambda d, t: progress_bar(d, t, "replay"))
        self.stdout.write(f"rebuilt {project.slug} from {count} episodes")
