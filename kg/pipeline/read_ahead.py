"""Imported messages read ahead by the offline rules while their task waits for its turn.

The imports of a project are integrated in order by the one task that holds the project's
import turn (kg.pipeline.ingest); the task queued for a later run of messages waits meanwhile,
and its worker process would sit idle. With the offline engine it reads its run's messages
ahead instead: the rules' answer depends on the message alone (kg.llm.offline.ahead), so it is
computed there, on the other core, and kept in Redis for a few minutes; the turn's holder finds
it and goes straight on to resolving and writing. Nothing here is needed for correctness: an
answer not found (expired, Redis away, never read ahead) is computed in place, the same.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import redis
from pydantic import ValidationError

from kg.llm.engines import rules_answer
from kg.llm.offline import ahead
from kg.llm.offline.extractor import extract_offline
from kg.llm.prompts.extraction_models import ExtractionRequest, ExtractionResponse
from kg.models import Episode
from kg.pipeline.locks import lock_redis, namespaced_key
from kg.tenancy import product_name

logger = logging.getLogger("groundwork.pipeline")

KEEP_SECONDS = 900  # long enough for the holder to reach a run read ahead, short for memory


def _request(episode: Episode) -> ExtractionRequest:
    project = episode.project
    return ExtractionRequest(
        text=episode.content,
        records=episode.record_kind,
        language=project.language,
        product=product_name(project),
        project_name=project.name,
    )


def _answer_key(request: ExtractionRequest) -> str:
    return ahead.answer_key(
        request.text, request.language, request.product, request.project_name, request.records
    )


def _kept_at(answer_key: str) -> str:
    return namespaced_key("offline-answer:" + answer_key)


def read_ahead(episodes: Sequence[Episode]) -> int:
    """Compute and keep the offline answers of these messages not kept already; returns how
    many were computed. Does nothing with a model configured (its answer depends on the
    project's state) or with Redis away."""
    if not episodes or not rules_answer():
        return 0
    requests = [_request(e) for e in episodes]
    keys = [_kept_at(_answer_key(r)) for r in requests]
    try:
        client = lock_redis()
        kept = client.mget(keys)
        made = 0
        for request, key, answer in zip(requests, keys, kept, strict=True):
            if answer is None:
                client.set(key, extract_offline(request).model_dump_json(), ex=KEEP_SECONDS)
                made += 1
        return made
    except redis.RedisError as exc:
        logger.debug("messages not read ahead: %s", exc)
        return 0


@contextmanager
def answers_read_ahead(episodes: Sequence[Episode]) -> Iterator[None]:
    """Within the block the offline rules find the answers read ahead for these messages."""
    found: dict[str, ExtractionResponse] = {}
    if episodes and rules_answer():
        keys = [_answer_key(_request(e)) for e in episodes]
        try:
            kept = lock_redis().mget([_kept_at(key) for key in keys])
        except redis.RedisError as exc:
            logger.debug("answers read ahead not available: %s", exc)
            kept = [None] * len(keys)
        for key, answer in zip(keys, kept, strict=True):
            if answer is None:
                continue
            try:
                found[key] = ExtractionResponse.model_validate_json(answer)
            except ValidationError:  # not an answer: computed in place
                logger.warning("an answer read ahead did not parse; computed again")
    with ahead.answers_given(found):
        yield
