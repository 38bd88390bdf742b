"""Step 1, extract: one model call per episode, every item checked at write time.

Rejected items go back to the model once with their reasons; what still fails is dropped and
recorded (ExtractionRejection) with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings

from kg.graph import NodeRecord
from kg.graph.records import graph_time
from kg.llm import LLMOutputError, call_llm_repairing_json
from kg.llm.engines import rules_answer
from kg.llm.offline.gate import gate_answer
from kg.llm.prompts import extraction
from kg.llm.prompts.extraction import MAX_KNOWN_NODES, MAX_KNOWN_SUBJECTS
from kg.llm.prompts.extraction_models import (
    CandidateNode,
    ExtractionRequest,
    ExtractionResponse,
    KnownNode,
)
from kg.models import Episode, ExtractionRejection, LLMCall
from kg.ontology import NodeType, OntologyError, check_node_type, check_relation
from kg.pipeline.evidence import Span, locate_quote, normalise, numbers_missing
from kg.pipeline.grounding import (
    Grounded,
    edge_grounding_problem,
    node_grounding_problem,
    quote_too_short,
)
from kg.tenancy import product_name


class ExtractionFailed(RuntimeError):
    """The model gave no usable answer, even after one repair request."""


@dataclass(frozen=True)
class AcceptedNode:
    candidate: CandidateNode
    span: Span
    same_as: int | None = None  # the known node the model said it is, checked against the offer

    @property
    def key(self) -> tuple[str, str]:
        return (self.candidate.type, normalise(self.candidate.label).lower())


@dataclass(frozen=True)
class AcceptedRelation:
    relation: str
    source: tuple[str, str]  # AcceptedNode.key, or KNOWN and the number of a known node
    target: tuple[str, str]
    span: Span


KNOWN = "#"  # AcceptedRelation ends ("#", "12") name known node #12


@dataclass(frozen=True)
class Rejection:
    kind: str  # node | relation
    item: dict
    reason: str


@dataclass
class CheckedAnswer:
    nodes: list[AcceptedNode] = field(default_factory=list)
    relations: list[AcceptedRelation] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)


@dataclass
class ExtractionOutcome:
    nodes: list[AcceptedNode]
    relations: list[AcceptedRelation]
    dropped: list[Rejection]
    calls: list[LLMCall]


def check_answer(
    text: str,
    answer: ExtractionResponse,
    known: dict[int, KnownNode] | None = None,
    *,
    product: str = "",
) -> CheckedAnswer:
    """Accept what the episode supports; reject the rest with a reason the model can act on.

    `known` maps the numbers of the known nodes offered in the prompt to them: a node's
    `same_as` and a relation's "#12" count only for a number that was offered, of that type.
    `product` is the project's product name: the one name a message may leave unsaid.
    """
    known = known or {}
    checked = CheckedAnswer()
    by_ref: dict[str, AcceptedNode] = {}
    for number, offered in known.items():
        by_ref[f"#{number}"] = AcceptedNode(
            candidate=CandidateNode(
                ref=f"#{number}",
                type=offered.type,
                label=offered.label,
                quote="",
                aliases=offered.aliases,
            ),
            span=Span(0, 0, ""),
        )
    seen: set[tuple[str, str]] = set()
    for node in answer.nodes:
        reason = _node_problem(node, text, product)
        if reason:
            checked.rejections.append(Rejection("node", node.model_dump(), reason))
            continue
        offered = known.get(node.same_as or 0)
        same_as = node.same_as if offered is not None and offered.type == node.type else None
        accepted = AcceptedNode(
            candidate=node,
            span=locate_quote(node.quote, text),  # type: ignore[arg-type]
            same_as=same_as,
        )
        by_ref[node.ref] = accepted
        if accepted.key not in seen:
            seen.add(accepted.key)
            checked.nodes.append(accepted)
    for relation in answer.relations:
        source, target = by_ref.get(relation.source), by_ref.get(relation.target)
        reason = ""
        if source is None or target is None:
            missing = relation.source if source is None else relation.target
            reason = f"relation {relation.relation}: node {missing!r} is missing or was rejected"
        else:
            try:
                check_relation(relation.relation, source.candidate.type, target.candidate.type)
            except OntologyError as exc:
                reason = str(exc)
        span = locate_quote(relation.quote, text)
        # A quote too short to say anything is told so (by the grounding check), not "not found".
        if not reason and span is None and not quote_too_short(relation.quote):
            reason = f"relation quote not in episode: copy it word for word ({relation.quote!r})"
        if not reason:
            reason = edge_grounding_problem(
                relation.relation,
                _grounded(source),  # type: ignore[arg-type]
                _grounded(target),  # type: ignore[arg-type]
                relation.quote,
                span,
                text,
            )
        if reason:
            checked.rejections.append(Rejection("relation", relation.model_dump(), reason))
            continue
        checked.relations.append(
            AcceptedRelation(
                relation.relation,
                _end(relation.source, source),  # type: ignore[arg-type]
                _end(relation.target, target),  # type: ignore[arg-type]
                span,  # type: ignore[arg-type]
            )
        )
    return checked


def _grounded(node: AcceptedNode) -> Grounded:
    span = node.span if node.span.end > node.span.start else None  # a known node: no quote here
    return Grounded(node.candidate.label, tuple(node.candidate.aliases), span)


def _end(ref: str, node: AcceptedNode) -> tuple[str, str]:
    return (KNOWN, ref[1:]) if node.candidate.ref.startswith("#") else node.key


def _node_problem(node: CandidateNode, text: str, product: str = "") -> str:
    try:
        check_node_type(node.type)
    except OntologyError as exc:
        return str(exc)
    if not node.label.strip():
        return "node has no label"
    if quote_too_short(node.quote):
        return node_grounding_problem(node.type, node.label, node.quote)
    if locate_quote(node.quote, text) is None:
        return f"quote not in episode: copy it word for word ({node.quote!r})"
    missing = numbers_missing(f"{node.label} {node.value}", node.quote)
    if missing:
        return (
            f"{node.type} {node.label!r}: the number(s) {', '.join(missing)} are not in its quote"
        )
    if node.type == NodeType.PRODUCT and product and _same_name(node.label, product):
        return ""  # the project's own product: what every message of it speaks about
    return node_grounding_problem(
        node.type, node.label, node.quote, value=node.value, aliases=node.aliases
    )


def _same_name(a: str, b: str) -> bool:
    return normalise(a).casefold() == normalise(b).casefold()


def _merge(first: CheckedAnswer, second: CheckedAnswer) -> CheckedAnswer:
    """Items accepted in either round; the repair answer cannot take back good items."""
    merged = CheckedAnswer(rejections=second.rejections)
    keys: set[tuple[str, str]] = set()
    for node in first.nodes + second.nodes:
        if node.key not in keys:
            keys.add(node.key)
            merged.nodes.append(node)
    relation_keys: set[tuple] = set()
    for relation in first.relations + second.relations:
        key = (relation.relation, relation.source, relation.target)
        if key not in relation_keys:
            relation_keys.add(key)
            merged.relations.append(relation)
    return merged


def _ask(
    episode: Episode, request: ExtractionRequest, extra: list[dict[str, str]], calls: list[LLMCall]
) -> ExtractionResponse:
    try:
        result = call_llm_repairing_json(
            extraction.OPERATION,
            request,
            calls=calls,
            extra_messages=extra,
            project=episode.project,
            episode=episode,
        )
    except LLMOutputError as error:
        raise ExtractionFailed(f"the model's answer was not valid JSON twice: {error}") from None
    return gate_model_answer(result.value, request.language, request.records)


def gate_model_answer(
    answer: ExtractionResponse, language: str, records: str
) -> ExtractionResponse:
    """A model's candidates through the learned gate, as the rules' go through it inside the
    offline engine (kg.llm.offline.gate); the rules' answer is not gated twice."""
    return answer if rules_answer() else gate_answer(answer, language, records)


# Longer "subjects" are sentences, not names a second opinion could reuse.
MAX_SUBJECT_CHARS = 60


def known_subjects(episode: Episode, limit: int = MAX_KNOWN_SUBJECTS) -> list[str]:
    """The opinion subjects the project's nodes carry, most used first, for the prompt.

    Read from the candidate index, not the graph; only nodes that became valid before this
    episode count, so what the episode itself (or a later one) said never shapes its prompt.
    """
    from kg.pipeline.candidates import known_subjects as indexed_subjects

    subjects = indexed_subjects(episode.project, graph_time(episode.valid_at), limit)
    return [s for s in subjects if len(s.strip()) <= MAX_SUBJECT_CHARS][:limit]


def extract_episode(
    episode: Episode, known_nodes: list[NodeRecord] | None = None
) -> ExtractionOutcome:
    """One extraction call; `known_nodes` (from the candidate index) are offered to the model
    so that its answer can say "this is #12" and link to existing nodes."""
    project = episode.project
    offered = [
        KnownNode(number=n.number, type=n.type, label=n.label, aliases=n.aliases)
        for n in (known_nodes or [])[:MAX_KNOWN_NODES]
    ]
    known = {n.number: n for n in offered}
    request = ExtractionRequest(
        text=episode.content,
        records=episode.record_kind,
        language=project.language,
        product=product_name(project),  # "" when the name only repeats the slug
        project_name=project.name,
        known_subjects=known_subjects(episode),
        known_nodes=offered,
    )
    calls: list[LLMCall] = []
    if settings.LLM_ENGINE == "openai" and len(episode.content) > settings.LLM_MAX_INPUT_CHARS:
        raise ExtractionFailed(
            f"the message has {len(episode.content):,} characters, more than one model call "
            f"takes (LLM_MAX_INPUT_CHARS={settings.LLM_MAX_INPUT_CHARS:,}); split it"
        )
    first = check_answer(
        episode.content, _ask(episode, request, [], calls), known, product=request.product
    )
    if not first.rejections:
        return ExtractionOutcome(first.nodes, first.relations, [], calls)
    first_call = calls[-1]
    repair = [
        {"role": "assistant", "content": first_call.raw_output},
        extraction.repair_message([r.reason for r in first.rejections]),
    ]
    try:
        second = check_answer(
            episode.content, _ask(episode, request, repair, calls), known, product=request.product
        )
    except ExtractionFailed:
        second = CheckedAnswer()  # a broken repair answer keeps what round one got right
    merged = _merge(first, second)
    recovered = {_item_key(n.candidate.model_dump(), "node") for n in merged.nodes}
    recovered |= {("relation", r.relation, normalise(r.span.text)) for r in merged.relations}
    retried = {_item_key(r.item, r.kind) for r in second.rejections}
    # Left out of the repair answer and not recovered: round one's record is the final one.
    omitted = [r for r in first.rejections if _item_key(r.item, r.kind) not in recovered | retried]
    _record(episode, first_call, 1, first.rejections, final_when=omitted)
    _record(episode, calls[-1], 2, second.rejections, final_when=second.rejections)
    return ExtractionOutcome(merged.nodes, merged.relations, omitted + second.rejections, calls)


def _item_key(item: dict, kind: str) -> tuple[str, str, str]:
    if kind == "node":
        return ("node", item.get("type", ""), normalise(item.get("label", "")).lower())
    return ("relation", item.get("relation", ""), normalise(item.get("quote", "")))


def _record(
    episode: Episode,
    call: LLMCall,
    round_number: int,
    rejections: list[Rejection],
    *,
    final_when: list[Rejection],
) -> None:
    # Idempotent: a retried episode replaces its own rejection records for this round.
    ExtractionRejection.objects.filter(episode=episode, round=round_number).delete()
    ExtractionRejection.objects.bulk_create(
        ExtractionRejection(
            episode=episode,
            llm_call=call,
            round=round_number,
            item_kind=r.kind,
            item=r.item,
            reason=r.reason,
            final=r in final_when,
        )
        for r in rejections
    )
