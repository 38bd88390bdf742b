"""What the pages need to correct the graph: the nodes a merge can pick by name, and the
project's last corrections, each with whether it still holds (an undo may have reverted it)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from kg.graph import NodeRecord, store
from kg.models import Correction, CorrectionAction, Project, reverted_numbers

RECENT = 10
MAX_WORDS = 200


def merge_candidates(
    project: Project, number: int, words: str, limit: int = 20
) -> list[NodeRecord]:
    """Open nodes of node #number's type, in this project, named with `words` (label or alias),
    other than itself: the ones a merge can pick."""
    words = " ".join((words or "").split())[:MAX_WORDS]
    scope = project.graph_scope
    node = store.node_by_number(scope, number)
    if not words or node is None or node.invalid_at is not None:
        return []
    return store.nodes_named_like(scope, node.type, words, exclude=[node.uid], limit=limit)


@dataclass(frozen=True)
class RecentCorrection:
    number: int
    action: str
    label: str  # the action, in words
    nodes: list[tuple[int, str]]  # (number, label) of the nodes it acted on, as they are now
    who: str
    at: dt.datetime
    note: str
    reverts: int | None  # an undo: the correction it reverts
    undone: bool  # reverted by a later undo (that holds)


def recent_corrections(project: Project, limit: int = RECENT) -> list[RecentCorrection]:
    """The project's last `limit` corrections, newest first."""
    rows = list(Correction.objects.filter(project=project).order_by("-number")[:limit])
    undos = list(Correction.objects.filter(project=project, action=CorrectionAction.UNDO))
    reverted = reverted_numbers(undos)
    uids = {u for c in rows for u in (c.node_uid, c.other_uid) if u}
    nodes = {n.uid: n for n in store.nodes_by_uids(project.graph_scope, sorted(uids))}
    return [
        RecentCorrection(
            number=c.number,
            action=c.action,
            label=c.get_action_display(),
            nodes=[
                (nodes[u].number, nodes[u].label) for u in (c.node_uid, c.other_uid) if u in nodes
            ],
            who=c.author_name,
            at=c.created_at,
            note=c.note,
            reverts=(c.params or {}).get("reverts") if c.action == CorrectionAction.UNDO else None,
            undone=c.number in reverted,
        )
        for c in rows
    ]
