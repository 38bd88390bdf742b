"""Where a piece of research came from, said the way a reader checks it.

A source reference is the JSON an episode keeps from its file: {"file", "page"},
{"file", "section_path", "page"}, {"file", "row"}, {"file", "channel", "thread"}, …
`locator` says where inside the file ("§Onboarding, p. 3", "row 212"), short enough for a
citation; `source_label` puts the file in front ("transcript-04.docx, §Onboarding, p. 3").
"""

from __future__ import annotations

import datetime as dt
import re

LOCATOR_CHARS = 50  # a citation keeps at most this much of the locator

_WORDS = {
    "en": {"page": "p.", "row": "row", "thread": "thread", "line": "line"},
    "ru": {"page": "с.", "row": "строка", "thread": "ветка", "line": "строка"},
}


def _slack_time(ts: object) -> str:
    try:
        moment = dt.datetime.fromtimestamp(float(str(ts)), tz=dt.UTC)
    except (TypeError, ValueError, OverflowError, OSError):
        return ""
    return moment.strftime("%Y-%m-%d %H:%M")


def locator(ref: dict | None, *, full_path: bool = False, language: str = "en") -> str:
    """Where in its file a chunk is: the innermost section (the whole path with
    `full_path`), the page, the row, or the Slack channel and thread."""
    ref = ref or {}
    w = _WORDS.get(language, _WORDS["en"])
    parts: list[str] = []
    if ref.get("channel"):
        where = f"#{ref['channel']}"
        if ref.get("thread"):
            where += f", {w['thread']} {_slack_time(ref['thread'])}".rstrip()
        elif ref.get("ts"):
            where += f", {_slack_time(ref['ts'])}".rstrip(", ")
        parts.append(where)
    path = [str(s) for s in ref.get("section_path") or [] if str(s).strip()]
    if not path and ref.get("section"):
        path = [str(ref["section"])]
    if path:
        parts.append("§" + (" › ".join(path) if full_path else path[-1]))
    if ref.get("page") not in (None, ""):
        parts.append(f"{w['page']} {ref['page']}")
    if ref.get("row") not in (None, ""):
        parts.append(f"{w['row']} {ref['row']}")
    return ", ".join(parts)


def citation_locator(ref: dict | None) -> str:
    """The locator a PRD citation keeps (at most LOCATOR_CHARS): the section is shortened
    first, so the page or row always survives."""
    text = locator(ref)
    if len(text) <= LOCATOR_CHARS:
        return text
    ref = ref or {}
    rest = locator({k: v for k, v in ref.items() if k not in ("section", "section_path")})
    path = [str(s) for s in ref.get("section_path") or []] or [str(ref.get("section") or "")]
    room = LOCATOR_CHARS - len(rest) - len(", §…")
    if room < 1:
        return rest[:LOCATOR_CHARS]
    return f"§{path[-1][:room].rstrip()}…" + (f", {rest}" if rest else "")


def source_label(ref: dict | None, *, full_path: bool = True) -> str:
    """The file and where in it: 'transcript-04.docx, §Interviews › Onboarding, p. 3'."""
    ref = ref or {}
    where = locator(ref, full_path=full_path)
    name = str(ref.get("file") or "")
    if ref.get("part") and not any(ref.get(k) not in (None, "") for k in ("page", "row")):
        # A chunk of notes without pages: "notes.md, §Survey, part 2", not a message number.
        where = ", ".join(p for p in (where, f"part {ref['part']}") if p)
    if not where and name and ref.get("line"):
        where = f"line {ref['line']}"
    return ", ".join(p for p in (name, where) if p)


_LEGACY_PAGE = re.compile(r"^\d+(?:\s*[-–]\s*\d+)?$")


def citation_source(file: str, page: str, language: str = "en") -> str:
    """A citation's file and locator as the PRD prints them. A bare page number (stored by
    older citations) reads 'p. 3'; a locator is translated word by word."""
    w = _WORDS.get(language, _WORDS["en"])
    where = page.strip()
    if where and _LEGACY_PAGE.match(where):
        where = f"{w['page']} {where}"
    elif where and language != "en":
        for key in ("page", "row", "thread"):
            where = re.sub(rf"(?<![\w§]){re.escape(_WORDS['en'][key])}(?= )", w[key], where)
    return ", ".join(p for p in (file.strip(), where) if p)
