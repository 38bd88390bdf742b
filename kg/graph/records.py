"""Typed records that go in and out of the graph functions."""

from __future__ import annotations

import bisect
import datetime as dt
import json

from pydantic import BaseModel, Field, TypeAdapter


def graph_time(moment: dt.datetime) -> str:
    """Graph times are ISO-8601 UTC strings: no temporal values in the graph (DESIGN §2).

    The year is written with four digits (strftime's %Y writes year 1 as "1"), so the strings
    are ISO-8601 and sort like the times they name."""
    utc = moment.astimezone(dt.UTC)
    return f"{utc.year:04d}-{utc:%m-%dT%H:%M:%S.%f}Z"


class GraphScope(BaseModel):
    """Every graph function takes one: nothing is read or written outside a project."""

    org: str
    project: str

    model_config = {"frozen": True}


class Evidence(BaseModel):
    episode_uid: str
    episode_number: int
    quote: str
    start: int
    end: int
    valid_at: str  # ISO-8601 UTC
    author: str = ""
    # Fingerprints of the long sentence and the long paragraph the quote sits in: the same
    # passage carried by several documents is one source (kg.pipeline.confidence).
    passages: list[str] = Field(default_factory=list)


def evidence_json(items: list[Evidence]) -> str:
    """How a record's evidence is written whole: one JSON list."""
    return json.dumps([e.model_dump() for e in items], ensure_ascii=False)


def stored_evidence(props: dict) -> list[Evidence]:
    """A record's evidence as stored (kg.graph.cypher): the JSON list in `evidence`, then the
    items appended since, in `evidence_more` and `evidence_last` (lists of strings of JSON
    items each followed by ", "; one such string in graphs written before the lists). Parsed
    and checked in one pass per property (a popular record has thousands)."""
    items = _EVIDENCE_LIST.validate_json(props["evidence"]) if props.get("evidence") else []
    for name in ("evidence_more", "evidence_last"):
        parts = props.get(name)
        if parts:
            joined = parts if isinstance(parts, str) else "".join(parts)
            # rstrip: a part that FalkorDB's string + cut short lost its last space (cypher)
            items += _EVIDENCE_LIST.validate_json(f"[{joined.rstrip().removesuffix(',')}]")
    return items


def appended_items(items: list[Evidence]) -> str:
    """Evidence items in the form they are appended in (kg.graph.cypher)."""
    return "".join(f"{json.dumps(e.model_dump(), ensure_ascii=False)}, " for e in items)


_EVIDENCE_LIST = TypeAdapter(list[Evidence])


class EpisodeStub(BaseModel):
    uid: str
    number: int
    valid_at: str


class NodeRecord(BaseModel):
    uid: str
    number: int
    type: str
    label: str
    key: str
    aliases: list[str] = Field(default_factory=list)
    alias_keys: list[str] = Field(default_factory=list)
    confidence: int = 0
    valid_at: str
    invalid_at: str | None = None
    subject: str = ""
    stance: str = ""
    value: str = ""
    evidence: list[Evidence] = Field(default_factory=list)
    # What people decided about it (kg.corrections): "" | "merged" | "rejected", the node a
    # merge put it into, and who vouched for it (a confirmation counts as a source).
    status: str = ""
    merged_into: str = ""
    confirmed_by: list[str] = Field(default_factory=list)
    # Which names (and encoder) the node's stored vector was computed from (kg.graph.store):
    # a write re-encodes a node only when this differs from its names now.
    vector_of: str = ""

    @property
    def episode_uids(self) -> list[str]:
        return sorted({e.episode_uid for e in self.evidence})

    @property
    def names(self) -> list[str]:
        return [self.label, *self.aliases]

    def to_props(self, *, evidence: bool = True) -> dict:
        """The node's graph properties; without its evidence (and the episodes of it) when
        the evidence is written apart (kg.graph.store appends new items)."""
        props = self.model_dump(exclude={"evidence"})
        if evidence:
            props["evidence"] = evidence_json(self.evidence)
            props["episodes"] = len(self.episode_uids)
        return props

    @classmethod
    def from_props(cls, props: dict) -> NodeRecord:
        data = {k: v for k, v in props.items() if k in cls.model_fields}
        data["evidence"] = stored_evidence(props)
        return cls.model_validate(data)

    def valid_as_of(self, moment: str | None) -> bool:
        if moment is None:
            return self.invalid_at is None
        return self.valid_at <= moment and (self.invalid_at is None or self.invalid_at > moment)


class EdgeRecord(BaseModel):
    uid: str
    relation: str
    source: str  # node uid
    target: str  # node uid
    confidence: int = 0
    valid_at: str
    invalid_at: str | None = None
    evidence: list[Evidence] = Field(default_factory=list)

    def to_props(self, *, evidence: bool = True) -> dict:
        props = self.model_dump(exclude={"evidence", "source", "target", "relation"})
        if evidence:
            props["evidence"] = evidence_json(self.evidence)
        return props

    @classmethod
    def from_row(cls, relation: str, source: str, target: str, props: dict) -> EdgeRecord:
        data = {k: v for k, v in props.items() if k in cls.model_fields}
        data.update(relation=relation, source=source, target=target)
        data["evidence"] = stored_evidence(props)
        return cls.model_validate(data)

    def valid_as_of(self, moment: str | None) -> bool:
        if moment is None:
            return self.invalid_at is None
        return self.valid_at <= moment and (self.invalid_at is None or self.invalid_at > moment)


def evidence_order(e: Evidence) -> tuple[str, int, int]:
    """The order a record's evidence is kept in: of time, then of episode, then of place."""
    return (e.valid_at, e.episode_number, e.start)


def add_evidence(record: NodeRecord | EdgeRecord, evidence: Evidence) -> bool:
    """Add a piece of evidence unless the record has it (same episode, same place); the list
    stays in order of time. True when it was added.

    The list is in that order (every writer adds through here), so the place is found by
    bisection, and the same episode's item at the same place, which sorts equal to it (an
    episode's time and number are its own), can only be right before it: a record's cost does
    not grow with how much was said of it."""
    items = record.evidence
    key = evidence_order(evidence)
    at = bisect.bisect_right(items, key, key=evidence_order)
    before = at
    while before > 0 and evidence_order(items[before - 1]) == key:
        before -= 1
        if items[before].episode_uid == evidence.episode_uid:
            return False
    items.insert(at, evidence)
    return True


class ContradictionRecord(BaseModel):
    uid: str
    a: str  # node uid
    b: str  # node uid
    subject: str
    status: str = "open"  # open | resolved
    quote_a: str
    quote_b: str
    opened_at: str
    resolved_at: str | None = None
    resolution: str = ""
    # What the answer decided: the statement that holds, the one it superseded, and the answer
    # (an episode) that is the evidence of the decision.
    kept: str = ""  # node uid
    superseded: str = ""  # node uid
    answer_episode: str = ""  # episode uid
    answer_number: int | None = None
    answer_quote: str = ""


class SupersessionRecord(BaseModel):
    old: str  # node uid
    new: str  # node uid
    relation: str
    at: str
    # Set when a user's answer decided it: the answer episode and its words.
    episode_uid: str = ""
    episode_number: int | None = None
    quote: str = ""


class ServerInfo(BaseModel):
    agent: str
    protocol: str
    address: str


class ListedNode(NodeRecord):
    """A node as a list shows it: without its evidence, with how many episodes back it and
    how many open contradictions it is in (both counted by the graph)."""

    sources: int = 0
    open_contradictions: int = 0


class NodeRef(BaseModel):
    """What a list shows of a node it mentions (an edge's end, a contradiction's statement)."""

    uid: str
    number: int
    type: str
    label: str
