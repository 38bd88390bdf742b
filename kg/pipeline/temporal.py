"""Step 4, time: a functional relation holds one value at a time.

A newer value closes the older edge (invalid_at = the newer valid_at) and records a
SUPERSEDED_BY link; an episode with an older valid_at that arrives late is placed in history:
its edge is closed by the newer one at once, and never closes the newer fact. Values with the
same valid_at (several stated in one message) are all kept valid.
"""

from __future__ import annotations

from dataclasses import dataclass

from kg.graph import EdgeRecord, SupersessionRecord
from kg.ontology import RELATIONS


@dataclass
class TimelineChange:
    edges: list[EdgeRecord]  # edges whose invalid_at changed (the new one included)
    supersessions: list[SupersessionRecord]


def place_functional_edge(new: EdgeRecord, existing: list[EdgeRecord]) -> TimelineChange:
    """Place `new` among the other values of its functional relation from the same source."""
    if not RELATIONS[new.relation].functional:
        return TimelineChange(edges=[], supersessions=[])
    siblings = [
        e
        for e in existing
        if e.relation == new.relation
        and e.source == new.source
        and e.uid != new.uid
        and e.target != new.target
    ]
    changed: list[EdgeRecord] = []
    supersessions: list[SupersessionRecord] = []
    # The newest value before `new` is closed by it, if it was still open at new.valid_at.
    # Values stated at the same moment (two markets in one message) both hold: closing one by
    # the other would leave it a validity of zero length.
    older = [e for e in siblings if e.valid_at < new.valid_at]
    for edge in older:
        if edge.invalid_at is None or edge.invalid_at > new.valid_at:
            edge.invalid_at = new.valid_at
            changed.append(edge)
            supersessions.append(
                SupersessionRecord(
                    old=edge.target, new=new.target, relation=new.relation, at=new.valid_at
                )
            )
    # A value already known from later closes `new` (late arrival goes into history).
    newer = sorted((e for e in siblings if e.valid_at > new.valid_at), key=lambda e: e.valid_at)
    if newer:
        first = newer[0]
        if new.invalid_at is None or new.invalid_at > first.valid_at:
            new.invalid_at = first.valid_at
            supersessions.append(
                SupersessionRecord(
                    old=new.target, new=first.target, relation=new.relation, at=first.valid_at
                )
            )
    changed.append(new)
    return TimelineChange(edges=changed, supersessions=supersessions)
