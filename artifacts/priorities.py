"""Which requirements matter most: a RICE-like score per requirement (feature) of the PRD.

    score = reach × impact × confidence
    reach      = distinct people whose messages mention the requirement
                 + distinct segments it serves (at least 1)
    impact     = 1 + the pains it solves and the jobs it supports
                 + 1 when a quote of it recommends or requests it ("we recommend …")
    confidence = the node's confidence / 100

A segment is served when it experiences a pain the requirement solves, or has a job it
supports (edges of the graph, both ends in the PRD's context). People are the authors of the
messages behind the node's evidence; sources are those messages. Ties go to more sources, then
to the newer evidence (recency), then to the lower node number. Every part is read from the
graph: nothing is guessed, and the PRD shows each part next to the requirement ("why this
rank").
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass

from kg.read_models import ContextEdge, ContextNode

RECOMMENDED_IMPACT = 1


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
            segments=named(data.get("segments", [])),
            pains=named(data.get("pains", [])),
            jobs=named(data.get("jobs", [])),
        )


def _targets(edges: Sequence[ContextEdge], source: int, relation: str) -> list[int]:
    return sorted({e.target for e in edges if e.source == source and e.relation == relation})


def _sources_of(edges: Sequence[ContextEdge], targets: Collection[int], relation: str) -> set[int]:
    return {e.source for e in edges if e.target in targets and e.relation == relation}


def prioritise(
    nodes: Sequence[ContextNode],
    edges: Sequence[ContextEdge],
    recommended: Collection[int] = (),
    left_out: Collection[int] = (),
) -> list[Priority]:
    """The context's requirements, best first. `recommended`: node numbers a quote recommends;
    `left_out`: node numbers the PRD does not state (sides of open contradictions)."""
    by_number = {n.number: n for n in nodes}
    found = []
    for node in nodes:
        if node.type != "feature" or node.number in left_out:
            continue

        def shown(number: int, node_type: str) -> bool:
            found = by_number.get(number)
            return found is not None and found.type == node_type and number not in left_out

        pains = [n for n in _targets(edges, node.number, "solves") if shown(n, "pain")]
        jobs = [n for n in _targets(edges, node.number, "supports") if shown(n, "job")]
        served = _sources_of(edges, pains, "experiences") | _sources_of(edges, jobs, "has_job")
        segments = sorted(n for n in served if shown(n, "segment"))
        people = {e.author.strip().casefold() for e in node.evidence if e.author.strip()}
        sources = {e.episode_uid for e in node.evidence}
        asked = node.number in recommended
        reach = max(len(people) + len(segments), 1)
        impact = 1 + len(pains) + len(jobs) + (RECOMMENDED_IMPACT if asked else 0)
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
                    sources=len(sources),
                    latest=max(e.date for e in node.evidence)[:10],
                    recommended=asked,
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
            item[1]["sources"],
            max(e.date for e in item[0].evidence),
        ),
        reverse=True,
    )
    return [
        Priority(node=node.number, label=node.label, rank=rank, **parts)
        for rank, (node, parts) in enumerate(found, start=1)
    ]
