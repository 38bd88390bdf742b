"""Reading notes, uploaded or given to kg_ingest alike: JSONL ({"author","at","text"} per
line), or plain text and Markdown in paragraph chunks under their headings.

Bad lines are reported by line number and skipped; the good lines are still ingested.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from kg.ledger.episodes import (
    Duplicate,
    EpisodeInput,
    EpisodeRejected,
    check_valid_at,
    record_new_episodes,
    validate_episode_input,
)
from kg.ledger.sources.base import UnreadableFile, as_records
from kg.models import EpisodeKind, Project


@dataclass
class ParsedFile:
    items: list[EpisodeInput] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


_CYRILLIC = re.compile(r"[а-яА-ЯёЁ]")
_LATIN = re.compile(r"[a-zA-Z]")


def detect_language(text: str) -> str:
    return "ru" if len(_CYRILLIC.findall(text)) > len(_LATIN.findall(text)) else "en"


def _parse_time(value: object, line_number: int) -> dt.datetime | None:
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise ValueError(f"line {line_number}: 'at' must be an ISO-8601 string")
    try:
        moment = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"line {line_number}: 'at' is not ISO-8601: {value!r}") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    try:
        check_valid_at(moment)
    except EpisodeRejected as exc:
        raise ValueError(f"line {line_number}: 'at' {value!r} is refused: {exc}") from None
    return moment


def read_ingest_file(path: Path, *, strict_utf8: bool = False) -> ParsedFile:
    """kg_ingest's reading of notes, as an upload reads them (read_uploaded_notes): JSONL
    records, or text and Markdown in paragraph chunks under their headings.

    Without the upload's size limit: the command reads a file on the machine it runs on, and
    large notes become as many chunks as they need. A line that is not valid UTF-8 is reported
    and skipped; with `strict_utf8` the whole file is refused instead."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UnreadableFile(f"cannot read {path}: {exc.strerror}") from None
    return read_uploaded_notes(path.name, raw, limit=None, strict_utf8=strict_utf8)


MAX_UPLOAD_BYTES = 5 * 1024 * 1024
CHUNK_CHARS = 4000  # a chunk is a few paragraphs: small enough to quote, large enough to read
STATEMENT_HEADING_WORDS = (
    4  # "Survey" names a section; "Users did not get a receipt" says something
)
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$")


def read_uploaded_notes(
    name: str, raw: bytes, *, limit: int | None = MAX_UPLOAD_BYTES, strict_utf8: bool = False
) -> ParsedFile:
    """Notes uploaded in the web chat or the API (up to `limit` bytes), or given to kg_ingest.

    JSONL is read like kg_ingest reads it (one record per line). Text and Markdown become
    file chunks of whole paragraphs, each remembering the file, its part number and the
    Markdown headings above it (its section path), so a citation can say where in the file
    the words are. A heading with no text under it is no chunk of its own.
    """
    if limit is not None and len(raw) > limit:
        raise UnreadableFile(
            f"{name} has {len(raw):,} bytes; the limit is {limit:,} (split the file)"
        )
    lines, errors = decode_lines(raw, name, strict_utf8=strict_utf8)
    if _is_jsonl(name):
        return _jsonl_items(lines, errors, name)
    chunks: list[tuple[int, list[str], str]] = []  # (first line, heading path, text)
    path: list[tuple[int, str]] = []  # (level, heading) above the current line
    buffer: list[str] = []
    first_line, body = 0, False  # body: the buffer holds more than its heading

    def cut() -> None:
        # A heading with no text under it is no chunk: it names the section of what follows.
        if body:
            chunks.append((first_line, [t for _lv, t in path], "\n".join(buffer).strip()))
        buffer.clear()

    for number, line in lines:
        heading = _HEADING.match(line)
        if heading:
            cut()
            body = False
            level, section = len(heading.group(1)), heading.group(2)
            path = [(lv, t) for lv, t in path if lv < level] + [(level, section)]
            if len(section.split()) >= STATEMENT_HEADING_WORDS:
                # a heading that states a finding is part of what the notes say: quotable
                buffer.append(section)
                first_line = number
            continue
        if not buffer:
            first_line = number
        buffer.append(line)
        body = body or bool(line.strip())
        if not line.strip() and sum(len(b) for b in buffer) >= CHUNK_CHARS:
            cut()
            body = False
    cut()
    pieces = [
        (line, names, piece)
        for line, names, content in chunks
        for piece in split_at_sentences(content, CHUNK_CHARS)
    ]
    parsed = ParsedFile(errors=errors)
    for part, (line, names, content) in enumerate([c for c in pieces if c[2]], start=1):
        ref = {
            "file": name,
            "part": part,
            "line": line,
            "section": names[-1] if names else "",
            "section_path": names,
        }
        _keep(
            parsed, line, EpisodeInput(content=content, kind=EpisodeKind.FILE_CHUNK, source_ref=ref)
        )
    return _in_line_order(parsed)


# Files that are not text, by their first bytes (documents and exports go to kg.ledger.sources).
_BINARY_SIGNATURES = {
    b"\x89PNG\r\n\x1a\n": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
    b"GIF8": "a GIF image",
    b"%PDF-": "a PDF",
    b"PK\x03\x04": "a zip archive",
    b"\xff\xfe": "UTF-16 text",
    b"\xfe\xff": "UTF-16 text",
}
_UTF8_BOM = b"\xef\xbb\xbf"


def decode_lines(
    raw: bytes, name: str, *, strict_utf8: bool = False
) -> tuple[list[tuple[int, str]], list[str]]:
    """The file's lines with their numbers, and the lines that are not UTF-8, reported.

    Lines end at "\n" (and a "\r" before it) only: U+2028 or U+0085 inside a record are
    characters of that record, and the numbers stay those an editor shows. A line with an
    invalid byte is skipped with its number and the others are kept; `strict_utf8` refuses
    the whole file at the first such line instead.
    """
    for signature, kind in _BINARY_SIGNATURES.items():
        if raw.startswith(signature):
            raise UnreadableFile(
                f"{name} is not a text file (it is {kind}); save the notes as UTF-8 text"
            )
    if b"\x00" in raw[:8192]:
        raise UnreadableFile(
            f"{name} is not a text file (it has NUL bytes); save the notes as UTF-8 text"
        )
    if raw.startswith(_UTF8_BOM):
        raw = raw[len(_UTF8_BOM) :]
    lines: list[tuple[int, str]] = []
    errors: list[str] = []
    bad_lines: list[int] = []
    for number, line in enumerate(raw.split(b"\n"), start=1):
        line = line.removesuffix(b"\r")
        try:
            lines.append((number, line.decode("utf-8")))
        except UnicodeDecodeError as exc:
            where = f"byte 0x{line[exc.start]:02x} at column {exc.start + 1}"
            if strict_utf8:
                raise UnreadableFile(
                    f"{name} is not valid UTF-8 (line {number}, {where}); refused whole as "
                    "asked by --strict-utf8 (without it the valid lines are kept)"
                ) from None
            errors.append(f"line {number}: not valid UTF-8 ({where}); save the file as UTF-8")
            bad_lines.append(number)
    if bad_lines and not any(text.strip() for _, text in lines):
        raise UnreadableFile(
            f"{name} is not valid UTF-8 (first bad byte on line {bad_lines[0]}, no valid line); "
            "save it as UTF-8 and try again"
        )
    return lines, errors


JSONL_SUFFIXES = frozenset({".jsonl", ".ndjson"})
_SENTENCE_END = re.compile(r"(?<=[.!?…。])[\"'”»)\]]*\s+")


def _is_jsonl(name: str) -> bool:
    # The extension decides: a Markdown file may well begin with "{".
    return Path(name).suffix.lower() in JSONL_SUFFIXES


def split_at_sentences(text: str, limit: int) -> list[str]:
    """Text of at most `limit` characters as it is; longer text (notes without blank lines)
    in pieces of whole sentences under the limit. A sentence longer than the limit is cut at
    the last space before it, and only a run without any space at the limit itself."""
    if len(text) <= limit:
        return [text]
    sentences: list[str] = []
    cursor = 0
    for match in _SENTENCE_END.finditer(text):
        sentences.append(text[cursor : match.end()])
        cursor = match.end()
    sentences.append(text[cursor:])
    pieces: list[str] = []
    current = ""
    for sentence in sentences:
        while len(sentence) > limit:
            cut = sentence.rfind(" ", 0, limit)
            cut = cut if cut > 0 else limit
            if current:
                pieces.append(current)
                current = ""
            pieces.append(sentence[:cut])
            sentence = sentence[cut:].lstrip()
        if len(current) + len(sentence) > limit:
            pieces.append(current)
            current = ""
        current += sentence
    if current:
        pieces.append(current)
    return [p.strip() for p in pieces if p.strip()]


def _jsonl_items(lines: list[tuple[int, str]], errors: list[str], name: str) -> ParsedFile:
    parsed = ParsedFile(errors=list(errors))
    for number, line in lines:
        if not line.strip():
            continue
        try:
            item = _jsonl_item(line, number, name)
        except ValueError as exc:  # reported by line number; the other lines go on
            parsed.errors.append(str(exc))
            continue
        _keep(parsed, number, item)
    return _in_line_order(parsed)


_LINE_OF = re.compile(r"line (\d+):")


def _line_number(error: str) -> int:
    found = _LINE_OF.match(error)
    return int(found.group(1)) if found else 0


def _in_line_order(parsed: ParsedFile) -> ParsedFile:
    """Errors as a reader meets them: undecodable lines among the others, by line number."""
    parsed.errors.sort(key=_line_number)
    return parsed


def _keep(parsed: ParsedFile, number: int, item: EpisodeInput) -> None:
    """Keep an input that can become an episode; report the others by line number."""
    try:
        validate_episode_input(item)
    except EpisodeRejected as exc:
        parsed.errors.append(f"line {number}: {exc}")
        return
    parsed.items.append(item)


def _jsonl_item(line: str, number: int, file_name: str) -> EpisodeInput:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"line {number}: not valid JSON ({exc.msg})") from None
    if not isinstance(record, dict):
        raise ValueError(f"line {number}: expected an object with author, at, text")
    text = record.get("text")
    if not isinstance(text, str):
        raise ValueError(f"line {number}: 'text' is missing or not a string")
    return EpisodeInput(
        content=text,
        kind=EpisodeKind.IMPORT,
        author=str(record.get("author") or "")[:200],
        valid_at=_parse_time(record.get("at"), number),
        source_ref={"file": file_name, "line": number},
    )


@dataclass
class UploadReport:
    episodes: list = field(default_factory=list)  # kg.models.Episode, in file order
    errors: list[str] = field(default_factory=list)
    duplicates: list[Duplicate] = field(default_factory=list)  # content already recorded
    warnings: list[str] = field(default_factory=list)  # as a document's report has them


def record_uploaded_notes(project, name: str, raw: bytes, author: str, options=None):
    """Uploaded notes become episodes (one per chunk or record), queued for the pipeline.

    Documents and exports (PDF, DOCX, HTML, CSV/TSV, Slack zip; format by extension unless
    `options.format` names it) go to kg.ledger.sources, whose report has the same episodes/errors.
    """
    from kg.ledger.sources import source_format
    from kg.ledger.sources.recording import record_source

    if source_format(name, getattr(options, "format", "")):
        return record_source(project, name, raw, author=author, options=options)
    parsed = read_uploaded_notes(name, raw)
    return record_notes(project, name, parsed, author, records=getattr(options, "records", ""))


def check_readable(name: str, parsed: ParsedFile) -> None:
    """Nothing to record is a refusal with the reasons, not a success that recorded nothing."""
    if not parsed.items and not parsed.errors:
        raise UnreadableFile(f"{name} holds no text")
    if not parsed.items:
        shown = "; ".join(parsed.errors[:3])
        more = f" (and {len(parsed.errors) - 3} more)" if len(parsed.errors) > 3 else ""
        raise UnreadableFile(f"nothing in {name} could be read: {shown}{more}")


def record_notes(
    project: Project,
    name: str,
    parsed: ParsedFile,
    author: str = "",
    *,
    records: str = "",
    enqueue: bool = True,
) -> UploadReport:
    """Read notes become episodes, all new chunks or records of the file or none; content
    already recorded is reported, not recorded again. With `enqueue`, queued for the pipeline
    once committed: one task per run of imported messages (kg.ledger.episodes.queue_ingest)."""
    check_readable(name, parsed)
    episodes, duplicates = record_new_episodes(
        project, as_records(parsed.items, records), author, enqueue=enqueue
    )
    return UploadReport(episodes=episodes, errors=parsed.errors, duplicates=duplicates)
