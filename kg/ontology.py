"""The ontology: the single source of truth for node types and the relations between them.

Graph relationship types are generated from this module only, never from model or user text.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class NodeType(StrEnum):
    PRODUCT = "product"
    MARKET = "market"
    SEGMENT = "segment"
    PAIN = "pain"
    JOB = "job"
    TRIGGER = "trigger"
    ALTERNATIVE = "alternative"
    COMPETITOR = "competitor"
    FEATURE = "feature"
    METRIC = "metric"
    GOAL = "goal"
    RISK = "risk"
    INSIGHT = "insight"


@dataclass(frozen=True)
class Relation:
    name: str
    pairs: frozenset[tuple[NodeType, NodeType]]
    functional: bool = False
    description: str = ""

    @property
    def graph_type(self) -> str:
        return self.name.upper()


def _pairs(sources: tuple[NodeType, ...], targets: tuple[NodeType, ...]) -> frozenset:
    return frozenset((s, t) for s in sources for t in targets)


N = NodeType
RELATIONS: dict[str, Relation] = {
    r.name: r
    for r in [
        Relation(
            "targets_market",
            _pairs((N.PRODUCT,), (N.MARKET,)),
            functional=True,
            description="the market the product targets; one at a time",
        ),
        Relation("serves", _pairs((N.PRODUCT,), (N.SEGMENT,))),
        Relation("has_feature", _pairs((N.PRODUCT,), (N.FEATURE,))),
        Relation("experiences", _pairs((N.SEGMENT,), (N.PAIN,))),
        Relation("has_job", _pairs((N.SEGMENT,), (N.JOB,))),
        Relation("triggered_by", _pairs((N.SEGMENT,), (N.TRIGGER,))),
        Relation("uses", _pairs((N.SEGMENT,), (N.ALTERNATIVE, N.COMPETITOR))),
        Relation("blocks", _pairs((N.PAIN,), (N.JOB,))),
        Relation("caused_by", _pairs((N.TRIGGER,), (N.PAIN,))),
        Relation("addresses", _pairs((N.ALTERNATIVE, N.COMPETITOR), (N.PAIN,))),
        Relation("offers", _pairs((N.COMPETITOR,), (N.FEATURE,))),
        Relation("competes_with", _pairs((N.COMPETITOR,), (N.PRODUCT,))),
        Relation("targets", _pairs((N.COMPETITOR,), (N.SEGMENT,))),
        Relation("solves", _pairs((N.FEATURE,), (N.PAIN,))),
        Relation("supports", _pairs((N.FEATURE,), (N.JOB,))),
        Relation("measured_by", _pairs((N.GOAL, N.PAIN), (N.METRIC,))),
        Relation("threatens", _pairs((N.RISK,), (N.GOAL, N.PRODUCT, N.FEATURE))),
        Relation("values", _pairs((N.SEGMENT,), (N.INSIGHT,))),
    ]
}

# Links the system itself writes; the model can never propose them.
SYSTEM_LINKS = ("CONTRADICTS", "SUPERSEDED_BY")
NODE_TYPES: tuple[str, ...] = tuple(t.value for t in NodeType)


# How node types are called in the project's language (the PRD, the chat, the panel).
TYPE_NAMES_RU: dict[str, str] = {
    "product": "продукт",
    "market": "рынок",
    "segment": "сегмент",
    "pain": "боль",
    "job": "задача",
    "trigger": "триггер",
    "alternative": "альтернатива",
    "competitor": "конкурент",
    "feature": "функция",
    "metric": "метрика",
    "goal": "цель",
    "risk": "риск",
    "insight": "инсайт",
}


def type_name(node_type: str, language: str) -> str:
    if language == "ru":
        return TYPE_NAMES_RU.get(node_type, node_type)
    return node_type


class OntologyError(ValueError):
    """A type or relation outside the ontology."""


def check_node_type(value: str) -> NodeType:
    try:
        return NodeType(value)
    except ValueError:
        raise OntologyError(
            f"node type {value!r} is not in the ontology ({', '.join(NODE_TYPES)})"
        ) from None


def check_relation(name: str, source: str, target: str) -> Relation:
    relation = RELATIONS.get(name)
    if relation is None:
        raise OntologyError(f"relation {name!r} is not in the ontology")
    if (source, target) not in {(s.value, t.value) for s, t in relation.pairs}:
        raise OntologyError(f"relation {name!r} does not allow {source} → {target}")
    return relation


def as_dict() -> dict:
    """The ontology as plain data, for exports and the API."""
    return {
        "node_types": list(NODE_TYPES),
        "relations": [
            {
                "name": r.name,
                "functional": r.functional,
                "pairs": sorted([s.value, t.value] for s, t in r.pairs),
            }
            for r in RELATIONS.values()
        ],
        "system_links": list(SYSTEM_LINKS),
    }
