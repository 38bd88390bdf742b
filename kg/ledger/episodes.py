"""Recording episodes: the one way anything enters the ledger."""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from django.db import IntegrityError, transaction
from django.db.models import Max, Min
from django.utils import timezone

from kg.models import Episode, EpisodeKind, EpisodeProcessing, Project
from kg.models.episodes import content_sha256
from kg.task_queue import queue_task

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


# Imported messages (an import's records, a file's chunks) are integrated in their project's
# order by whichever task holds the project's import turn, and that task works through every
# unfinished imported message before its own (kg.pipeline.ingest). One task for each run of
# IMPORT_TASK_STRIDE messages, queued for the last of the run, therefore reaches them all; a
# task per message would mostly find its message done, at a worker's cost per task.
IMPORTED_KINDS = frozenset({EpisodeKind.IMPORT, EpisodeKind.FILE_CHUNK})
IMPORT_TASK_STRIDE = 32


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


# Episodes written per INSERT when a file or an export is recorded: one statement and one
# numbering per chunk instead of a query and a savepoint per episode.
BULK_CHUNK = 500


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
    are reported as duplicates of the earlier message and add nothing.

    Written in bulk, BULK_CHUNK episodes per INSERT, numbered as `record_episode` numbers one
    (the next numbers after the project's last; the unique number constraint makes a writer
    that took them meanwhile cost a retry, never a shared number). With `enqueue`, queued for
    the pipeline once committed; readers of files record with enqueue=False and hand the
    episodes to kg.pipeline.ingest.ingest_recorded_episodes.
    """
    episodes: list[Episode] = []
    duplicates: list[Duplicate] = []
    recorded: dict[str, int] = {}  # content hash -> number of this file's episode holding it
    done = 0
    with transaction.atomic():
        for chunk in _chunks(items, BULK_CHUNK):
            chunk = [replace(item, author=item.author or author) for item in chunk]
            for item in chunk:
                validate_episode_input(item)
            hashes = [content_sha256(item.content) for item in chunk]
            earlier = _earliest_numbers(project, set(hashes) - recorded.keys())
            new: list[EpisodeInput] = []
            new_hashes: list[str] = []
            taken: set[str] = set()
            copies: list[tuple[EpisodeInput, str]] = []  # in file order, resolved once numbered
            for item, digest in zip(chunk, hashes, strict=True):
                if digest in earlier or digest in recorded or digest in taken:
                    copies.append((item, digest))
                else:
                    new.append(item)
                    new_hashes.append(digest)
                    taken.add(digest)
            made = _insert_numbered(project, new, new_hashes)
            for episode in made:
                recorded[episode.content_sha256] = episode.number
            duplicates.extend(
                Duplicate(where_in_file(item), earlier.get(digest) or recorded[digest])
                for item, digest in copies
            )
            episodes.extend(made)
            done += len(chunk)
            if progress is not None:
                progress(done)
        if enqueue:
            queue_ingest(episodes)
    return episodes, duplicates


def _chunks(items: Iterable[EpisodeInput], size: int) -> Iterator[list[EpisodeInput]]:
    chunk: list[EpisodeInput] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _earliest_numbers(project: Project, hashes: set[str]) -> dict[str, int]:
    """For each content hash the project already holds, its first episode's number."""
    if not hashes:
        return {}
    rows = (
        Episode.objects.filter(project=project, content_sha256__in=hashes)
        .values("content_sha256")
        .annotate(first=Min("number"))
    )
    return {row["content_sha256"]: row["first"] for row in rows}


def _insert_numbered(project: Project, items: list[EpisodeInput], hashes: list[str]) -> list:
    """Insert validated items as the project's next episodes, in order, with their processing
    rows; another writer taking a number first costs a retry of the chunk (a savepoint)."""
    if not items:
        return []
    now = timezone.now()
    for _attempt in range(5):
        try:
            with transaction.atomic():
                last = Episode.objects.filter(project=project).aggregate(n=Max("number"))["n"]
                made = Episode.objects.bulk_create(
                    Episode(
                        project=project,
                        number=(last or 0) + place,
                        kind=item.kind,
                        content=item.content,
                        author=item.author[:200],
                        valid_at=item.valid_at or now,
                        source_ref=item.source_ref or {},
                        content_sha256=digest,
                    )
                    for place, (item, digest) in enumerate(zip(items, hashes, strict=True), 1)
                )
                if any(e.pk is None for e in made):  # a backend that cannot say the new ids
                    by_number = dict(
                        Episode.objects.filter(project=project, number__gt=last or 0).values_list(
                            "number", "pk"
                        )
                    )
                    for episode in made:
                        episode.pk = by_number[episode.number]
                EpisodeProcessing.objects.bulk_create(EpisodeProcessing(episode=e) for e in made)
                return made
        except IntegrityError:
            continue  # another writer took one of the numbers; number the chunk again
    raise EpisodeRejected("could not allocate episode numbers; try again")


def queue_ingest(episodes: Sequence[Episode]) -> None:
    """Queue the pipeline for episodes once the current transaction commits: a task for each
    episode, except imported messages, which get one task per run of IMPORT_TASK_STRIDE of a
    project's (for the last of the run: see IMPORT_TASK_STRIDE)."""
    runs: dict[int, list[Episode]] = {}
    for episode in sorted(episodes, key=lambda e: (e.project_id, e.number)):
        if episode.kind not in IMPORTED_KINDS:
            transaction.on_commit(functools.partial(_enqueue, episode.pk))
            continue
        run = runs.setdefault(episode.project_id, [])
        run.append(episode)
        if len(run) == IMPORT_TASK_STRIDE:
            transaction.on_commit(functools.partial(_enqueue, run[-1].pk))
            run.clear()
    for run in runs.values():
        if run:
            transaction.on_commit(functools.partial(_enqueue, run[-1].pk))


def _enqueue(episode_id: int) -> None:
    queue_task("kg.episode_ingest", [episode_id])
