"""Long imports off the request: a large research file is kept with its options, a worker
reads and records it (kg.tasks.source_import_task), and the page asks how far it got.

Progress is what the ledger and the pipeline say: episodes recorded for the file, and how
many of them the pipeline has finished (done or failed).
"""

from __future__ import annotations

import logging
from dataclasses import asdict

from django.db import transaction

from kg.ledger.episodes import EpisodeRejected
from kg.ledger.sources import MAX_SOURCE_BYTES, ImportOptions, SourceError
from kg.ledger.sources.base import UnreadableFile
from kg.ledger.sources.recording import ImportReport, record_source
from kg.models import EpisodeProcessing, Project, SourceImport, SourceImportStatus
from kg.models.episodes import ProcessingStatus
from kg.task_queue import queue_task

logger = logging.getLogger("groundwork.sources")

# Research files larger than this are recorded by a worker while the page shows progress;
# smaller ones are recorded during the upload and reported at once.
BACKGROUND_BYTES = 256 * 1024
REPORT_REASONS = 20  # skipped items and warnings listed; the counts say how many in all


class SourceImportNotFound(LookupError):
    pass


def report_summary(report) -> dict:
    """A file's report as the page shows it: counts, and the first reasons and duplicates.
    Takes kg.ledger.sources' ImportReport or kg.ledger.importing's UploadReport (notes)."""
    return {
        "file": getattr(report, "file", "")[:200],
        "episodes": len(report.episodes),
        "units": getattr(report, "units", None),
        "unit": getattr(report, "unit", ""),
        "skipped": [str(r)[:200] for r in report.errors[:REPORT_REASONS]],
        "skipped_count": len(report.errors),
        "warnings": [str(w)[:300] for w in report.warnings[:REPORT_REASONS]],
        "warning_count": len(report.warnings),
        "duplicates": [d.message for d in report.duplicates[:REPORT_REASONS]],
        "duplicate_count": len(report.duplicates),
    }


def queue_source_import(
    project: Project,
    name: str,
    raw: bytes,
    *,
    author: str = "",
    options: ImportOptions | None = None,
    user=None,
) -> SourceImport:
    """Keep the file and queue its recording for a worker once the current transaction
    commits. A file over the size limit is refused here, before it is kept."""
    if len(raw) > MAX_SOURCE_BYTES:
        raise SourceError(
            f"{name} has {len(raw):,} bytes; the limit is {MAX_SOURCE_BYTES:,} (split the file)"
        )
    source_import = SourceImport.objects.create(
        project=project,
        file_name=name[:200],
        options=asdict(options or ImportOptions()),
        author=author[:200],
        raw=raw,
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    transaction.on_commit(lambda: _enqueue(source_import.pk))
    return source_import


def _enqueue(import_id: int) -> None:
    queue_task("kg.source_import", [import_id])


def run_source_import(import_id: int) -> str:
    """Read and record a kept file (idempotent: a recorded or refused import is left as it
    is; a run cut short recorded nothing, its transaction undone, and is run again). Its
    episodes go to the pipeline's batch path once committed. Returns the status."""
    with transaction.atomic():
        source_import = SourceImport.objects.select_for_update().get(pk=import_id)
        if source_import.status in (SourceImportStatus.RECORDED, SourceImportStatus.FAILED):
            return source_import.status
        source_import.status = SourceImportStatus.RECORDING
        source_import.save(update_fields=["status", "updated_at"])
    try:
        with transaction.atomic():
            # Locked again for the recording: a second delivery of the task waits here and
            # then finds the import recorded.
            source_import = SourceImport.objects.select_for_update().get(pk=import_id)
            if source_import.status != SourceImportStatus.RECORDING:
                return source_import.status
            report = record_source(
                source_import.project,
                source_import.file_name,
                bytes(source_import.raw),
                author=source_import.author,
                options=_options(source_import.options),
            )
            source_import.episodes.through.objects.bulk_create(
                source_import.episodes.through(sourceimport_id=import_id, episode_id=e.pk)
                for e in report.episodes
            )
            _finish(source_import, SourceImportStatus.RECORDED, report=report)
    except (UnreadableFile, EpisodeRejected) as exc:  # SourceError among them: a bad file
        _finish(SourceImport.objects.get(pk=import_id), SourceImportStatus.FAILED, error=exc)
    except Exception as exc:  # the recording was undone: say so rather than spin forever
        logger.exception("import %s not recorded", import_id)
        reason = f"{exc.__class__.__name__}: {exc}"
        _finish(
            SourceImport.objects.get(pk=import_id),
            SourceImportStatus.FAILED,
            error=RuntimeError(
                f"not recorded ({reason}); nothing of it was added: upload it again"
            ),
        )
    return SourceImport.objects.values_list("status", flat=True).get(pk=import_id)


def _options(stored: dict) -> ImportOptions:
    return ImportOptions(
        format=str(stored.get("format") or ""),
        text_columns=tuple(str(c) for c in stored.get("text_columns") or ()),
        author_column=str(stored.get("author_column") or ""),
        date_column=str(stored.get("date_column") or ""),
        records=str(stored.get("records") or ""),
    )


def _finish(
    source_import: SourceImport,
    status: str,
    *,
    report: ImportReport | None = None,
    error: Exception | None = None,
) -> None:
    source_import.status = status
    source_import.raw = b""  # recorded or refused: the ledger (or the reason) is what stays
    if report is not None:
        source_import.report = report_summary(report)
    if error is not None:
        source_import.error = str(error)[:1000]
    source_import.save(update_fields=["status", "raw", "report", "error", "updated_at"])


def source_import_in(project: Project, import_id: int) -> SourceImport:
    """One of the project's imports (another project's is not found)."""
    found = SourceImport.objects.filter(project=project, pk=import_id).first()
    if found is None:
        raise SourceImportNotFound(f"no import {import_id} in this project")
    return found


def import_progress(source_import: SourceImport) -> dict:
    """How far an import got: its status, episodes recorded and processed by the pipeline,
    and once every recorded episode is processed (or the file was refused) `finished` with
    the per-file report or the reason."""
    recorded = processed = failed = 0
    if source_import.status == SourceImportStatus.RECORDED:
        recorded = int(source_import.report.get("episodes") or 0)
        outcomes = EpisodeProcessing.objects.filter(
            episode__source_imports=source_import,
            status__in=(ProcessingStatus.DONE, ProcessingStatus.FAILED),
        )
        processed = outcomes.count()
        failed = outcomes.filter(status=ProcessingStatus.FAILED).count()
    finished = source_import.status == SourceImportStatus.FAILED or (
        source_import.status == SourceImportStatus.RECORDED and processed >= recorded
    )
    return {
        "id": source_import.pk,
        "file": source_import.file_name,
        "status": source_import.status,
        "recorded": recorded,
        "processed": processed,
        "failed": failed,
        "finished": finished,
        "error": source_import.error,
        "report": (
            source_import.report if source_import.status == SourceImportStatus.RECORDED else None
        ),
    }
