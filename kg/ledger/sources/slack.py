"""Slack workspace export: users.json and one folder per channel of daily JSON files.

One episode per message, with its author and time; a thread's replies follow their first
message, so a thread reads as one conversation; joins, leaves, topic changes and bots are
skipped and counted in the report.
"""

from __future__ import annotations

import datetime as dt
import html
import io
import json
import re
import zipfile
from collections import Counter
from pathlib import Path, PurePosixPath

from kg.ledger.episodes import EpisodeInput, EpisodeRejected, validate_episode_input
from kg.ledger.sources.base import (
    MAX_MESSAGES,
    MAX_SOURCE_BYTES,
    ImportOptions,
    SourceError,
    SourceRead,
)
from kg.models import EpisodeKind

MAX_UNZIPPED_BYTES = 4 * MAX_SOURCE_BYTES  # JSON packs well; a zip bomb does not get far
_DAY_FILE = re.compile(r"^\d{4}-\d{2}-\d{2}\.json$")
_SKIPPED_SUBTYPES = {
    "channel_join": "joins and leaves",
    "channel_leave": "joins and leaves",
    "group_join": "joins and leaves",
    "group_leave": "joins and leaves",
    "channel_topic": "topic, purpose and name changes",
    "channel_purpose": "topic, purpose and name changes",
    "channel_name": "topic, purpose and name changes",
    "group_topic": "topic, purpose and name changes",
    "group_purpose": "topic, purpose and name changes",
    "group_name": "topic, purpose and name changes",
    "channel_archive": "archive notices",
    "channel_unarchive": "archive notices",
    "pinned_item": "pins",
    "unpinned_item": "pins",
    "bot_message": "bot messages",
    "bot_add": "bot messages",
    "bot_remove": "bot messages",
    "reminder_add": "bot messages",
    "tombstone": "deleted messages",
}
# What one of each is called, for "1 bot message" beside "3 bot messages".
_ONE = {
    "joins and leaves": "join or leave",
    "topic, purpose and name changes": "topic, purpose or name change",
    "archive notices": "archive notice",
    "pins": "pin",
    "bot messages": "bot message",
    "deleted messages": "deleted message",
    "messages without a time": "message without a time",
    "messages without text (files or reactions only)": "message without text (files or "
    "reactions only)",
}
_MENTION = re.compile(r"<@([A-Z0-9]+)(?:\|[^>]*)?>")
_CHANNEL = re.compile(r"<#[A-Z0-9]+\|([^>]*)>")
_LINK = re.compile(r"<((?:https?|mailto):[^|>]+)(?:\|([^>]*))?>")
_SPECIAL = re.compile(r"<!(here|channel|everyone)[^>]*>")


def read_slack(name: str, raw: bytes, options: ImportOptions) -> SourceRead:
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
        unpacked = sum(i.file_size for i in archive.infolist() if i.filename.endswith(".json"))
        if unpacked > MAX_UNZIPPED_BYTES:
            raise SourceError(
                f"{name} unpacks to {unpacked:,} bytes of JSON; the limit is "
                f"{MAX_UNZIPPED_BYTES:,} (export fewer channels or a shorter period)"
            )
        files = {
            info.filename: archive.read(info)
            for info in archive.infolist()
            if info.filename.endswith(".json") and not info.is_dir()
        }
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, RuntimeError, EOFError) as exc:
        raise SourceError(f"{name} is not a readable zip file ({exc})") from None
    return read_export(name, files)


def read_slack_directory(path: Path) -> SourceRead:
    """An export already unzipped: the folder that holds users.json."""
    files, total = {}, 0
    for file in sorted(path.rglob("*.json")):
        total += file.stat().st_size
        if total > MAX_UNZIPPED_BYTES:
            raise SourceError(
                f"{path.name} holds more than {MAX_UNZIPPED_BYTES // 2**20} MB of JSON; "
                "export fewer channels or a shorter period"
            )
        files[file.relative_to(path).as_posix()] = file.read_bytes()
    return read_export(path.name, files)


def read_export(name: str, files: dict[str, bytes]) -> SourceRead:
    users_path = min(
        (p for p in files if PurePosixPath(p).name == "users.json"), key=len, default=None
    )
    if users_path is None:
        raise SourceError(
            f"{name} is not a Slack workspace export: users.json is missing (it names the "
            "authors); export the workspace again and upload the whole zip"
        )
    root = PurePosixPath(users_path).parent
    users = _users(name, _json(name, users_path, files[users_path]))
    by_channel: dict[str, list[tuple[str, dict]]] = {}
    for path in sorted(files):
        pure = PurePosixPath(path)
        if pure.parent.parent != root or not _DAY_FILE.match(pure.name):
            continue
        day = _json(name, path, files[path])
        if not isinstance(day, list):
            raise SourceError(f"{name}: {path} is not a list of messages")
        by_channel.setdefault(pure.parent.name, []).extend(
            (path, m) for m in day if isinstance(m, dict)
        )
    if not by_channel:
        raise SourceError(f"{name} holds no channel folders with messages")
    read = SourceRead(unit="message")
    skipped: Counter[str] = Counter()
    for channel in sorted(by_channel):
        messages = by_channel[channel]
        read.units += len(messages)
        if read.units > MAX_MESSAGES:
            raise SourceError(
                f"{name} has more than {MAX_MESSAGES:,} messages; export fewer channels "
                "or a shorter period"
            )
        threaded = {str(m.get("thread_ts")) for _p, m in messages if m.get("thread_ts")}
        # a thread's replies right after its first message, threads in order of their start
        for _path, message in sorted(messages, key=_thread_order):
            reason = _skip_reason(message, users)
            if reason:
                skipped[reason] += 1
                continue
            ts = str(message.get("ts", ""))
            moment = _moment(ts)
            if moment is None:
                skipped["messages without a time"] += 1
                continue
            thread = str(message.get("thread_ts") or (ts if ts in threaded else ""))
            ref = {"file": name, "format": "slack", "channel": channel, "ts": ts}
            if thread:
                ref["thread"] = thread
            item = EpisodeInput(
                content=_plain(str(message.get("text") or ""), users),
                kind=EpisodeKind.IMPORT,
                author=_author(message, users)[:200],
                valid_at=moment,
                source_ref=ref,
            )
            try:
                validate_episode_input(item)
            except EpisodeRejected:
                skipped["messages without text (files or reactions only)"] += 1
                continue
            read.items.append(item)
    read.skipped.extend(_counted(reason, count) for reason, count in sorted(skipped.items()))
    return read


def _counted(reason: str, count: int) -> str:
    """A skipped kind with its count, as a reason the reports list: "3 bot messages"."""
    return f"{count:,} {_ONE.get(reason, reason) if count == 1 else reason}"


def _json(name: str, path: str, raw: bytes) -> object:
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SourceError(f"{name}: {path} is not valid JSON ({exc})") from None


def _users(name: str, data: object) -> dict[str, dict]:
    if not isinstance(data, list):
        raise SourceError(f"{name}: users.json is not a list of users")
    return {str(u.get("id")): u for u in data if isinstance(u, dict) and u.get("id")}


def _thread_order(entry: tuple[str, dict]) -> tuple[float, int, float]:
    message = entry[1]
    ts = _float(message.get("ts"))
    root = _float(message.get("thread_ts")) if message.get("thread_ts") else ts
    return (root, 0 if root == ts else 1, ts)


def _float(value: object) -> float:
    try:
        return float(str(value))
    except ValueError:
        return 0.0


def _skip_reason(message: dict, users: dict[str, dict]) -> str:
    subtype = str(message.get("subtype") or "")
    if subtype in _SKIPPED_SUBTYPES:
        return _SKIPPED_SUBTYPES[subtype]
    user = users.get(str(message.get("user", "")), {})
    if message.get("bot_id") or user.get("is_bot") or message.get("user") == "USLACKBOT":
        return "bot messages"
    return ""


def _moment(ts: str) -> dt.datetime | None:
    try:
        return dt.datetime.fromtimestamp(float(ts), tz=dt.UTC)
    except (ValueError, OverflowError, OSError):
        return None


def _display_name(user: dict) -> str:
    profile = user.get("profile") or {}
    for value in (
        profile.get("real_name"),
        user.get("real_name"),
        profile.get("display_name"),
        user.get("name"),
    ):
        if value and str(value).strip():
            return str(value).strip()
    return ""


def _author(message: dict, users: dict[str, dict]) -> str:
    user = users.get(str(message.get("user", "")))
    if user:
        return _display_name(user) or str(message.get("user"))
    profile = message.get("user_profile") or {}
    return str(profile.get("real_name") or profile.get("name") or message.get("user") or "")


def _plain(text: str, users: dict[str, dict]) -> str:
    """Slack's markup as people read it: mentions by name, links by their words."""

    def mention(match: re.Match) -> str:
        user = users.get(match.group(1))
        return "@" + (_display_name(user) if user else match.group(1))

    text = _MENTION.sub(mention, text)
    text = _CHANNEL.sub(lambda m: "#" + m.group(1), text)
    text = _LINK.sub(lambda m: m.group(2) or m.group(1), text)
    text = _SPECIAL.sub(lambda m: "@" + m.group(1), text)
    return html.unescape(text).strip()
