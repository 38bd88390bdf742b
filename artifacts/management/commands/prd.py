"""Generate (or reuse) a project's PRD and print it as Markdown or JSON."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from artifacts.rendering import load_document, to_json
from artifacts.services import generate_prd, parse_as_of
from kg.tenancy import ProjectNotFound, find_project


class Command(BaseCommand):
    help = (
        "Generate the project's PRD (or return the latest version when nothing changed) and "
        "print it. Progress goes to stderr."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--project", required=True, help="project slug")
        parser.add_argument("--format", choices=["md", "json"], default="md")
        parser.add_argument(
            "--as-of",
            dest="as_of",
            default=None,
            help="ISO-8601 date or time: the PRD as the research stood then",
        )

    def handle(self, *args, project: str, format: str, as_of: str | None, **options) -> None:
        try:
            target = find_project(project)
        except ProjectNotFound:
            raise CommandError(f"project {project!r} does not exist") from None
        try:
            moment = parse_as_of(as_of)
        except ValueError as exc:
            raise CommandError(f"--as-of: {exc}") from None
        version = generate_prd(target, moment, progress=lambda stage: self.stderr.write(stage))
        if format == "json":
            document = to_json(load_document(version))
            self.stdout.write(json.dumps(document, ensure_ascii=False, indent=2))
        else:
            self.stdout.write(version.markdown, ending="")
