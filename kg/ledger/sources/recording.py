"""A read file becomes episodes: all of its chunks or none, with a report of what was made
and what was skipped and why."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from kg.ledger.episodes import Duplicate, record_new_episodes
from kg.ledger.sources import ImportOptions, SourceError, SourceRead, read_source, source_format
from kg.models import Episode, Project
from kg.pipeline.ingest import ingest_recorded_episodes

Progress = Callable[[int, int], None]


@dataclass
class ImportReport:
    """What one file gave: its episodes in file order, and what was skipped with the reason."""

    file: str
    format: str
    units: int = 0
    unit: str = "part"
    episodes: list[Episode] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # recorded, with a problem stated
    duplicates: list[Duplicate] = field(default_factory=list)  # content already recorded

    @property
    def errors(self) -> list[str]:  # the name kg.ledger.importing's reports use for skipped lines
        return self.skipped

    def summary(self) -> str:
        made = len(self.episodes)
        text = (
            f"{self.file}: {made:,} episode{'' if made == 1 else 's'} from "
            f"{self.units:,} {self.unit}{'' if self.units == 1 else 's'}"
        )
        if self.duplicates:
            text += f"; {len(self.duplicates):,} already recorded (duplicates)"
        if self.warnings:
            text += f"; {len(self.warnings):,} with a warning"
        return text + (f"; {len(self.skipped):,} skipped" if self.skipped else "")


def record_read(
    project: Project,
    name: str,
    read: SourceRead,
    *,
    fmt: str,
    author: str = "",
    enqueue: bool = True,
    progress: Progress | None = None,
) -> ImportReport:
    """Record a read file's episodes in one transaction, written in bulk; with `enqueue` they
    are handed to the pipeline's batch path once committed (several per model call). A file
    with nothing to record is refused with the reasons."""
    if not read.items:
        shown = "; ".join(read.skipped[:3])
        more = f" (and {len(read.skipped) - 3} more)" if len(read.skipped) > 3 else ""
        raise SourceError(
            f"nothing in {name} could be read" + (f": {shown}{more}" if shown else "")
        )
    report = ImportReport(file=name, format=fmt, units=read.units, unit=read.unit)
    report.skipped = list(read.skipped)
    report.warnings = list(read.warnings)
    total = len(read.items)
    # Content the project already holds (the same export imported again) is reported as a
    # duplicate of the earlier message and adds no corroboration.
    report.episodes, report.duplicates = record_new_episodes(
        project,
        read.items,
        author,
        enqueue=False,
        progress=None if progress is None else (lambda done: progress(done, total)),
    )
    if enqueue:
        ingest_recorded_episodes(report.episodes)  # queued when the recording commits
    return report


def record_source(
    project: Project,
    name: str,
    raw: bytes,
    *,
    author: str = "",
    options: ImportOptions | None = None,
    enqueue: bool = True,
    progress: Progress | None = None,
) -> ImportReport:
    """The product's and the API's entry point for a document or export."""
    options = options or ImportOptions()
    read = read_source(name, raw, options)
    fmt = source_format(name, options.format) or ""
    return record_read(
        project, name, read, fmt=fmt, author=author, enqueue=enqueue, progress=progress
    )
