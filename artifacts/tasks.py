"""Celery tasks of the artifacts app: parse the ids, call the service, report the result."""

from __future__ import annotations

from celery import shared_task

from artifacts.models import ArtifactVersion
from artifacts.services import generate_prd, parse_as_of
from kg.models import Project


@shared_task(
    name="artifacts.generate_prd",
    bind=True,
    autoretry_for=(ConnectionError, TimeoutError),
    retry_backoff=True,
    max_retries=3,
)
def generate_prd_task(
    self, project_id: int, as_of_iso: str | None = None, version_id: int | None = None
) -> dict:
    """Generate (or reuse) a project's PRD; progress is stored on the run's stage field.

    Safe to retry: a run that already completed returns its version again.
    """
    project = Project.objects.select_related("organization").get(pk=project_id)
    run = ArtifactVersion.objects.get(pk=version_id) if version_id else None
    version = generate_prd(project, parse_as_of(as_of_iso), version=run)
    return {
        "version_id": version.pk,
        "number": version.number,
        "run_id": run.pk if run else version.pk,
        "reused": run is not None and run.pk != version.pk,
    }
