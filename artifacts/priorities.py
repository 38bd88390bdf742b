"""Which requirements matter most: a RICE-like score per requirement (feature) of the PRD.

    score = reach × impact × confidence
    reach      = distinct people whose messages mention the requirement
                 + distinct segments it serves (at least 1)
    impact     = 1 + the pains it answers and the jobs it supports
                 + 1 when a quote of it recommends or requests it ("we recommend …")
                 + 1 when the pain is severe: a quote of the requirement or of a pain it
                   answers says something fails or cannot be done ("unable to", "did not")
    confidence = the node's confidence / 100

A requirement answers a pain it solves (an edge) or a pain stated in the same sentence (their
quotes overlap in one message: "Requesters did not receive an email confirmation" is both the
pain and what to build). A segment is served when it experiences a pain the requirement
answers, has a job it supports (edges), or is named in the same sentence as the requirement.
People are the authors of the messages behind the node's evidence; sources are those messages
(a document's chunks count once, by file). Ties go to more sources, then to the newer evidence
(recency), then to the lower node number. Every part is read from the graph: nothing is
guessed, and the PRD shows each part next to the requirement ("why this rank").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass

from kg.read_models import ContextEdge, ContextNode, EvidenceView

RECOMMENDED_IMPACT = 1
SEVERE_IMPACT = 1
# Words by which a quote says something fails or cannot be done (EN, RU): the pain is felt,
# not only named.
SEVERE = re.compile(
    r"\b(?:unable|cannot|can['’]?t|couldn['’]?t|(?:did|does|do|could|would|was|were|is|are)"
    r"(?:\s+not|n['’]t)|not\s+(?:available|able|possible|clear|working)|no\s+way|impossible"
    r"|difficult\w*|hard\s+to|struggl\w*|confus\w*|frustrat\w*|fail\w*|lost|los(?:e|es|ing)"
    r"|forg[eo]t\w*|broken|error\w*|annoy\w*|complain\w*|lack\w*)\b"
    r"|(?<!\w)(?:не\s+(?:мо[жг]\w*|смог\w*|работа\w*|получа\w*|понима\w*|понят\w*)"
    r"|невозможно|трудно|сложно|неудобно|ошибк\w*|теря\w*|потеря\w*|жалу\w*|забыва\w*)(?!\w)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Named:
    number: int
    label: str


@dataclass(frozen=True)
class Priority:
    """One requirement's score and its parts, as the PRD shows them."""

    node: int
    label: str
    rank: int
    score: float
    reach: int
    impact: int
    confidence: int
    people: int
    sources: int
    latest: str  # ISO date of the newest evidence
    recommended: bool
    segments: tuple[Named, ...]
    pains: tuple[Named, ...]
    jobs: tuple[Named, ...]
    severe: bool = False

    def as_report(self) -> dict:
        return asdict(self)

    @classmethod
    def of(cls, data: dict) -> Priority:
        def named(items: list) -> tuple[Named, ...]:
            return tuple(Named(int(i["number"]), str(i["label"])) for i in items)

        return cls(
            node=int(data["node"]),
            label=str(data["label"]),
            rank=int(data["rank"]),
            score=float(data["score"]),
            reach=int(data["reach"]),
            impact=int(data["impact"]),
            confidence=int(data["confidence"]),
            people=int(data["people"]),
            sources=int(data["sources"]),
            latest=str(data["latest"]),
            recommended=bool(data["recommended"]),
            severe=bool(data.get("severe", False)),
            segments=named(data.get("segments", [])),
            pains=named(data.get("pains", [])),
            jobs=named(data.get("jobs", [])),
        )


def _targets(edges: Sequence[ContextEdge], source: int, relation: str) -> list[int]:
    return sorted({e.target for e in edges if e.source == source and e.relation == relation})


def _sources_of(edges: Sequence[ContextEdge], targets: Collection[int], relation: str) -> set[int]:
    return {e.source for e in edges if e.target in targets and e.relation == relation}


def _overlap(a: EvidenceView, b: EvidenceView) -> bool:
    return a.episode_uid == b.episode_uid and a.start < b.end and b.start < a.end


def same_sentence(a: ContextNode, b: ContextNode) -> bool:
    """Quotes of the two nodes overlap in one message: one sentence states both."""
    return any(_overlap(e, f) for e in a.evidence for f in b.evidence)


def source_count(evidence: Sequence[EvidenceView]) -> int:
    """Distinct sources: a document's chunks count once (by its file), a message once."""
    return len({e.file or e.episode_uid for e in evidence})


def severe(*quotes: str) -> bool:
    """A quote says something fails or cannot be done (the pain is felt, not only named)."""
    return any(SEVERE.search(quote) for quote in quotes)


def prioritise(
    nodes: Sequence[ContextNode],
    edges: Sequence[ContextEdge],
    recommended: Collection[int] = (),
    left_out: Collection[int] = (),
) -> list[Priority]:
    """The context's requirements, best first. `recommended`: node numbers a quote recommends;
    `left_out`: node numbers the PRD does not state (sides of open contradictions)."""
    by_number = {n.number: n for n in nodes}
    shown_of_type: dict[str, list[ContextNode]] = {}
    for n in nodes:
        if n.number not in left_out:
            shown_of_type.setdefault(n.type, []).append(n)
    found = []
    for node in nodes:
        if node.type != "feature" or node.number in left_out:
            continue

        def shown(number: int, node_type: str) -> bool:
            found = by_number.get(number)
            return found is not None and found.type == node_type and number not in left_out

        def said_with(node_type: str, node: ContextNode = node) -> set[int]:
            return {n.number for n in shown_of_type.get(node_type, ()) if same_sentence(node, n)}

        solved = {n for n in _targets(edges, node.number, "solves") if shown(n, "pain")}
        pains = sorted(solved | said_with("pain"))
        jobs = [n for n in _targets(edges, node.number, "supports") if shown(n, "job")]
        served = _sources_of(edges, pains, "experiences") | _sources_of(edges, jobs, "has_job")
        segments = sorted({n for n in served if shown(n, "segment")} | said_with("segment"))
        people = {e.author.strip().casefold() for e in node.evidence if e.author.strip()}
        asked = node.number in recommended
        felt = severe(
            *(e.quote for e in node.evidence),
            *(e.quote for n in pains for e in by_number[n].evidence),
        )
        reach = max(len(people) + len(segments), 1)
        impact = (
            1
            + len(pains)
            + len(jobs)
            + (RECOMMENDED_IMPACT if asked else 0)
            + (SEVERE_IMPACT if felt else 0)
        )
        score = round(reach * impact * node.confidence / 100, 2)
        found.append(
            (
                node,
                dict(
                    score=score,
                    reach=reach,
                    impact=impact,
                    confidence=node.confidence,
                    people=len(people),
                    sources=source_count(node.evidence),
                    latest=max(e.date for e in node.evidence)[:10],
                    recommended=asked,
                    severe=felt,
                    segments=tuple(Named(n, by_number[n].label) for n in segments),
                    pains=tuple(Named(n, by_number[n].label) for n in pains),
                    jobs=tuple(Named(n, by_number[n].label) for n in jobs),
                ),
            )
        )
    found.sort(key=lambda item: item[0].number)
    # Recency by the newest evidence's full time: many messages share a day.
    found.sort(
        key=lambda item: (
            item[1]["score"],
            item[1]["recommended"],
            item[1]["sources"],
            max(e.date for e in item[0].evidence),
        ),
        reverse=True,
    )
    return [
        Priority(node=node.number, label=node.label, rank=rank, **parts)
        for rank, (node, parts) in enumerate(found, start=1)
    ]
