"""Check that a project's graph holds the evidence its own links say it has."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from kg.operations.consistency import evidence_lacking_mentions
from kg.tenancy import ProjectNotFound, find_project


class Command(BaseCommand):
    help = "Report nodes whose evidence lacks an episode they are linked to (lost evidence)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--project", required=True)

    def handle(self, *args, project: str, **options) -> None:
        try:
            target = find_project(project)
        except ProjectNotFound as exc:
            raise CommandError(str(exc)) from None
        lost = evidence_lacking_mentions(target)
        for node in lost:
            episodes = ", ".join(f"#{n}" for n in node.episodes)
            self.stdout.write(f"node #{node.node_number} {node.label!r}: lacks episodes {episodes}")
        if lost:
            lack = "1 node lacks" if len(lost) == 1 else f"{len(lost)} nodes lack"
            raise CommandError(
                f"{target.slug}: {lack} evidence; `kg_rebuild --project {target.slug}` "
                "rebuilds the graph from the ledger"
            )
        self.stdout.write(f"{target.slug}: every node holds the evidence of its mentions")
