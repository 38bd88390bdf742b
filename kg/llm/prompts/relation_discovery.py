"""Operation `relation_discovery`: edges between this episode's nodes and existing nodes.

The model sees numbered nodes and the episode; it answers with pairs of numbers, a relation
and a verbatim quote from the episode. The system keeps only ontology-allowed triples whose
quote is in the episode and whose ends exist.
"""

from __future__ import annotations

import json
import re

from pydantic import BaseModel, Field

from kg.llm.operation import LLMOperation
from kg.ontology import RELATIONS


class NodeBrief(BaseModel):
    number: int
    type: str
    label: str
    aliases: list[str] = Field(default_factory=list)


class DiscoveryRequest(BaseModel):
    text: str
    new_nodes: list[NodeBrief]
    existing_nodes: list[NodeBrief]


class ProposedEdge(BaseModel):
    relation: str
    source: int
    target: int
    quote: str


class DiscoveryResponse(BaseModel):
    edges: list[ProposedEdge] = Field(default_factory=list)


SYSTEM = (
    "You link facts in product research. Given one message, the nodes it added (new) and nodes "
    "known before (existing), propose relations between a new and an existing node that the "
    "message states. Answer with one JSON object: "
    '{"edges": [{"relation": <name>, "source": <node number>, "target": <node number>, '
    '"quote": <words copied verbatim from the message>}]}. Allowed relations and pairs: '
)


def build_messages(request: DiscoveryRequest) -> list[dict[str, str]]:
    allowed = {
        name: sorted(f"{s.value}->{t.value}" for s, t in r.pairs) for name, r in RELATIONS.items()
    }
    return [
        {"role": "system", "content": SYSTEM + json.dumps(allowed, sort_keys=True)},
        {
            "role": "user",
            "content": "Message:\n"
            + request.text
            + "\nNew nodes:\n"
            + "\n".join(f"#{n.number} {n.type}: {n.label}" for n in request.new_nodes)
            + "\nExisting nodes:\n"
            + "\n".join(f"#{n.number} {n.type}: {n.label}" for n in request.existing_nodes),
        },
    ]


_SENTENCE = re.compile(r"[^.!?;\n]+[.!?;]?", re.UNICODE)


def _span(sentence: str, node: NodeBrief) -> tuple[int, int] | None:
    """Where the node's label (or an alias) stands in the sentence as whole words."""
    for name in [node.label, *node.aliases]:
        if not name.strip():
            continue
        found = re.search(rf"(?<!\w){re.escape(name.lower())}(?!\w)", sentence.lower())
        if found:
            return found.span()
    return None


def _relation(source: NodeBrief, target: NodeBrief) -> str | None:
    from kg.ontology import NodeType

    pair = (NodeType(source.type), NodeType(target.type))
    return next((name for name, r in RELATIONS.items() if pair in r.pairs), None)


def offline_answer(request: DiscoveryRequest) -> DiscoveryResponse:
    """Link a new node to an existing one when one sentence names both (by label or alias).

    A name inside a longer name does not count ("couriers" in "independent couriers"), and a
    pair gets one edge: the node named first is the source when the ontology allows it.
    """
    edges: list[ProposedEdge] = []
    for match in _SENTENCE.finditer(request.text):
        sentence = match.group(0).strip()
        if not sentence:
            continue
        new_here = [(n, span) for n in request.new_nodes if (span := _span(sentence, n))]
        old_here = [(n, span) for n in request.existing_nodes if (span := _span(sentence, n))]
        taken = [span for _, span in new_here]
        for new, new_span in new_here:
            for old, old_span in old_here:
                if any(
                    s[0] <= old_span[0] and old_span[1] <= s[1] and s != old_span for s in taken
                ):
                    continue  # the existing name is part of a longer new name
                first, second = (new, old) if new_span[0] <= old_span[0] else (old, new)
                for source, target in ((first, second), (second, first)):
                    relation = _relation(source, target)
                    if relation:
                        edges.append(
                            ProposedEdge(
                                relation=relation,
                                source=source.number,
                                target=target.number,
                                quote=sentence,
                            )
                        )
                        break
    return DiscoveryResponse(edges=edges)


OPERATION: LLMOperation[DiscoveryRequest, DiscoveryResponse] = LLMOperation(
    name="relation_discovery",
    response_model=DiscoveryResponse,
    build_messages=build_messages,
    offline_answer=offline_answer,
)
