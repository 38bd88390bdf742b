"""Operation `extraction`: one call per episode returns candidate nodes and relations.

Each candidate must carry a verbatim quote from the episode; the system checks every quote,
type, relation and metric number at write time (kg.pipeline.extract).
"""

from __future__ import annotations

import json

from pydantic import BaseModel, Field

from kg.llm.operation import LLMOperation
from kg.ontology import RELATIONS, as_dict


class CandidateNode(BaseModel):
    ref: str = Field(description="A local id such as n1, used by relations in this answer.")
    type: str = Field(description="One of the ontology's node types.")
    label: str = Field(description="A short canonical name, e.g. 'App lags on weak internet'.")
    quote: str = Field(description="The exact words of the message that state it, verbatim.")
    value: str = Field(default="", description="For metrics: the value with its numbers.")
    subject: str = Field(
        default="", description="What an opinion is about (e.g. 'price'), for contradictions."
    )
    stance: str = Field(default="", description="positive, negative or empty.")
    aliases: list[str] = Field(default_factory=list)


class CandidateRelation(BaseModel):
    relation: str
    source: str = Field(description="ref of the source node")
    target: str = Field(description="ref of the target node")
    quote: str = Field(description="The exact words that state the relation, verbatim.")


class ExtractionResponse(BaseModel):
    nodes: list[CandidateNode] = Field(default_factory=list)
    relations: list[CandidateRelation] = Field(default_factory=list)


class ExtractionRequest(BaseModel):
    text: str
    language: str = "en"
    product: str = Field(description="The name of the project's own product.")


SYSTEM = """You extract product-research facts from one message of a product manager's notes.
Answer with one JSON object: {"nodes": [...], "relations": [...]}.
Node: {"ref": "n1", "type": <node type>, "label": <short name>, "quote": <verbatim words>,
"value": <metric value with numbers, else "">, "subject": <what an opinion is about, else "">,
"stance": "positive"|"negative"|"", "aliases": []}.
Relation: {"relation": <name>, "source": <ref>, "target": <ref>, "quote": <verbatim words>}.
Rules: use only the node types and relations of the ontology below, with their allowed
(source type, target type) pairs. Every quote must be copied word for word from the message.
Every number in a metric's value must appear in its quote. The product itself is a node of
type "product" labelled with the product's name. Do not invent facts not in the message.
Ontology: """


def build_messages(request: ExtractionRequest) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": SYSTEM + json.dumps(as_dict(), sort_keys=True)},
        {
            "role": "user",
            "content": f"Product: {request.product}\nLanguage: {request.language}\n"
            f"Message:\n{request.text}",
        },
    ]


def repair_message(reasons: list[str]) -> dict[str, str]:
    """Sent after the first answer when some items were rejected."""
    listed = "\n".join(f"- {reason}" for reason in reasons)
    return {
        "role": "user",
        "content": "Some items were rejected:\n" + listed + "\nAnswer again with the whole "
        "corrected JSON object. Copy quotes word for word from the message; drop what the "
        "message does not say.",
    }


def _offline(request: ExtractionRequest) -> ExtractionResponse:
    from kg.llm.offline.extractor import extract_offline

    return extract_offline(request)


OPERATION: LLMOperation[ExtractionRequest, ExtractionResponse] = LLMOperation(
    name="extraction",
    response_model=ExtractionResponse,
    build_messages=build_messages,
    offline_answer=_offline,
)

RELATION_NAMES = tuple(RELATIONS)
