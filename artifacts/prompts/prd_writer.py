"""Operation `prd_writer`: write a PRD's claims, each citing the node numbers it rests on.

The request is the project's context rendered as numbered nodes (type, label, confidence,
quotes) and edges, plus the sections to fill. The answer is claims per section; the system
checks every claim (artifacts.checks) and renders every citation itself (artifacts.rendering).

The offline answer is a deterministic template engine (EN and RU): one claim per relevant node
or edge, built only from the template's own words and the nodes' labels/values, citing the
nodes it names. It never writes a number that no quote of a cited node contains, and states a
relation only when one of the edge's own quotes names both of its nodes (else each node gets
its own claim). Whether each node's quote names it is left to the system's checks, which drop
and list the claims that fail.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from pydantic import BaseModel, Field

from artifacts.checks import names_grounded, uncovered_numbers
from artifacts.prompts.prd_templates import EDGE_TEMPLATES, NODE_TEMPLATES, STORY_TEMPLATES
from kg.llm.operation import LLMOperation

# Quotes per node sent to the writer: enough to write from, bounded to keep prompts small.
MAX_QUOTES_PER_NODE = 3
PROBLEM_TOP_PAINS = 3
# A target user's top pains: the segments section names this many per segment.
SEGMENT_TOP_PAINS = 3


class NodeLine(BaseModel):
    number: int
    type: str
    label: str
    aliases: list[str] = Field(default_factory=list)
    confidence: int
    value: str = ""
    evidence_count: int = Field(description="How many episodes support the node.")
    quotes: list[str]


class EdgeLine(BaseModel):
    relation: str
    source: int
    target: int
    quotes: list[str] = Field(default_factory=list, description="The edge's own evidence.")


class SectionSpec(BaseModel):
    key: str
    title: str
    instruction: str


class WriterRequest(BaseModel):
    product: str
    language: str = "en"
    as_of: str | None = None
    sections: list[SectionSpec]
    nodes: list[NodeLine]
    edges: list[EdgeLine] = Field(default_factory=list)


class DraftClaim(BaseModel):
    text: str
    nodes: list[int] = Field(default_factory=list)


class SectionDraft(BaseModel):
    key: str
    claims: list[DraftClaim] = Field(default_factory=list)


class WriterResponse(BaseModel):
    sections: list[SectionDraft] = Field(default_factory=list)


SYSTEM = """You write a product requirements document (PRD) from product research.
You receive numbered research nodes (type, label, confidence 0-100, how many messages support
it, verbatim quotes) and the relations between them. Answer with one JSON object:
{"sections": [{"key": <section key>,
               "claims": [{"text": <one sentence>, "nodes": [<node numbers>]}]}]}
Rules:
- Every claim cites, in "nodes", the numbers of the nodes it rests on. A sentence that no node
  supports must not be written.
- Use only the node numbers listed. Never write node numbers or "#" references in the text;
  the system adds the citations.
- Write a number (a percentage, count, price, duration) only if it appears in a quote of a node
  the claim cites, exactly as quoted.
- Cite a node only if one of its quotes names it (its label or an alias, in any word form).
- Citing two nodes joined by a relation states that relation, and rests on the relation's own
  quote: do it only when that quote names both; otherwise write them in separate claims.
- Do not add facts that the labels and quotes do not state.
- Fill only the section keys given; in "requirements" put the most evidenced features first.
- Write in the language given ("en" English, "ru" Russian).
"""


def _quoted(texts: list[str]) -> str:
    return " | ".join(json.dumps(q, ensure_ascii=False) for q in texts)


def _node_line(node: NodeLine) -> str:
    value = f" value={json.dumps(node.value, ensure_ascii=False)}" if node.value else ""
    aliases = f" aliases: {_quoted(node.aliases)}" if node.aliases else ""
    return (
        f"#{node.number} [{node.type}] {json.dumps(node.label, ensure_ascii=False)}{value}"
        f"{aliases} confidence={node.confidence} messages={node.evidence_count} "
        f"quotes: {_quoted(node.quotes)}"
    )


def _edge_line(edge: EdgeLine) -> str:
    quotes = f" quotes: {_quoted(edge.quotes)}" if edge.quotes else ""
    return f"#{edge.source} -{edge.relation}-> #{edge.target}{quotes}"


def build_messages(request: WriterRequest) -> list[dict[str, str]]:
    sections = "\n".join(f"- {s.key}: {s.title} — {s.instruction}" for s in request.sections)
    nodes = "\n".join(_node_line(n) for n in request.nodes)
    edges = "\n".join(_edge_line(e) for e in request.edges)
    as_of = f"\nAs of: {request.as_of}" if request.as_of else ""
    # No name given: the product is whatever the research's product nodes call it.
    product = request.product or "(no name given; name it only as its nodes do)"
    return [
        {"role": "system", "content": SYSTEM},
        {
            "role": "user",
            "content": f"Product: {product}\nLanguage: {request.language}{as_of}\n"
            f"Sections:\n{sections}\nNodes:\n{nodes}\nRelations:\n{edges or '(none)'}",
        },
    ]


def repair_message(failures: list[tuple[str, str, list[int], str]]) -> dict[str, str]:
    """Sent once after the first answer: (section, text, nodes, reason) per failing claim."""
    listed = "\n".join(
        f"- section {section}: {json.dumps(text, ensure_ascii=False)} nodes={nodes} "
        f"→ rejected: {reason}"
        for section, text, nodes, reason in failures
    )
    return {
        "role": "user",
        "content": "These claims were rejected by the checks:\n" + listed + "\nAnswer with a "
        'JSON object {"sections": [...]} holding only these claims, corrected, in the same '
        "sections and the same order. To give a claim up, return it with an empty text. "
        "Cite only listed node numbers; write only numbers found in the cited quotes; cite a "
        "node only where its quotes name it, and two related nodes together only where the "
        "relation's quote names both.",
    }


# --- the offline engine --------------------------------------------------------------------

NODE_SECTION = {
    "product": "problem",
    "insight": "problem",
    "market": "segments",
    "segment": "segments",
    "job": "jobs",
    "trigger": "jobs",
    "pain": "pains",
    "alternative": "alternatives",
    "competitor": "alternatives",
    "goal": "goals",
    "metric": "goals",
    "feature": "requirements",
    "risk": "risks",
}
EDGE_SECTION = {
    "targets_market": "segments",
    "serves": "segments",
    "values": "segments",
    "has_job": "jobs",
    "triggered_by": "jobs",
    "blocks": "jobs",
    "caused_by": "jobs",
    "experiences": "pains",
    "uses": "alternatives",
    "addresses": "alternatives",
    "offers": "alternatives",
    "competes_with": "alternatives",
    "targets": "alternatives",
    "has_feature": "requirements",
    "solves": "requirements",
    "supports": "requirements",
    "threatens": "risks",
}


def _names(node: NodeLine, quote: str) -> bool:
    return names_grounded([node.label, *node.aliases], quote)


def _bare(label: str) -> str:
    return " ".join(label.split()).rstrip(" .;:")


def _edge_section(edge: EdgeLine, by_number: dict[int, NodeLine]) -> str:
    if edge.relation == "measured_by":
        return "goals" if by_number[edge.source].type == "goal" else "pains"
    return EDGE_SECTION.get(edge.relation, "")


def _rank(node: NodeLine) -> tuple[int, int]:
    """Most evidenced first, then the oldest node."""
    return (-node.evidence_count, node.number)


def _stated(edge: EdgeLine, by_number: dict[int, NodeLine]) -> bool:
    """One of the relation's own quotes names both of its nodes."""
    source, target = by_number[edge.source], by_number[edge.target]
    return any(_names(source, q) and _names(target, q) for q in edge.quotes)


def _grounded_parts(
    edges: list[EdgeLine],
    by_number: dict[int, NodeLine],
    story_text: dict[str, str],
    edge_text: dict[str, str],
    add: Callable[[str, int, str, list[int]], bool],
) -> None:
    """Target users' top pains, user stories and acceptance criteria: each only from
    relations whose quotes name both of their nodes."""
    stated = [e for e in edges if _stated(e, by_number)]
    by_segment: dict[int, list[EdgeLine]] = {}
    for edge in stated:
        if edge.relation == "experiences":
            by_segment.setdefault(edge.source, []).append(edge)
    for segment, found in by_segment.items():
        found.sort(key=lambda e: _rank(by_number[e.target]))
        for edge in found[:SEGMENT_TOP_PAINS]:
            text = edge_text["experiences"].format(
                s=_bare(by_number[segment].label), t=_bare(by_number[edge.target].label)
            )
            add("segments", segment, text, [segment, edge.target])
    # As <segment>, I want <feature>, so that <job>: the segment has the job, the feature
    # supports it.
    has_job = [e for e in stated if e.relation == "has_job"]
    supports = [e for e in stated if e.relation == "supports"]
    for job_edge in has_job:
        for feature_edge in supports:
            if feature_edge.target != job_edge.target:
                continue
            segment, job = by_number[job_edge.source], by_number[job_edge.target]
            feature = by_number[feature_edge.source]
            text = story_text["story"].format(
                s=_bare(segment.label), f=_bare(feature.label), j=_bare(job.label)
            )
            add("user_stories", feature.number, text, [segment.number, feature.number, job.number])
    # A requirement is accepted when the pain it solves no longer happens.
    for edge in stated:
        if edge.relation != "solves":
            continue
        feature, pain = by_number[edge.source], by_number[edge.target]
        text = story_text["acceptance"].format(f=_bare(feature.label), p=_bare(pain.label))
        add("acceptance", feature.number, text, [feature.number, pain.number])


def offline_answer(request: WriterRequest) -> WriterResponse:
    language = request.language if request.language in NODE_TEMPLATES else "en"
    node_text, edge_text = NODE_TEMPLATES[language], EDGE_TEMPLATES[language]
    by_number = {n.number: n for n in request.nodes}
    wanted = {s.key for s in request.sections}
    # Each claim is filed under an anchor node of the section, so a section reads node by node.
    filed: dict[str, dict[int, list[DraftClaim]]] = {key: {} for key in wanted}

    def add(section: str, anchor: int, text: str, nodes: list[int]) -> bool:
        quotes = [q for n in nodes for q in by_number[n].quotes]
        if section not in filed or uncovered_numbers(text, quotes):
            return False
        filed[section].setdefault(anchor, []).append(DraftClaim(text=text, nodes=nodes))
        return True

    mentioned: dict[str, set[int]] = {key: set() for key in wanted}
    edges = sorted(
        (e for e in request.edges if e.source in by_number and e.target in by_number),
        key=lambda e: (e.relation, e.source, e.target),
    )
    for edge in edges:
        section = _edge_section(edge, by_number)
        template = edge_text.get(edge.relation)
        if not section or template is None or section not in filed:
            continue
        source, target = by_number[edge.source], by_number[edge.target]
        if not any(_names(source, q) and _names(target, q) for q in edge.quotes):
            continue  # the relation's quote does not name both: each node is written alone
        own = {t for t, s in NODE_SECTION.items() if s == section}
        anchor = target if target.type in own and source.type not in own else source
        text = template.format(s=_bare(source.label), t=_bare(target.label))
        if add(section, anchor.number, text, [source.number, target.number]):
            mentioned[section].update({source.number, target.number})

    for node in sorted(request.nodes, key=_rank):
        section = NODE_SECTION.get(node.type, "")
        if section not in filed or node.number in mentioned[section]:
            continue
        if node.type == "metric" and node.value and node.value not in node.label:
            text = node_text["metric_value"].format(a=_bare(node.label), v=_bare(node.value))
        else:
            text = node_text[node.type].format(a=_bare(node.label))
        if uncovered_numbers(text, node.quotes):
            continue
        # A node's own claim opens its group, before the relations filed under it.
        claim = DraftClaim(text=text, nodes=[node.number])
        filed[section].setdefault(node.number, []).insert(0, claim)

    pains = sorted((n for n in request.nodes if n.type == "pain"), key=_rank)
    for pain in pains[:PROBLEM_TOP_PAINS]:
        add("problem", pain.number, node_text["problem"].format(a=_bare(pain.label)), [pain.number])

    _grounded_parts(edges, by_number, STORY_TEMPLATES[language], edge_text, add)

    sections = []
    for spec in request.sections:
        groups = filed[spec.key]
        anchors = sorted(groups, key=lambda number: _rank(by_number[number]))
        claims = [claim for anchor in anchors for claim in groups[anchor]]
        sections.append(SectionDraft(key=spec.key, claims=claims))
    return WriterResponse(sections=sections)


OPERATION: LLMOperation[WriterRequest, WriterResponse] = LLMOperation(
    name="prd_writer",
    response_model=WriterResponse,
    build_messages=build_messages,
    offline_answer=offline_answer,
)
