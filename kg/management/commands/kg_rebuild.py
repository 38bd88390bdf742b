"""Drop a project's graph and replay its episodes from the recorded model outputs; or every
project's, in parallel on the Celery workers (`--all --workers N`)."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from kg.management.commands._progress import progress_bar
from kg.models import Project
from kg.operations.rebuild import (
    ProjectRebuilt,
    rebuild_project_graph,
    rebuild_projects_on_workers,
)
from kg.tenancy import ProjectNotFound, find_project


class Command(BaseCommand):
    help = (
        "Rebuild a project's graph from its episodes (no new model calls for seen prompts). "
        "--all rebuilds every project: one after another here, or with --workers N as Celery "
        "tasks, N projects at a time, each in its recorded order; the command waits for them."
    )

    def add_arguments(self, parser) -> None:
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--project")
        which.add_argument("--all", action="store_true", help="every project")
        parser.add_argument(
            "--workers",
            type=int,
            default=0,
            help="with --all: rebuild on the Celery workers, this many projects at a time",
        )
        parser.add_argument(
            "--timeout",
            type=float,
            default=None,
            help="with --workers: give up waiting after this many seconds",
        )

    def handle(self, *args, project: str | None, workers: int, timeout, **options) -> None:
        if workers < 0:
            raise CommandError("--workers takes a number of projects at a time, 1 or more")
        if project:
            if workers:
                raise CommandError("--workers goes with --all (one project is one replay)")
            try:
                target = find_project(project)
            except ProjectNotFound as exc:
                raise CommandError(str(exc)) from None
            count = rebuild_project_graph(target, lambda d, t: progress_bar(d, t, "replay"))
            self.stdout.write(f"rebuilt {target.slug} from {count} episodes")
            return
        projects = list(Project.objects.select_related("organization").order_by("pk"))
        started = time.monotonic()
        if workers:
            try:
                outcomes = rebuild_projects_on_workers(
                    projects, workers, timeout=timeout, reported=self._report
                )
            except TimeoutError as exc:
                raise CommandError(str(exc)) from None
        else:
            outcomes = []
            for each in projects:
                count = rebuild_project_graph(each)
                outcomes.append(ProjectRebuilt(slug=each.slug, episodes=count))
                self._report(outcomes[-1])
        failed = [o for o in outcomes if o.error]
        self.stdout.write(
            f"rebuilt {len(outcomes) - len(failed)} of {len(projects)} projects "
            f"in {time.monotonic() - started:.1f} s"
        )
        if failed:
            raise CommandError(
                f"{len(failed)} project(s) not rebuilt: " + ", ".join(o.slug for o in failed)
            )

    def _report(self, outcome: ProjectRebuilt) -> None:
        if outcome.error:
            self.stderr.write(f"{outcome.slug}: not rebuilt: {outcome.error}")
            return
        where = f" on {outcome.worker}" if outcome.worker else ""
        took = f" in {outcome.seconds:.1f} s" if outcome.seconds else ""
        self.stdout.write(f"rebuilt {outcome.slug} from {outcome.episodes} episodes{took}{where}")
