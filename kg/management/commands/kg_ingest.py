"""Ingest a file into a project as episodes, and run the pipeline.

Notes (JSONL records, or text and Markdown in paragraph chunks under their headings) are read
as an upload reads them; documents and exports (PDF, DOCX, HTML, CSV/TSV, a Slack export as a
zip or an unzipped folder) through kg.ledger.sources, by extension unless --format.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from kg.ledger.episodes import EpisodeRejected
from kg.ledger.importing import check_readable, detect_language, read_ingest_file, record_notes
from kg.ledger.sources import (
    FORMAT_CHOICES,
    MAX_MESSAGES,
    MAX_PAGES,
    MAX_ROWS,
    MAX_SOURCE_BYTES,
    ImportOptions,
    read_path,
    source_format,
)
from kg.ledger.sources.base import UnreadableFile
from kg.ledger.sources.recording import record_read
from kg.management.commands._progress import progress_bar
from kg.models import EpisodeProcessing, Organization, RecordKind
from kg.pipeline.ingest import ingest_recorded_episodes
from kg.tenancy import (
    AmbiguousProject,
    ProjectNotFound,
    TenancyRejected,
    find_project,
    get_or_create_project,
)

# Episodes handed to the pipeline at a time with --sync: whole batches (of eight messages for a
# model, of 32 offline).
PIPELINE_SLICE = 64


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


class Command(BaseCommand):
    help = (
        "Create episodes from FILE: JSONL with author/at/text, one message per line, notes "
        "(.txt, .md: paragraph chunks under their headings, as an upload reads them), or a "
        "document or export (.pdf, .docx, .html, .csv, .tsv, a Slack export .zip or folder; "
        f"up to {MAX_SOURCE_BYTES // 2**20} MB, {MAX_PAGES:,} pages, {MAX_ROWS:,} rows, "
        f"{MAX_MESSAGES:,} messages)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--project", required=True)
        parser.add_argument(
            "--org",
            help="organization slug: the project's (a slug is unique within one), or the one "
            "--create makes it in",
        )
        parser.add_argument("--create", action="store_true", help="create org/project if missing")
        parser.add_argument(
            "--name",
            default="",
            help="the product's name, as the research calls it (with --create; by default the "
            "project has none and the product is what the messages name)",
        )
        parser.add_argument("--language", choices=["en", "ru"])
        parser.add_argument("--sync", action="store_true", help="run the pipeline in-process")
        parser.add_argument(
            "--strict-utf8",
            action="store_true",
            help="refuse the whole file if a line is not valid UTF-8 (by default that line is "
            "skipped and reported, the others are kept)",
        )
        parser.add_argument(
            "--format", choices=FORMAT_CHOICES, help="the file's format, if not its extension's"
        )
        parser.add_argument(
            "--text-column",
            action="append",
            default=[],
            dest="text_columns",
            help="CSV/TSV: a column with what people said (repeat for several)",
        )
        parser.add_argument("--author-column", default="", help="CSV/TSV: the author's column")
        parser.add_argument("--date-column", default="", help="CSV/TSV: the date's column")
        parser.add_argument(
            "--records",
            choices=RecordKind.values,
            default="",
            help="what the file's records are: bug_report for an issue tracker's tickets (the "
            "parts they name are where the fault is, not features asked for)",
        )

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
        reading = ImportOptions(
            format=options.get("format") or "",
            text_columns=tuple(options.get("text_columns") or ()),
            author_column=options.get("author_column") or "",
            date_column=options.get("date_column") or "",
            records=options.get("records") or "",
        )
        try:
            fmt = "slack" if file.is_dir() else source_format(file.name, reading.format)
            if fmt:
                parsed = read_path(file, reading)
            else:
                parsed = read_ingest_file(file, strict_utf8=options.get("strict_utf8", False))
                check_readable(file.name, parsed)  # before a project is created for nothing
        except UnreadableFile as exc:
            raise CommandError(str(exc)) from None
        for reason in parsed.skipped if fmt else parsed.errors:
            self.stderr.write(f"skipped {reason}")
        for warning in parsed.warnings if fmt else ():
            self.stderr.write(f"warning: {warning}")
        try:
            # A slug is unique within its organization: with --org, that organization's.
            target = find_project(f"{org}~{project}" if org else project)
        except ProjectNotFound as exc:
            if not create or isinstance(exc, AmbiguousProject):
                raise CommandError(str(exc)) from None
            org_slug = org or project
            if org is None and not Organization.objects.filter(slug=org_slug).exists():
                self.stderr.write(f"no --org given: creating organization {org_slug!r}")
            lang = language or detect_language(" ".join(i.content for i in parsed.items[:50]))
            # Without --name the project's name is its slug, which is an address, not the
            # product's name (kg.tenancy.product_name reads it as none).
            try:
                target = get_or_create_project(org_slug, project, lang, name)
            except TenancyRejected as exc:
                raise CommandError(str(exc)) from None
        if fmt:
            try:
                report = record_read(
                    target,
                    file.name,
                    parsed,
                    fmt=fmt,
                    enqueue=not sync,
                    progress=lambda done, total: progress_bar(done, total, "recording"),
                )
            except UnreadableFile as exc:
                raise CommandError(str(exc)) from None
            self.stdout.write(f"{report.summary()}; recorded in {target.slug}")
            episodes = report.episodes
        else:
            # One commit for the file, its tasks queued when it commits: one per run of
            # imported messages, as for an upload, so the workers batch it as --sync does.
            try:
                notes = record_notes(
                    target, file.name, parsed, records=reading.records, enqueue=not sync
                )
            except (UnreadableFile, EpisodeRejected) as exc:
                raise CommandError(str(exc)) from None
            for duplicate in notes.duplicates:
                self.stderr.write(f"skipped {duplicate.message}")
            already = f", {len(notes.duplicates)} already recorded" if notes.duplicates else ""
            self.stdout.write(
                f"{_count(len(notes.episodes), 'episode')} recorded in {target.slug}"
                f" ({_count(len(parsed.errors), 'line')} skipped{already})"
            )
            episodes = notes.episodes
        if not sync:
            self.stdout.write("the pipeline runs on the Celery workers")
            return
        failed = self._run_pipeline(episodes)
        if failed:
            raise CommandError(
                f"{_count(failed, 'episode')} failed; they are marked failed with the reason"
            )

    def _run_pipeline(self, episodes: list) -> int:
        """The pipeline in this process through its batch path (imported messages several per
        model call), a slice at a time so the bar moves; returns how many failed."""
        failed = 0
        for start in range(0, len(episodes), PIPELINE_SLICE):
            for episode in ingest_recorded_episodes(
                episodes[start : start + PIPELINE_SLICE], sync=True
            ):
                failed += 1
                reason = (
                    EpisodeProcessing.objects.filter(episode=episode)
                    .values_list("error", flat=True)
                    .first()
                )
                self.stderr.write(f"\nepisode #{episode.number} failed: {reason}")
            progress_bar(min(start + PIPELINE_SLICE, len(episodes)), len(episodes), "pipeline")
        return failed
