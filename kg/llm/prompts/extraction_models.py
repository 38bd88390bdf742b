"""What the extraction operation is asked and answers: shared by the prompt for a real model
(kg.llm.prompts.extraction) and the offline engine (kg.llm.offline.extractor)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

# What an import said its records are (kg.models.RecordKind's values), "" when unsaid.
Records = Literal["", "bug_report"]

# --- what the model answers ---------------------------------------------------------------------


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
    same_as: int | None = Field(
        default=None, description="The number of the known node this one is, if it is one."
    )


class CandidateRelation(BaseModel):
    relation: str
    source: str = Field(description="ref of the source node, or #number of a known node")
    target: str = Field(description="ref of the target node, or #number of a known node")
    quote: str = Field(description="The exact words that state the relation, verbatim.")


class ExtractionResponse(BaseModel):
    nodes: list[CandidateNode] = Field(default_factory=list)
    relations: list[CandidateRelation] = Field(default_factory=list)


class KnownNode(BaseModel):
    """An existing node of the project that the message may speak about again."""

    number: int
    type: str
    label: str
    aliases: list[str] = Field(default_factory=list)


class ExtractionRequest(BaseModel):
    text: str
    language: str = "en"
    product: str = Field(
        description="The research project's name, or empty: context for the model, never a "
        "node by itself."
    )
    project_name: str = Field(
        default="",
        description="The project's name as its members wrote it, even when it only repeats "
        "the address: the project itself, so never a competitor or an alternative of it.",
    )
    records: Records = Field(
        default="",
        description="What the message is, when its import said so (kg.models.RecordKind): "
        "'bug_report' for an issue tracker's ticket; '' for chat, notes and anything unsaid.",
    )
    known_subjects: list[str] = Field(
        default_factory=list,
        description="Opinion subjects the project already uses, most used first.",
    )
    known_nodes: list[KnownNode] = Field(
        default_factory=list,
        description="Existing nodes the message most likely speaks about (candidate index).",
    )
