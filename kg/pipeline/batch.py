"""Bulk import: several imported messages per model call, each still its own episode.

An imported message (kg_ingest, an upload, a document or an export) whose proposal is not
recorded yet is proposed together with the next few pending imported messages of its project:
one `batch_extraction` call, whose answer is split into one extraction outcome per message,
each checked against its own message (a quote found only in a neighbour is rejected), then
resolved and recorded as that episode's proposal exactly like a single one. From there
nothing differs: each episode is integrated under the lock from its recorded proposal, a
retry and kg_rebuild make no model call.

The batch is formed where the work is taken, so every way of queueing imported messages
batches without knowing it: the tasks of a bulk import (one per run of messages),
`kg_ingest --sync`, and `kg.pipeline.ingest.ingest_recorded_episodes` (the entry point for
readers of files). Only
the holder of the project's import turn proposes imported messages, in number order (see
kg.pipeline.ingest), so the batches are those of a sequential run. A batch whose call fails,
and a message the answer left out, fall back to the single extraction.

Chat messages are never batched: the person is waiting for that one message's answer.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.db import transaction

from kg.graph import NodeRecord
from kg.ledger.episodes import IMPORT_TASK_STRIDE, IMPORTED_KINDS
from kg.llm import LLMOutputError, call_llm_repairing_json
from kg.llm.engines import rules_answer
from kg.llm.prompts import batch_extraction
from kg.llm.prompts.batch_extraction import (
    MAX_BATCH_KNOWN_NODES,
    BatchExtractionRequest,
    BatchMessage,
)
from kg.llm.prompts.extraction_models import ExtractionResponse, KnownNode
from kg.models import Episode, ExtractionRejection, LLMCall
from kg.pipeline import candidates
from kg.pipeline.extract import (
    ExtractionOutcome,
    check_answer,
    gate_model_answer,
    known_subjects,
)
from kg.pipeline.proposal import (
    Proposal,
    proposal_from,
    propose,
    record_proposal,
    record_proposals,
    recorded_proposal,
    recorded_proposals,
    unnamed_mentions,
)
from kg.pipeline.read_ahead import answers_read_ahead
from kg.tenancy import product_name

logger = logging.getLogger("groundwork.pipeline")

BULK_KINDS = IMPORTED_KINDS
BATCH_MESSAGES = 8  # messages per call: 0.125 calls per message when every batch is full
# The offline rules read each message alone, so a batch is only the unit of bookkeeping (its
# records, its hold of the lease): a whole task's run of imported messages at once.
OFFLINE_BATCH_MESSAGES = IMPORT_TASK_STRIDE
BATCH_CHARS = 16_000  # text per call; a longer message is extracted on its own
KNOWN_PER_MESSAGE = 6  # candidate nodes each message adds to the batch's known nodes


def messages_per_batch() -> int:
    """A model's answer carries eight messages well; the offline rules, a task's whole run."""
    return OFFLINE_BATCH_MESSAGES if rules_answer() else BATCH_MESSAGES


def batchable(episode: Episode) -> bool:
    return episode.kind in BULK_KINDS and len(episode.content) <= BATCH_CHARS


# --- the proposal of one episode, in a batch where it can be -------------------------------------


def proposal_for(episode: Episode) -> Proposal:
    """The episode's recorded proposal, else one made now and recorded (`proposals_for`)."""
    recorded = recorded_proposal(episode)
    if recorded is not None:
        return recorded
    return proposals_for(episode)[episode.pk]


def proposals_for(episode: Episode) -> dict[int, Proposal]:
    """Proposals made now and recorded for an episode that has none: an imported message
    together with the next imported messages of its project not yet proposed, anything else
    alone. Returns every proposal made, by episode id (the episode's among them). Imported
    messages are proposed by the holder of the project's import turn only
    (kg.pipeline.ingest), in order, so a batch is the same however workers are scheduled."""
    if batchable(episode):
        proposals = propose_batch([episode, *_companions(episode)])
        if episode.pk in proposals:
            return proposals
    else:
        proposals = {}
    proposal = propose(episode)
    record_proposal(episode, proposal)
    return proposals | {episode.pk: proposal}


def _companions(episode: Episode) -> list[Episode]:
    """The next imported messages of the project not yet proposed, within the batch's size."""
    pending = (
        Episode.objects.filter(
            project_id=episode.project_id,
            kind__in=BULK_KINDS,
            number__gt=episode.number,
            integration__isnull=True,
        )
        .select_related("project__organization")
        .order_by("number")[: messages_per_batch() - 1]
    )
    chosen: list[Episode] = []
    chars = len(episode.content)
    for other in pending:
        if chars + len(other.content) > BATCH_CHARS:
            break
        chosen.append(other)
        chars += len(other.content)
    return chosen


# --- one call for several messages ---------------------------------------------------------------


def propose_batch(episodes: Sequence[Episode]) -> dict[int, Proposal]:
    """Extract several episodes of one project in one call; resolve and record each episode's
    proposal. Returns the proposals by episode id; an episode missing from the result (the
    answer left it out, or the call failed) is proposed on its own by its caller."""
    recorded = recorded_proposals(episodes)
    episodes = [e for e in episodes if e.pk not in recorded]
    if not episodes:
        return {}
    if len(episodes) == 1:
        proposal = propose(episodes[0])
        record_proposal(episodes[0], proposal)
        return {episodes[0].pk: proposal}
    project = episodes[0].project
    if any(e.project_id != project.pk for e in episodes):
        raise ValueError("a batch holds the episodes of one project")
    # The offline rules read each message alone (kg.llm.offline.ahead): no node or subject
    # of the project is shown to them, and none is looked up for them.
    offline = rules_answer()
    known = [] if offline else _known_nodes(project, episodes)
    first = min(episodes, key=lambda e: e.valid_at)
    request = BatchExtractionRequest(
        messages=[
            BatchMessage(id=i, text=e.content, records=e.record_kind)
            for i, e in enumerate(episodes, start=1)
        ],
        language=project.language,
        product=product_name(project),
        project_name=project.name,
        known_subjects=[] if offline else known_subjects(first),
        known_nodes=[
            KnownNode(number=n.number, type=n.type, label=n.label, aliases=n.aliases) for n in known
        ],
    )
    calls: list[LLMCall] = []
    try:
        with answers_read_ahead(episodes):
            answer = call_llm_repairing_json(
                batch_extraction.OPERATION, request, calls=calls, project=project
            ).value
    except LLMOutputError as error:
        logger.warning("batch of %d messages not extracted (%s): one by one", len(episodes), error)
        return {}
    items = {}
    for item in answer.items:
        items.setdefault(item.message, item)
    offered = {n.number: n for n in request.known_nodes}
    answered: list[tuple[Episode, ExtractionOutcome, list]] = []
    for number, episode in enumerate(episodes, start=1):
        item = items.get(number)
        if item is None:
            continue  # left out of the answer: extracted on its own
        response = gate_model_answer(
            ExtractionResponse(nodes=item.nodes, relations=item.relations),
            request.language,
            episode.record_kind,
        )
        checked = check_answer(episode.content, response, offered, product=request.product)
        outcome = ExtractionOutcome(checked.nodes, checked.relations, checked.rejections, calls)
        answered.append((episode, outcome, checked.rejections))
    # The candidates of every message's unnamed mentions in one lookup: nothing is written
    # to the index before the batch is recorded, so each list is what its message alone finds.
    lookups = [unnamed_mentions(outcome, known) for _, outcome, _ in answered]
    found = candidates.candidates_for_many(project, [m for mentions in lookups for m in mentions])
    made: list[tuple[Episode, Proposal, list]] = []
    start = 0
    for (episode, outcome, rejections), mentions in zip(answered, lookups, strict=True):
        proposal = proposal_from(
            episode,
            outcome,
            known,
            confirm_with_model=offline,
            found=found[start : start + len(mentions)],
        )
        start += len(mentions)
        made.append((episode, proposal, rejections))
    with transaction.atomic():  # the batch's records in one commit
        _record_rejections(calls[-1], [(episode, rejections) for episode, _, rejections in made])
        record_proposals([(episode, proposal) for episode, proposal, _ in made])
    return {episode.pk: proposal for episode, proposal, _ in made}


def _known_nodes(project, episodes: Sequence[Episode]) -> list[NodeRecord]:
    """The nodes the batch's messages most likely speak about: each message's best few, in
    turn, so no message's candidates crowd out another's."""
    per_message = candidates.nodes_for_texts(
        project, [e.content for e in episodes], limit=KNOWN_PER_MESSAGE
    )
    chosen: dict[str, NodeRecord] = {}
    for rank in range(KNOWN_PER_MESSAGE):
        for found in per_message:
            if rank < len(found) and len(chosen) < MAX_BATCH_KNOWN_NODES:
                chosen.setdefault(found[rank].uid, found[rank])
    return list(chosen.values())


def _record_rejections(call: LLMCall, rejected: Sequence[tuple[Episode, list]]) -> None:
    # Idempotent: a re-proposed episode replaces its own records of this round.
    with transaction.atomic(savepoint=False):
        ExtractionRejection.objects.filter(
            episode_id__in=[episode.pk for episode, _ in rejected], round=1
        ).delete()
        ExtractionRejection.objects.bulk_create(
            ExtractionRejection(
                episode=episode,
                llm_call=call,
                round=1,
                item_kind=r.kind,
                item=r.item,
                reason=r.reason,
                final=True,  # a batch is not sent back for repair: one call is its budget
            )
            for episode, rejections in rejected
            for r in rejections
        )
