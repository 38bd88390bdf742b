"""A node's history, oldest first: how it was extracted, which mentions joined it, what people
corrected (merges, splits, renames, rejections…), and what superseded it — with who and when."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Q

from kg.graph import NodeRecord, store
from kg.models import Correction, CorrectionAction, Project, ResolutionDecision
from kg.reading.node_trail import when

EPOCH = dt.datetime.min.replace(tzinfo=dt.UTC)


@dataclass(frozen=True)
class HistoryEntry:
    at: dt.datetime | None
    kind: str  # extraction | mention | correction | supersession
    text: str
    who: str = ""
    note: str = ""
    message: int | None = None  # the episode (message) it came from


def node_history(project: Project, node: NodeRecord) -> list[HistoryEntry]:
    """Two SQL queries and one graph read, whatever the node's evidence."""
    entries = _extraction(project, node) + _corrections(project, node)
    for s in store.supersessions_of_node(project.graph_scope, node.uid):
        if node.uid == s.old:
            entries.append(HistoryEntry(when(s.at), "supersession", f"superseded ({s.relation})"))
        elif node.uid == s.new and s.relation != "merged into":
            entries.append(HistoryEntry(when(s.at), "supersession", f"supersedes ({s.relation})"))
    return sorted(entries, key=lambda e: e.at or EPOCH)


def _extraction(project: Project, node: NodeRecord) -> list[HistoryEntry]:
    decisions = (
        ResolutionDecision.objects.filter(project=project, node_uid=node.uid)
        .select_related("episode")
        .order_by("episode__number", "id")
    )
    seen: set[tuple] = set()
    entries = []
    for d in decisions:  # a rebuild logs its decisions again: each said once
        key = (d.episode.number, d.candidate_label, d.method)
        if key in seen:
            continue
        seen.add(key)
        if d.method == "new":
            text = f"extracted as “{d.candidate_label}” ({d.node_type})"
            kind = "extraction"
        elif d.method == "correction":
            text = f"mention “{d.candidate_label}” sent here by an earlier correction"
            kind = "mention"
        else:
            text = f"mention “{d.candidate_label}” joined it ({d.get_method_display().lower()})"
            kind = "mention"
        entries.append(
            HistoryEntry(d.episode.valid_at, kind, text, d.episode.author, "", d.episode.number)
        )
    return entries


def _corrections(project: Project, node: NodeRecord) -> list[HistoryEntry]:
    rows = Correction.objects.filter(project=project).filter(
        Q(node_uid=node.uid) | Q(other_uid=node.uid) | Q(params__new_uid=node.uid)
    )
    numbers = _numbers(project, rows)
    entries = []
    for c in rows.order_by("number"):
        entries.append(
            HistoryEntry(
                c.created_at, "correction", _describe(c, node, numbers), c.author_name, c.note
            )
        )
    return entries


def _numbers(project: Project, rows) -> dict[str, int]:
    uids = {u for c in rows for u in (c.node_uid, c.other_uid) if u}
    return {n.uid: n.number for n in store.nodes_by_uids(project.graph_scope, sorted(uids))}


def _describe(c: Correction, node: NodeRecord, numbers: dict[str, int]) -> str:
    p = c.params or {}

    def ref(uid: str) -> str:
        return f"#{numbers[uid]}" if uid in numbers else "another node"

    match c.action:
        case CorrectionAction.MERGE if c.node_uid == node.uid:
            return f"merged {ref(c.other_uid)} into this node"
        case CorrectionAction.MERGE:
            return f"merged into {ref(c.node_uid)}"
        case CorrectionAction.SPLIT if p.get("new_uid") == node.uid:
            return f"split off {ref(c.node_uid)} as “{p.get('alias', '')}”"
        case CorrectionAction.SPLIT:
            return f"alias “{p.get('alias', '')}” split off into #{p.get('number')}"
        case CorrectionAction.RENAME:
            return f"renamed from “{p.get('old_label', '')}” to “{p.get('label', '')}”"
        case CorrectionAction.RETYPE:
            return f"type changed from {p.get('old_type', '')} to {p.get('type', '')}"
        case CorrectionAction.REJECT:
            return "rejected: not a finding (evidence kept, hidden)"
        case CorrectionAction.CONFIRM:
            return "confirmed"
        case CorrectionAction.EDIT_EDGE:
            return (
                f"edge “{p.get('relation', '')}” {ref(c.node_uid)} → {ref(c.other_uid)} changed "
                f"to “{p.get('new_relation', '')}” → {ref(p.get('new_target', ''))}"
            )
        case CorrectionAction.ADD_EDGE:
            return f"edge “{p.get('relation', '')}” {ref(c.node_uid)} → {ref(c.other_uid)} added"
        case CorrectionAction.RESOURCE_EDGE:
            cited = (p.get("evidence") or {}).get("episode_number")
            return (
                f"edge “{p.get('relation', '')}” {ref(c.node_uid)} → {ref(c.other_uid)} now "
                f"cites message #{cited}"
            )
        case CorrectionAction.UNDO:
            return f"correction {p.get('reverts')} ({p.get('action', '')}) undone"
        case _:
            return f"edge “{p.get('relation', '')}” {ref(c.node_uid)} → {ref(c.other_uid)} removed"
