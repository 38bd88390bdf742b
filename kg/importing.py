"""Reading files for kg_ingest: JSONL ({"author","at","text"} per line) or plain text.

Bad lines are reported by line number and skipped; the good lines are still ingested.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from kg.episodes import EpisodeInput, EpisodeRejected, validate_episode_input
from kg.models import EpisodeKind


@dataclass
class ParsedFile:
    items: list[EpisodeInput] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


class UnreadableFile(ValueError):
    pass


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
    return moment


def read_ingest_file(path: Path) -> ParsedFile:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UnreadableFile(f"cannot read {path}: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise UnreadableFile(
            f"{path.name} is not valid UTF-8 (first bad byte on line {line}); "
            "save it as UTF-8 and try again"
        ) from None
    is_jsonl = path.suffix.lower() in {".jsonl", ".ndjson"} or text.lstrip().startswith("{")
    parsed = ParsedFile()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = (
                _jsonl_item(line, number, path.name)
                if is_jsonl
                else EpisodeInput(
                    content=line,
                    kind=EpisodeKind.IMPORT,
                    source_ref={"file": path.name, "line": number},
                )
            )
            validate_episode_input(item)
        except (ValueError, EpisodeRejected) as exc:
            message = str(exc)
            parsed.errors.append(
                message if message.startswith("line ") else f"line {number}: {message}"
            )
            continue
        parsed.items.append(item)
    return parsed


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
