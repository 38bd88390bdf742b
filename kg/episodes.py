"""Recording episodes: the one way anything enters the ledger."""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from kg.models import Episode, EpisodeKind, EpisodeProcessing, Project

MAX_EPISODE_CHARS = 2_000_000  # about 2 MB of text in one episode (imports, file chunks)
# One limit for a typed message, the web form's and the API's alike; longer notes are uploaded
# as a file, which is cut into chunks that can be quoted.
MAX_MESSAGE_CHARS = 200_000


class EpisodeRejected(ValueError):
    """The input cannot become an episode; the message says why."""


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
    if "\x00" in item.content:
        raise EpisodeRejected("the message contains a NUL character")
    if item.kind not in EpisodeKind.values:
        raise EpisodeRejected(f"unknown episode kind {item.kind!r}")
    if item.valid_at is not None and timezone.is_naive(item.valid_at):
        raise EpisodeRejected("the time has no timezone; use ISO-8601 with an offset or Z")


def record_episode(project: Project, item: EpisodeInput, *, enqueue: bool = True) -> Episode:
    """Append an episode with the next number; queue its pipeline run once committed."""
    validate_episode_input(item)
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


def _enqueue(episode_id: int) -> None:
    from kg.tasks import episode_ingest_task

    episode_ingest_task.delay(episode_id)
