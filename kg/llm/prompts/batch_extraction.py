"""Operation `batch_extraction`: one call extracts several imported messages at once.

Bulk imports (kg_ingest, uploads, documents and exports) bring thousands of short messages; one
call per message would cost as many calls. This operation sends a few numbered messages with
the known nodes they most likely speak about and takes back one item per message, in the shape
of an `extraction` answer. Each item is checked against its own message only
(kg.pipeline.batch), exactly as a single extraction is: a quote found in a neighbour is rejected.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from kg.llm.gateway import StructuredOperation
from kg.llm.offline.extractor import extract_offline
from kg.llm.prompts.extraction import (
    RECORD_READINGS,
    SchemaNode,
    SchemaRelation,
    _Strict,
    extraction_messages,
)
from kg.llm.prompts.extraction_models import (
    CandidateNode,
    CandidateRelation,
    ExtractionRequest,
    KnownNode,
    Records,
)

# The prompt lists at most this many existing nodes for the whole batch.
MAX_BATCH_KNOWN_NODES = 24


class BatchMessage(BaseModel):
    id: int
    text: str
    records: Records = ""  # as ExtractionRequest.records


class BatchExtractionRequest(BaseModel):
    messages: list[BatchMessage]
    language: str = "en"
    product: str = ""
    project_name: str = ""
    known_subjects: list[str] = Field(default_factory=list)
    known_nodes: list[KnownNode] = Field(default_factory=list)


class BatchItem(BaseModel):
    message: int = Field(description="The id of the message these nodes come from.")
    nodes: list[CandidateNode] = Field(default_factory=list)
    relations: list[CandidateRelation] = Field(default_factory=list)


class BatchExtractionResponse(BaseModel):
    items: list[BatchItem] = Field(default_factory=list)


class BatchSchemaItem(_Strict):
    message: int = Field(description="The id of the message these nodes come from.")
    nodes: list[SchemaNode]
    relations: list[SchemaRelation]


# Sent as response_format; the answer itself is parsed with BatchExtractionResponse.
class BatchExtractionSchema(_Strict):
    items: list[BatchSchemaItem]


SYSTEM_HEAD = """You extract product-research facts from several messages of a product manager's
notes, each message on its own. Answer with one JSON object:
{"items": [{"message": <message id>, "nodes": [...], "relations": [...]}, ...]}, one item per
message, in the order given, also for a message with nothing to extract (empty lists).
Node: {"ref": "n1", "type": <node type>, "label": <whole phrase>, "quote": <verbatim words>,
"value": <metric value with numbers, else "">, "subject": <what an opinion is about, else "">,
"stance": "positive"|"negative"|"", "aliases": [], "same_as": <known node number or null>}.
Relation: {"relation": <name>, "source": <ref>, "target": <ref>, "quote": <verbatim words>}.
Every quote is copied from the item's own message; refs are local to the item; a relation
joins two nodes stated in the same message. Known nodes are facts the project already holds,
each with its number. When a message states one of them again (in any words), still extract
it with its own quote and set "same_as" to its number; leave "same_as" null for anything new.
A relation may name a known node as "#<number>" in place of a ref, when the message itself
states the relation."""


def build_messages(request: BatchExtractionRequest) -> list[dict[str, str]]:
    return extraction_messages(
        SYSTEM_HEAD,
        product=request.product,
        language=request.language,
        known_subjects=request.known_subjects,
        known_nodes=request.known_nodes[:MAX_BATCH_KNOWN_NODES],
        text="\n".join(["Messages:", *(_message(m) for m in request.messages)]),
    )


def _message(message: BatchMessage) -> str:
    reading = RECORD_READINGS.get(message.records)
    told = f"\n(This message is {reading})" if reading else ""
    return f"--- message {message.id} ---{told}\n{message.text}"


def _offline(request: BatchExtractionRequest) -> BatchExtractionResponse:
    """The offline engine's rules, message by message, with the batch's known nodes."""
    items = []
    for message in request.messages:
        answer = extract_offline(
            ExtractionRequest(
                text=message.text,
                records=message.records,
                language=request.language,
                product=request.product,
                project_name=request.project_name,
                known_subjects=request.known_subjects,
                known_nodes=request.known_nodes,
            )
        )
        items.append(BatchItem(message=message.id, nodes=answer.nodes, relations=answer.relations))
    return BatchExtractionResponse(items=items)


OPERATION: StructuredOperation[BatchExtractionRequest, BatchExtractionResponse] = (
    StructuredOperation(
        name="batch_extraction",
        response_model=BatchExtractionResponse,
        build_messages=build_messages,
        offline_answer=_offline,
        schema_model=BatchExtractionSchema,
    )
)
