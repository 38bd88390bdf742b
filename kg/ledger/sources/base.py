"""What every reader of research files shares: options, results, limits and the error."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from kg.ledger.episodes import EpisodeInput
from kg.models import RecordKind

# Limits per file, stated in the upload form and the command's help.
MAX_SOURCE_BYTES = 25 * 1024 * 1024
MAX_PAGES = 1000  # PDF pages
MAX_ROWS = 20_000  # CSV/TSV rows
MAX_MESSAGES = 20_000  # Slack messages in one export
CHUNK_CHARS = 4000  # as for uploaded notes: a few paragraphs, small enough to quote


class UnreadableFile(ValueError):
    """A file that cannot be read; the message says why."""


class SourceError(UnreadableFile):
    """The file cannot be imported; the message says why and nothing of it was recorded."""


@dataclass(frozen=True)
class ImportOptions:
    """How to read a file: its format when the extension does not say it, for tables which
    columns hold the text, the author and the date, and what its records are (RecordKind)."""

    format: str = ""
    text_columns: tuple[str, ...] = ()
    author_column: str = ""
    date_column: str = ""
    records: str = ""

    def __post_init__(self) -> None:
        if self.records and self.records not in RecordKind.values:
            raise SourceError(
                f"unknown kind of records {self.records!r}; choose one of "
                f"{', '.join(RecordKind.values)} or leave it empty"
            )


def as_records(items: list[EpisodeInput], records: str) -> list[EpisodeInput]:
    """The items with what their file's records are kept in their source reference."""
    if not records:
        return items
    return [replace(i, source_ref={**(i.source_ref or {}), "records": records}) for i in items]


@dataclass
class SourceRead:
    """A file read into episode inputs, each with its source reference, in file order."""

    items: list[EpisodeInput] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # "page 4: no text layer", "row 9: …"
    # Recorded, with a problem the report states: "row 6: 'soon' in submitted is not a date…"
    warnings: list[str] = field(default_factory=list)
    units: int = 0  # pages, rows or messages read
    unit: str = "part"  # what a unit is called in the report


def clipped(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
