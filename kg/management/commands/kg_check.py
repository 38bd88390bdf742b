"""Check that a project's graph holds the evidence its own links say it has."""

from __future__ import annotations

from django.core.management.base import CommandError

from kg.management.commands._project import ProjectCommand
from kg.models import Project
from kg.operations.consistency import evidence_lacking_mentions


class Command(ProjectCommand):
    help = "Report nodes whose evidence lacks an episode they are linked to (lost evidence)."

    def handle_project(self, project: Project, **options) -> None:
        lost = evidence_lacking_mentions(project)
        for node in lost:
            episodes = ", ".join(f"#{n}" for n in node.episodes)
            self.stdout.write(f"node #{node.node_number} {node.label!r}: lacks episodes {episodes}")
        if lost:
            lack = "1 node lacks" if len(lost) == 1 else f"{len(lost)} nodes lack"
            raise CommandError(
                f"{project.slug}: {lack} evidence; `kg_rebuild --project {project.slug}` "
                "rebuilds the graph from the ledger"
            )
        self.stdout.write(f"{project.slug}: every node holds the evidence of its mentions")
