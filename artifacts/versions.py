"""A project's PRD versions as they are read: the complete ones, newest first."""

from __future__ import annotations

from artifacts.models import ArtifactKind, ArtifactVersion
from kg.models import Project


def complete_versions(project: Project):
    return (
        ArtifactVersion.objects.complete()
        .filter(artifact__project=project, artifact__kind=ArtifactKind.PRD)
        .order_by("-number")
    )


def latest_version(project: Project) -> ArtifactVersion | None:
    return complete_versions(project).first()


def version_by_number(project: Project, number: int) -> ArtifactVersion:
    """Raises ArtifactVersion.DoesNotExist."""
    return complete_versions(project).get(number=number)
