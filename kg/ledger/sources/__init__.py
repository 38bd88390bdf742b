"""Research files other than notes — PDF, DOCX, HTML, CSV/TSV and Slack exports — read into
episode inputs that remember where in the file they came from.

The format comes from the file's extension unless the caller names it. Plain text, Markdown
and JSONL stay with kg.ledger.importing, which hands the formats named here to `read_source`.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from pathlib import Path

from kg.ledger.sources.base import (
    MAX_MESSAGES,
    MAX_PAGES,
    MAX_ROWS,
    MAX_SOURCE_BYTES,
    ImportOptions,
    SourceError,
    SourceRead,
    as_records,
)

Reader = Callable[[str, bytes, ImportOptions], SourceRead]

# Each format's reader, imported when first used: the parsers are heavy, and citations
# (kg.ledger.sources.reference) are rendered by processes that never read a file.
READERS: dict[str, str] = {
    "pdf": "kg.ledger.sources.pdf:read_pdf",
    "docx": "kg.ledger.sources.docx:read_docx",
    "html": "kg.ledger.sources.html:read_html",
    "csv": "kg.ledger.sources.tabular:read_csv",
    "tsv": "kg.ledger.sources.tabular:read_tsv",
    "slack": "kg.ledger.sources.slack:read_slack",
}
EXTENSIONS = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".html": "html",
    ".htm": "html",
    ".csv": "csv",
    ".tsv": "tsv",
    ".zip": "slack",
}
# Formats kg.ledger.importing reads itself; naming one of them overrides a document extension.
NOTE_FORMATS = ("text", "markdown", "jsonl")
# Files people will try, with what to do instead.
REFUSED = {
    ".doc": "an old Word file: save it as .docx",
    ".xls": "an Excel workbook: export the sheet as CSV",
    ".xlsx": "an Excel workbook: export the sheet as CSV",
    ".ods": "a spreadsheet: export the sheet as CSV",
    ".pptx": "a presentation: export it as PDF",
    ".rtf": "rich text: save it as .docx",
    ".pages": "a Pages document: export it as .docx or PDF",
}
FORMAT_CHOICES = (*READERS, *NOTE_FORMATS)

__all__ = [
    "EXTENSIONS",
    "FORMAT_CHOICES",
    "MAX_MESSAGES",
    "MAX_PAGES",
    "MAX_ROWS",
    "MAX_SOURCE_BYTES",
    "ImportOptions",
    "SourceError",
    "SourceRead",
    "read_path",
    "read_source",
    "source_format",
]


def source_format(name: str, override: str = "") -> str | None:
    """The reader for a file: the named format, else its extension's; None for notes
    (text, Markdown, JSONL), which kg.ledger.importing reads."""
    override = override.strip().lower()
    if override:
        if override in NOTE_FORMATS:
            return None
        if override not in READERS:
            raise SourceError(
                f"unknown format {override!r}; choose one of {', '.join(FORMAT_CHOICES)}"
            )
        return override
    suffix = Path(name).suffix.lower()
    if suffix in REFUSED:
        raise SourceError(f"{name} is {REFUSED[suffix]}")
    return EXTENSIONS.get(suffix)


def read_source(name: str, raw: bytes, options: ImportOptions | None = None) -> SourceRead:
    """One file's episode inputs and what was skipped, or SourceError saying why not."""
    options = options or ImportOptions()
    if len(raw) > MAX_SOURCE_BYTES:
        raise SourceError(
            f"{name} has {len(raw):,} bytes; the limit is {MAX_SOURCE_BYTES:,} (split the file)"
        )
    fmt = source_format(name, options.format)
    if fmt is None:
        raise SourceError(f"{name}: not a document or export format ({', '.join(READERS)})")
    read = reader(fmt)(name, raw, options)
    read.items = as_records(read.items, options.records)
    return read


def reader(fmt: str) -> Reader:
    module, function = READERS[fmt].split(":")
    return getattr(import_module(module), function)


def read_path(path: Path, options: ImportOptions | None = None) -> SourceRead:
    """kg_ingest's reading of a file, or of a Slack export already unzipped (a folder)."""
    if path.is_dir():
        from kg.ledger.sources.slack import read_slack_directory

        read = read_slack_directory(path)
        read.items = as_records(read.items, (options or ImportOptions()).records)
        return read
    try:
        size = path.stat().st_size
        if size > MAX_SOURCE_BYTES:
            raise SourceError(
                f"{path.name} has {size:,} bytes; the limit is {MAX_SOURCE_BYTES:,} (split it)"
            )
        raw = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror}") from None
    return read_source(path.name, raw, options)
