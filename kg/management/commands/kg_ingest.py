"""Ingest a JSONL or plain-text file into a project as episodes, and run the pipeline."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from kg.episodes import EpisodeRejected, record_episode
from kg.importing import UnreadableFile, detect_language, read_ingest_file
from kg.management.commands._progress import progress_bar
from kg.models import Organization, Project
from kg.pipeline.ingest import episode_ingest
from kg.tenancy import ProjectNotFound, find_project, get_or_create_project


class Command(BaseCommand):
    help = "Create episodes from FILE (JSONL with author/at/text, or one message per line)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--project", required=True)
        parser.add_argument("--org", help="organization slug (with --create)")
        parser.add_argument("--create", action="store_true", help="create org/project if missing")
        parser.add_argument(
            "--name",
            default="",
            help="the product's name, as the research calls it (with --create; by default the "
            "project has none and the product is what the messages name)",
        )
        parser.add_argument("--language", choices=["en", "ru"])
        parser.add_argument("--sync", action="store_true", help="run the pipeline in-process")

    def handle(
        self,
        *args,
        file: Path,
        project: str,
        org: str | None,
        create: bool,
        name: str,
        language: str | None,
        sync: bool,
        **options,
    ) -> None:
        try:
            parsed = read_ingest_file(file)
        except UnreadableFile as exc:
            raise CommandError(str(exc)) from None
        for error in parsed.errors:
            self.stderr.write(f"skipped {error}")
        try:
            target = find_project(project)
        except ProjectNotFound as exc:
            if not create:
                raise CommandError(str(exc)) from None
            org_slug = org or project
            if org is None and not Organization.objects.filter(slug=org_slug).exists():
                self.stderr.write(f"no --org given: creating organization {org_slug!r}")
            lang = language or detect_language(" ".join(i.content for i in parsed.items[:50]))
            target = get_or_create_project(org_slug, project, lang)
            # The slug is an address, not the product's name: told "reviews", extraction would
            # take every message using the word for the product (and make rivals compete with
            # it). The project did not exist a moment ago, so its name is still the default.
            product = " ".join(name.split())
            if Project.objects.filter(pk=target.pk, name=project).update(name=product):
                target.name = product
        total = len(parsed.items)
        episodes = []
        for item in parsed.items:
            try:
                episodes.append(record_episode(target, item, enqueue=not sync))
            except EpisodeRejected as exc:
                self.stderr.write(f"skipped a message: {exc}")
        self.stdout.write(
            f"{len(episodes)} episodes recorded in {target.slug}"
            f" ({len(parsed.errors)} lines skipped)"
        )
        if not sync:
            self.stdout.write("the pipeline runs on the Celery workers")
            return
        failed = 0
        for done, episode in enumerate(episodes, start=1):
            try:
                episode_ingest(episode.pk)
            except Exception as exc:  # the episode is kept and marked failed; go on
                failed += 1
                self.stderr.write(f"\nepisode #{episode.number} failed: {exc}")
            progress_bar(done, total, "pipeline")
        if failed:
            raise CommandError(
                f"{failed} episode(s) failed; they are marked failed with the reason"
            )
