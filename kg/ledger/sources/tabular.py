"""CSV and TSV: survey and feedback exports. The user names the text column(s) and, if
the file has them, the author and date columns; each row becomes an episode that keeps its
row number (as a spreadsheet shows it: the header is row 1)."""

from __future__ import annotations

import csv
import datetime as dt
import io

from kg.ledger.episodes import (
    EpisodeInput,
    EpisodeRejected,
    check_valid_at,
    validate_episode_input,
)
from kg.ledger.sources.base import MAX_ROWS, ImportOptions, SourceError, SourceRead, clipped
from kg.models import EpisodeKind

_DATE_FORMATS = ("%m/%d/%Y %H:%M:%S", "%m/%d/%Y %H:%M", "%m/%d/%Y", "%d.%m.%Y %H:%M", "%d.%m.%Y")
csv.field_size_limit(2_000_000)  # one answer may be long; the episode limit still applies


def read_csv(name: str, raw: bytes, options: ImportOptions) -> SourceRead:
    return read_table(name, raw, options, delimiter=None)


def read_tsv(name: str, raw: bytes, options: ImportOptions) -> SourceRead:
    return read_table(name, raw, options, delimiter="\t")


def table_columns(name: str, raw: bytes, delimiter: str | None = None) -> list[str]:
    """The header of a table file, for the form's column pickers."""
    text = _decode(name, raw)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter or _sniff(text))
    return [c.strip() for c in next(reader, [])]


def read_table(name: str, raw: bytes, options: ImportOptions, delimiter: str | None) -> SourceRead:
    text = _decode(name, raw)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter or _sniff(text))
    try:
        header = [c.strip() for c in next(reader, [])]
    except csv.Error as exc:
        raise SourceError(f"{name}: the header row cannot be read ({exc})") from None
    if not any(header):
        raise SourceError(f"{name} has no header row: the first row must name the columns")
    text_at = [_column(name, header, c, "text") for c in options.text_columns]
    if not text_at:
        if len(header) != 1:
            raise SourceError(
                f"{name} has {len(header)} columns ({_listed(header)}): choose the text "
                "column(s) that hold what people said"
            )
        text_at = [0]
    author_at = (
        _column(name, header, options.author_column, "author") if options.author_column else None
    )
    date_at = _column(name, header, options.date_column, "date") if options.date_column else None
    labelled = len(text_at) > 1
    read = SourceRead(unit="row")
    for index, cells in enumerate(_rows(name, reader), start=2):
        read.units += 1
        if read.units > MAX_ROWS:
            raise SourceError(f"{name} has more than {MAX_ROWS:,} rows; split the file")
        if not any(c.strip() for c in cells):
            continue  # a blank line is not a row anyone wrote
        parts = []
        for at in text_at:
            value = cells[at].strip() if at < len(cells) else ""
            if value:
                parts.append(f"{header[at]}: {value}" if labelled else value)
        if not parts:
            columns = ", ".join(header[at] for at in text_at)
            read.skipped.append(f"row {index}: no text in {columns}")
            continue
        moment = None
        unread_date = date_problem = ""
        if date_at is not None:
            value = cells[date_at].strip() if date_at < len(cells) else ""
            moment = _parse_date(value)
            if value and moment is None:
                date_problem = (
                    "is not a date (use ISO-8601, e.g. 2024-03-05 or 2024-03-05T14:30:00Z)"
                )
            elif moment is not None:
                try:
                    check_valid_at(moment)
                except EpisodeRejected as exc:
                    moment, date_problem = None, f"is refused: {exc}"
            # What the person said is kept; only the date is lost, and the report says so.
            unread_date = clipped(value, 40) if date_problem else ""
        author = (
            cells[author_at].strip() if author_at is not None and author_at < len(cells) else ""
        )
        item = EpisodeInput(
            content="\n".join(parts),
            kind=EpisodeKind.IMPORT,
            author=author[:200],
            valid_at=moment,
            source_ref={
                "file": name,
                "format": "tsv" if delimiter == "\t" else "csv",
                "row": index,
                "columns": [header[at] for at in text_at],
            }
            | ({"unread_date": unread_date} if unread_date else {}),
        )
        try:
            validate_episode_input(item)
        except EpisodeRejected as exc:
            read.skipped.append(f"row {index}: {exc}")
            continue
        read.items.append(item)
        if date_problem:
            read.warnings.append(
                f"row {index}: {unread_date!r} in {header[date_at]} {date_problem}; "
                "recorded without a date (dated when imported)"
            )
    return read


def _rows(name: str, reader):
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:  # a broken quote: the rest of the file cannot be trusted
            raise SourceError(f"{name}, line {reader.line_num}: {exc}") from None
        yield row


def _decode(name: str, raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise SourceError(
            f"{name} is not valid UTF-8 (first bad byte on line {line}); export it as "
            "CSV UTF-8 and try again"
        ) from None


def _sniff(text: str) -> str:
    """Comma, or semicolon for spreadsheets set to a decimal comma."""
    first = text.split("\n", 1)[0]
    return ";" if first.count(";") > first.count(",") else ","


def _column(name: str, header: list[str], wanted: str, role: str) -> int:
    wanted = wanted.strip()
    for exact in (True, False):
        for at, column in enumerate(header):
            if column == wanted if exact else column.casefold() == wanted.casefold():
                return at
    raise SourceError(
        f"{name} has no column {wanted!r} (asked for as the {role} column); "
        f"its columns: {_listed(header)}"
    )


def _listed(header: list[str]) -> str:
    shown = ", ".join(repr(c) for c in header[:12])
    return shown + (f" and {len(header) - 12} more" if len(header) > 12 else "")


def _parse_date(value: str) -> dt.datetime | None:
    if not value:
        return None
    try:
        moment = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        moment = None
        for pattern in _DATE_FORMATS:
            try:
                moment = dt.datetime.strptime(value, pattern)  # noqa: DTZ007 — made UTC below
                break
            except ValueError:
                continue
    if moment is None:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)
