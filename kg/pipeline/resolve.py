"""Step 2, resolve: is a candidate an existing node (within project and type) or a new one?

The ladder: exact normalised key or alias → rapidfuzz score above MERGE_AT merges, below
CREATE_BELOW creates → the model confirms only in between, for at most CONFIRM_AT_MOST of the
best-scoring nodes (the same thing said in other words often scores only 35-55).
Metrics or goals with different numbers, or opposite stances (opinions) are never merged:
they are different facts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from kg.graph import NodeRecord
from kg.pipeline.evidence import normalise, numbers_in

MERGE_AT = 88.0
CREATE_BELOW = 30.0
CONFIRM_AT_MOST = 3

_LEADING = re.compile(r"^(the|a|an|our|their|its)\s+")
_PUNCT = re.compile(r"[^\w\s%]+", re.UNICODE)


def node_key(label: str) -> str:
    """The normalised key two labels must share to be the same node."""
    key = _PUNCT.sub(" ", normalise(label).lower())
    key = " ".join(key.split())
    return _LEADING.sub("", key)


@dataclass(frozen=True)
class Mention:
    node_type: str
    label: str
    quote: str
    stance: str = ""
    value: str = ""

    @property
    def key(self) -> str:
        return node_key(self.label)


@dataclass(frozen=True)
class Resolution:
    method: str  # exact | fuzzy | llm | new
    node: NodeRecord | None  # the existing node, None when a new one is to be made
    score: float | None = None
    compared: str = ""


Confirm = Callable[[Mention, NodeRecord], bool]


NUMERIC_TYPES = {"metric", "goal"}  # for these, a different number is a different fact


def _compatible(mention: Mention, node: NodeRecord) -> bool:
    if mention.stance and node.stance and mention.stance != node.stance:
        return False
    if mention.node_type not in NUMERIC_TYPES:
        return True
    return sorted(numbers_in(f"{mention.label} {mention.value}")) == sorted(
        numbers_in(f"{node.label} {node.value}")
    )


def resolve_candidate(mention: Mention, existing: list[NodeRecord], confirm: Confirm) -> Resolution:
    """Decide for one mention against the active nodes of its type in its project."""
    candidates = [
        n
        for n in existing
        if n.type == mention.node_type and n.invalid_at is None and _compatible(mention, n)
    ]
    key = mention.key
    for node in candidates:
        if key == node.key or key in node.alias_keys:
            return Resolution("exact", node, 100.0, node.label)
    choices: dict[int, str] = {}
    owners: list[NodeRecord] = []
    for node in candidates:
        for alias in [node.key, *node.alias_keys]:
            choices[len(owners)] = alias
            owners.append(node)
    if not choices:
        return Resolution("new", None)
    ranked = process.extract(key, choices, scorer=fuzz.token_sort_ratio, limit=20)
    seen: set[str] = set()
    asked = 0
    for _, score, index in ranked:
        node = owners[index]
        if node.uid in seen:
            continue  # a node's best alias already decided for it
        seen.add(node.uid)
        if score >= MERGE_AT:
            return Resolution("fuzzy", node, score, node.label)
        if score < CREATE_BELOW or asked >= CONFIRM_AT_MOST:
            break
        asked += 1
        if confirm(mention, node):
            return Resolution("llm", node, score, node.label)
    best = ranked[0]
    return Resolution("new", None, best[1], owners[best[2]].label)
