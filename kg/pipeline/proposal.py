"""Before the lock: every model call an episode needs, turned into a proposal of deltas.

One extraction call receives the existing nodes the message most likely speaks about (from
the candidate index), so its answer can say "this is #12" and link new facts to existing
nodes. Each other mention is resolved against its own candidates from the index; the model
is asked to confirm only where a candidate scores in the ambiguous band and was not already
shown to it in the extraction call (its silence there is its answer). Offline, the
RelationDiscoverer's rules link the episode's new nodes to the offered existing ones.

The proposal is recorded (EpisodeIntegration) before it is integrated: a retry and kg_rebuild
integrate the recorded proposal, so neither pays for a model call again.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from pydantic import BaseModel, Field

from kg.graph import NodeRecord
from kg.llm import call_llm
from kg.llm.engines import rules_answer
from kg.llm.offline.extractor import extract_offline
from kg.llm.prompts import relation_discovery, resolution, resolution_batch
from kg.llm.prompts.extraction_models import ExtractionRequest
from kg.models import Episode, EpisodeIntegration
from kg.pipeline import candidates
from kg.pipeline.evidence import locate_quote
from kg.pipeline.extract import KNOWN, ExtractionOutcome, extract_episode
from kg.pipeline.grounding import Grounded, edge_grounding_problem
from kg.pipeline.resolve import Mention, Resolution, resolve_candidate

logger = logging.getLogger(__name__)


class ProposedNode(BaseModel):
    key: list[str]  # the extraction's (type, normalised label): how relations name it
    type: str
    label: str
    quote: str
    start: int
    end: int
    subject: str = ""
    stance: str = ""
    value: str = ""
    target_uid: str | None = None  # the existing node it is, None for a new one
    method: str = "new"
    score: float | None = None
    compared: str = ""


class Endpoint(BaseModel):
    local: list[str] | None = None  # a ProposedNode.key of this episode
    uid: str | None = None  # an existing node


class ProposedEdge(BaseModel):
    relation: str
    source: Endpoint
    target: Endpoint
    quote: str
    start: int
    end: int


class Proposal(BaseModel):
    nodes: list[ProposedNode] = Field(default_factory=list)
    edges: list[ProposedEdge] = Field(default_factory=list)
    dropped: int = 0


def recorded_proposal(episode: Episode) -> Proposal | None:
    return recorded_proposals([episode]).get(episode.pk)


def recorded_proposals(episodes: Sequence[Episode]) -> dict[int, Proposal]:
    """The recorded proposals of episodes, by episode id, in one query."""
    rows = EpisodeIntegration.objects.filter(episode_id__in=[e.pk for e in episodes])
    return {
        episode_id: Proposal.model_validate(proposal)
        for episode_id, proposal in rows.values_list("episode_id", "proposal")
    }


def record_proposal(episode: Episode, proposal: Proposal) -> None:
    record_proposals([(episode, proposal)])


def record_proposals(made: Sequence[tuple[Episode, Proposal]]) -> None:
    """Record (or replace) the proposals of episodes in one statement; an episode's place in
    the order and its node numbers, if any, stay as they were."""
    EpisodeIntegration.objects.bulk_create(
        [
            EpisodeIntegration(
                episode_id=episode.pk, project_id=episode.project_id, proposal=p.model_dump()
            )
            for episode, p in made
        ],
        update_conflicts=True,
        unique_fields=["episode"],
        update_fields=["project", "proposal"],
    )


def propose(episode: Episode) -> Proposal:
    """Extract, resolve and link with every model call made here, outside any lock."""
    known = offered_nodes(episode)
    outcome = extract_episode(episode, known)
    return proposal_from(episode, outcome, known)


def _said_of(accepted, by_number: dict[int, NodeRecord]) -> NodeRecord | None:
    """The offered node the answer said a mention is (its `same_as`), if of the same type."""
    said = by_number.get(accepted.same_as or 0)
    return said if said is not None and said.type == accepted.candidate.type else None


def unnamed_mentions(outcome: ExtractionOutcome, known: list[NodeRecord]) -> list[tuple[str, str]]:
    """(type, label) of each accepted mention the answer did not name as an offered node: the
    ones `proposal_from` resolves against their candidates, in its order."""
    by_number = {n.number: n for n in known}
    return [
        (a.candidate.type, a.candidate.label)
        for a in outcome.nodes
        if _said_of(a, by_number) is None
    ]


NAMESAKES_PER_MENTION = 3


def offered_nodes(episode: Episode) -> list[NodeRecord]:
    """The existing nodes the extraction call is shown: those the message's words point to,
    and the closest namesakes of what a rule reading finds in it ("tutors in Leeds" for a
    message about tutors in York). Shown, the model says in the same call which one is meant;
    a confirmation is left for nodes that appear while the call runs."""
    if rules_answer():
        return []  # the rules read the message alone and resolve after: nothing to show
    project = episode.project
    known = candidates.nodes_for_text(project, episode.content)
    request = ExtractionRequest(text=episode.content, language=project.language, product="")
    mentions = [(n.type, n.label) for n in extract_offline(request).nodes if n.type != "product"]
    seen = {n.uid for n in known}
    for pool in candidates.candidates_for_many(project, mentions, NAMESAKES_PER_MENTION):
        for node in pool:
            if node.uid not in seen:
                seen.add(node.uid)
                known.append(node)
    return known


def proposal_from(
    episode: Episode,
    outcome: ExtractionOutcome,
    known: list[NodeRecord],
    *,
    confirm_with_model: bool = True,
    found: list[list[NodeRecord]] | None = None,
) -> Proposal:
    """Resolve and link what an extraction accepted for one episode.

    `known` are the nodes the extraction was offered. With `confirm_with_model` off (a batch
    of imported messages, kg.pipeline.batch) the model is never asked to confirm a merge:
    the mention then merges only on the certain rungs of the ladder, or by its `same_as`.
    `found` are the candidates of `unnamed_mentions` when the caller looked them up (a batch,
    in one lookup for all its messages); else they are looked up here.
    """
    project = episode.project
    offline = rules_answer()
    by_number = {n.number: n for n in known}
    offered = {n.uid for n in known}

    def said_of(accepted) -> NodeRecord | None:
        return _said_of(accepted, by_number)

    # The candidates of every mention the answer did not name (as `unnamed_mentions`), in one
    # lookup, joined with the nearest by meaning from the vector index, in one more: other
    # words, other languages (not for a mention its candidates already match exactly).
    unnamed = [a for a in outcome.nodes if said_of(a) is None]
    mentions = {id(a): Mention(*_mention_fields(a)) for a in outcome.nodes}
    resolvable = candidates.resolution_pools(project, [mentions[id(a)] for a in unnamed], found)
    pools = {id(a): pool for a, (pool, _) in zip(unnamed, resolvable, strict=True)}
    # the vector index's cosines per mention; None (computed in resolution) where it keeps none
    meaning = {id(a): cosines for a, (_, cosines) in zip(unnamed, resolvable, strict=True)}
    if offline:

        def confirm(m: Mention, n: NodeRecord) -> bool:
            return _confirm(episode, m, n)  # rules, as the ladder reaches each pair
    else:
        # A dry run of the ladder collects the pairs it would ask the model about (never a
        # node the extraction call was shown and did not name); they go in one call, and the
        # ladder then runs again on those answers.
        asked: list[tuple[Mention, NodeRecord]] = []

        def ask_later(m: Mention, n: NodeRecord) -> bool:
            if confirm_with_model and n.uid not in offered:
                asked.append((m, n))
            return False

        for a in unnamed:
            resolve_candidate(mentions[id(a)], pools[id(a)], ask_later, meaning[id(a)])
        verdicts = _confirm_together(episode, asked)

        def confirm(m: Mention, n: NodeRecord) -> bool:
            return verdicts.get((m, n.uid), False)

    proposal = Proposal(dropped=len(outcome.dropped))
    for accepted in outcome.nodes:
        c = accepted.candidate
        mention = mentions[id(accepted)]
        said = said_of(accepted)
        if said is not None:
            decision = Resolution("llm", said, None, said.label)
        else:
            decision = resolve_candidate(
                mention, pools[id(accepted)], confirm, meaning[id(accepted)]
            )
        proposal.nodes.append(
            ProposedNode(
                key=list(accepted.key),
                type=c.type,
                label=c.label.strip(),
                quote=accepted.span.text,
                start=accepted.span.start,
                end=accepted.span.end,
                subject=c.subject,
                stance=c.stance,
                value=c.value,
                target_uid=decision.node.uid if decision.node else None,
                method=decision.method,
                score=decision.score,
                compared=decision.compared,
            )
        )

    for relation in outcome.relations:
        source, target = (
            _endpoint(relation.source, by_number),
            _endpoint(relation.target, by_number),
        )
        if source and target:
            proposal.edges.append(
                ProposedEdge(
                    relation=relation.relation,
                    source=source,
                    target=target,
                    quote=relation.span.text,
                    start=relation.span.start,
                    end=relation.span.end,
                )
            )
    if offline:
        proposal.edges += _discover_offline(episode, outcome, proposal, known)
    return proposal


def _endpoint(end: tuple[str, str], by_number: dict[int, NodeRecord]) -> Endpoint | None:
    if end[0] == KNOWN:
        node = by_number.get(int(end[1])) if end[1].isdigit() else None
        return Endpoint(uid=node.uid) if node else None
    return Endpoint(local=list(end))


def _mention_fields(accepted) -> tuple[str, str, str, str, str]:
    c = accepted.candidate
    return c.type, c.label, c.quote, c.stance, c.value


def _confirm_together(
    episode: Episode, pairs: list[tuple[Mention, NodeRecord]]
) -> dict[tuple[Mention, str], bool]:
    """The model's verdicts on an episode's ambiguous pairs: one call for all of them."""
    if not pairs:
        return {}
    language = episode.project.language
    request = resolution_batch.ResolutionBatchRequest.of(
        [resolution.ResolutionRequest.about(m, n, language) for m, n in pairs]
    )
    answer = call_llm(
        resolution_batch.OPERATION, request, project=episode.project, episode=episode
    ).value
    same = answer.same_for(request)
    return {(m, n.uid): same[i] for i, (m, n) in enumerate(pairs, 1)}


def _confirm(episode: Episode, mention: Mention, node: NodeRecord) -> bool:
    request = resolution.ResolutionRequest.about(mention, node, episode.project.language)
    return call_llm(
        resolution.OPERATION, request, project=episode.project, episode=episode
    ).value.same


def _discover_offline(
    episode: Episode, outcome: ExtractionOutcome, proposal: Proposal, known: list[NodeRecord]
) -> list[ProposedEdge]:
    """The RelationDiscoverer's rules: a new node and an existing one named in one sentence."""
    new = [p for p in proposal.nodes if p.target_uid is None]
    existing = [n for n in known if n.invalid_at is None]
    if not new or not existing:
        return []
    brief = relation_discovery.NodeBrief
    request = relation_discovery.DiscoveryRequest(
        text=episode.content,
        new_nodes=[brief(number=-i, type=p.type, label=p.label) for i, p in enumerate(new, 1)],
        existing_nodes=[
            brief(number=n.number, type=n.type, label=n.label, aliases=n.aliases) for n in existing
        ],
    )
    answer = call_llm(
        relation_discovery.OPERATION, request, project=episode.project, episode=episode
    ).value
    ends: dict[int, Endpoint] = {-i: Endpoint(local=p.key) for i, p in enumerate(new, 1)}
    ends |= {n.number: Endpoint(uid=n.uid) for n in existing}
    named = {-i: Grounded(p.label) for i, p in enumerate(new, 1)}
    named |= {n.number: Grounded(n.label, tuple(n.aliases)) for n in existing}
    found = []
    for edge in answer.edges:
        source, target = ends.get(edge.source), ends.get(edge.target)
        span = locate_quote(edge.quote, episode.content)
        if source is None or target is None or span is None:
            continue  # unknown number or invented quote: never written
        problem = edge_grounding_problem(
            edge.relation, named[edge.source], named[edge.target], edge.quote, span, episode.content
        )
        if problem:
            logger.info("discovered edge not written: %s", problem)
            continue
        if (source.local is None) == (target.local is None):
            continue  # one end new, the other existing
        found.append(
            ProposedEdge(
                relation=edge.relation,
                source=source,
                target=target,
                quote=span.text,
                start=span.start,
                end=span.end,
            )
        )
    return found
