"""The write side of kg as the other apps ask for it: record a message, analyse it, answer a
contradiction, take in notes and files, and the retry policy and queue those run under.

chat, artifacts and orgmemory change the research through this module only (the boundary is
a test, tests/test_layers.py); what they read comes from kg.read_models. The functions live
with the layer that owns them — the ledger (kg.ledger: episodes, notes, files), the pipeline
(kg.pipeline) — and are named here once.
"""

from __future__ import annotations

import logging

from kg.graph import GraphScope, store
from kg.ledger.episodes import MAX_MESSAGE_CHARS, EpisodeInput, EpisodeRejected, record_episode
from kg.ledger.importing import MAX_UPLOAD_BYTES, read_uploaded_notes, record_uploaded_notes
from kg.ledger.sources import (
    FORMAT_CHOICES,
    MAX_MESSAGES,
    MAX_PAGES,
    MAX_ROWS,
    MAX_SOURCE_BYTES,
    ImportOptions,
    source_format,
)
from kg.ledger.sources.background import (
    BACKGROUND_BYTES,
    SourceImportNotFound,
    import_progress,
    queue_source_import,
    report_summary,
    source_import_in,
)
from kg.ledger.sources.base import UnreadableFile
from kg.models import Episode
from kg.pipeline import ingest
from kg.pipeline.candidates import NodeBlocks
from kg.pipeline.ingest import episode_ingest
from kg.pipeline.locks import lock_redis, named_lock, namespaced_key
from kg.pipeline.resolve import Mention, node_key, resolve_candidate
from kg.pipeline.retry_policy import TRANSIENT_ERRORS, retry_delay
from kg.task_queue import queue_task
from kg.web.api.services import (
    ContradictionAlreadyResolved,
    ContradictionNotFound,
    NotOneOfTheTwo,
    ResourceNotFound,
    author_name,
    register_task_finder,
    resolve_contradiction,
)

logger = logging.getLogger("groundwork.pipeline")


def analyse_episode(episode: Episode) -> str:
    """Run the pipeline for a recorded message (a no-op when it already ran). Returns "" when
    it ran, else the reason it could not; an outage (TRANSIENT_ERRORS) is raised, so the
    caller's task retries it under the pipeline's policy."""
    try:
        ingest.episode_ingest(episode.pk)  # looked up at call time: a test may break it
    except TRANSIENT_ERRORS:
        raise
    except Exception as exc:
        logger.exception("pipeline failed for episode %s", episode.pk)
        return f"{type(exc).__name__}: {exc}"[:300]
    return ""


def discard_project_graph(scope: GraphScope) -> None:
    """Delete a project's graph (a throwaway evaluation project's, before it is run again)."""
    store.delete_project_graph(scope)


__all__ = [
    "BACKGROUND_BYTES",
    "NodeBlocks",
    "FORMAT_CHOICES",
    "MAX_MESSAGES",
    "MAX_MESSAGE_CHARS",
    "MAX_PAGES",
    "MAX_ROWS",
    "MAX_SOURCE_BYTES",
    "MAX_UPLOAD_BYTES",
    "TRANSIENT_ERRORS",
    "ContradictionAlreadyResolved",
    "ContradictionNotFound",
    "EpisodeInput",
    "EpisodeRejected",
    "ImportOptions",
    "Mention",
    "NotOneOfTheTwo",
    "ResourceNotFound",
    "SourceImportNotFound",
    "UnreadableFile",
    "analyse_episode",
    "author_name",
    "discard_project_graph",
    "episode_ingest",
    "import_progress",
    "lock_redis",
    "named_lock",
    "namespaced_key",
    "node_key",
    "queue_source_import",
    "queue_task",
    "read_uploaded_notes",
    "record_episode",
    "record_uploaded_notes",
    "register_task_finder",
    "report_summary",
    "resolve_candidate",
    "resolve_contradiction",
    "retry_delay",
    "source_format",
    "source_import_in",
]
