"""What every reader of research files shares: options, results, limits and the error."""

from __future__ import annotations

from dataclasses import dataclass, field

from kg.ledger.episodes import EpisodeInput

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
    """How to read a file: its format when the extension does not say it, and for tables
    which columns hold the text, the author and the date."""

    format: str = ""
    text_columns: tuple[str, ...] = ()
    author_column: str = ""
    date_column: str = ""


@dataclass
class SourceRead:
    """A file read into episode inputs, each with its source reference, in file order."""

    items: list[EpisodeInput] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # "page 4: no text layer", "row 9: …"
    units: int = 0  # pages, rows or messages read
    unit: str = "part"  # what a unit is called in the report


def clipped(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
