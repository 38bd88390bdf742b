"""Recording episodes: the one way anything enters the ledger."""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from kg.models import Episode, EpisodeKind, EpisodeProcessing, Project
from kg.models.episodes import content_sha256

MAX_EPISODE_CHARS = 2_000_000  # about 2 MB of text in one episode (imports, file chunks)
# One limit for a typed message, the web form's and the API's alike; longer notes are uploaded
# as a file, which is cut into chunks that can be quoted.
MAX_MESSAGE_CHARS = 200_000
# A message is dated when it was said: not before the epoch, and not later than now, give or
# take the clocks of the machines that exported it. A date far ahead would stay "the newest"
# and override every present-day statement.
EARLIEST_VALID_AT = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
CLOCK_SKEW = dt.timedelta(minutes=10)
# Lone surrogates (a broken "\ud83d" escape in JSON) cannot be stored or encoded; NUL cannot be
# stored in PostgreSQL text.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


class EpisodeRejected(ValueError):
    """The input cannot become an episode; the message says why."""


class DuplicateContent(EpisodeRejected):
    """The project's ledger already holds this very content: recorded again it would count as
    a second source of what it says (corroboration) while nobody said it twice."""

    def __init__(self, original: Episode) -> None:
        self.original = original
        super().__init__(f"duplicate of message #{original.number}")


@dataclass(frozen=True)
class EpisodeInput:
    content: str
    kind: str = EpisodeKind.CHAT_MESSAGE
    author: str = ""
    valid_at: dt.datetime | None = None
    source_ref: dict | None = None


def validate_episode_input(item: EpisodeInput) -> None:
    if not isinstance(item.content, str) or not item.content.strip():
        raise EpisodeRejected("the message is empty")
    if len(item.content) > MAX_EPISODE_CHARS:
        raise EpisodeRejected(
            f"the message has {len(item.content):,} characters; the limit is "
            f"{MAX_EPISODE_CHARS:,} (split it into several messages or upload it as a file)"
        )
    if item.kind == EpisodeKind.CHAT_MESSAGE and len(item.content) > MAX_MESSAGE_CHARS:
        raise EpisodeRejected(
            f"the message has {len(item.content):,} characters; the limit is "
            f"{MAX_MESSAGE_CHARS:,} (upload longer notes as a file)"
        )
    for what, text in (("message", item.content), ("author", item.author)):
        problem = unstorable_character(text)
        if problem:
            raise EpisodeRejected(f"the {what} contains {problem}")
    if item.kind not in EpisodeKind.values:
        raise EpisodeRejected(f"unknown episode kind {item.kind!r}")
    if item.valid_at is not None:
        check_valid_at(item.valid_at)


def unstorable_character(text: str) -> str:
    """What in `text` cannot be stored ("" when nothing): a NUL or a lone surrogate, by place."""
    found = _UNSTORABLE.search(text)
    if found is None:
        return ""
    where = f"at character {found.start() + 1}"
    if found.group() == "\x00":
        return f"a NUL character {where}"
    return (
        f"a lone surrogate U+{ord(found.group()):04X} {where}, which is not a character "
        "(a broken \\u escape: an emoji needs both halves of its pair)"
    )


def check_valid_at(moment: dt.datetime, *, now: dt.datetime | None = None) -> None:
    """A message's time is aware, not before 1970 and not after now (plus a small skew)."""
    if timezone.is_naive(moment):
        raise EpisodeRejected("the time has no timezone; use ISO-8601 with an offset or Z")
    try:
        utc = moment.astimezone(dt.UTC)
    except OverflowError:  # year 1 with a positive offset, year 9999 with a negative one
        raise EpisodeRejected(f"the time {moment.isoformat()} is out of range") from None
    if utc < EARLIEST_VALID_AT:
        raise EpisodeRejected(f"the time {iso_utc(utc)} is before 1970")
    latest = (now or timezone.now()) + CLOCK_SKEW
    if utc > latest:
        raise EpisodeRejected(
            f"the time {iso_utc(utc)} is in the future (after {iso_utc(latest)}, now plus "
            f"{int(CLOCK_SKEW.total_seconds() // 60)} minutes)"
        )


def iso_utc(moment: dt.datetime) -> str:
    """ISO-8601 in UTC with a four-digit year (strftime's %Y writes year 1 as "1")."""
    utc = moment.astimezone(dt.UTC)
    return f"{utc.year:04d}-{utc:%m-%dT%H:%M:%S}Z"


def earlier_copy(project: Project, content: str) -> Episode | None:
    """The project's first episode with exactly this content (by its SHA-256), if any."""
    return (
        Episode.objects.filter(project=project, content_sha256=content_sha256(content))
        .order_by("number")
        .only("pk", "number", "kind", "source_ref")
        .first()
    )


def record_episode(
    project: Project,
    item: EpisodeInput,
    *,
    enqueue: bool = True,
    refuse_duplicate: bool = False,
) -> Episode:
    """Append an episode with the next number; queue its pipeline run once committed.

    With `refuse_duplicate` (uploads and imports: a file sent twice, a record exported twice),
    content the project already holds raises DuplicateContent naming the earlier message, and
    nothing is written: the same words count as one source.
    """
    validate_episode_input(item)
    if refuse_duplicate and (original := earlier_copy(project, item.content)) is not None:
        raise DuplicateContent(original)
    for _attempt in range(5):
        try:
            with transaction.atomic():
                last = Episode.objects.filter(project=project).aggregate(n=Max("number"))["n"]
                episode = Episode.objects.create(
                    project=project,
                    number=(last or 0) + 1,
                    kind=item.kind,
                    content=item.content,
                    author=item.author[:200],
                    valid_at=item.valid_at or timezone.now(),
                    source_ref=item.source_ref or {},
                )
                EpisodeProcessing.objects.create(episode=episode)
                if enqueue:
                    transaction.on_commit(functools.partial(_enqueue, episode.pk))
                return episode
        except IntegrityError:
            continue  # another writer took the number; take the next one
    raise EpisodeRejected("could not allocate an episode number; try again")


@dataclass(frozen=True)
class Duplicate:
    """A chunk or record whose content the project already holds: not recorded again."""

    where: str  # "part 2", "line 14"
    of: int  # the earlier episode's number

    @property
    def message(self) -> str:
        return f"{self.where}: duplicate of message #{self.of}"


def where_in_file(item: EpisodeInput) -> str:
    ref = item.source_ref or {}
    for key in ("part", "page", "row", "line", "message"):
        if ref.get(key) not in (None, ""):
            return f"{key} {ref[key]}"
    return "the text"


def record_new_episodes(
    project: Project,
    items: Iterable[EpisodeInput],
    author: str = "",
    *,
    enqueue: bool = True,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[Episode], list[Duplicate]]:
    """A file's or an export's items as episodes, in one transaction (all or none), except those
    whose content the project already holds (an earlier upload, or twice in this one): these
    are reported as duplicates of the earlier message and add nothing."""
    episodes: list[Episode] = []
    duplicates: list[Duplicate] = []
    with transaction.atomic():
        for done, item in enumerate(items, start=1):
            try:
                episodes.append(
                    record_episode(
                        project,
                        replace(item, author=item.author or author),
                        enqueue=enqueue,
                        refuse_duplicate=True,
                    )
                )
            except DuplicateContent as exc:
                duplicates.append(Duplicate(where_in_file(item), exc.original.number))
            if progress is not None:
                progress(done)
    return episodes, duplicates


def _enqueue(episode_id: int) -> None:
    from kg.tasks import episode_ingest_task

    episode_ingest_task.delay(episode_id)
