"""kg_export: a project's ledger and graph as plain JSON."""

from __future__ import annotations

from kg import ontology
from kg.graph import store
from kg.graph.records import graph_time
from kg.models import Episode, Project


def export_project(project: Project) -> dict:
    scope = project.graph_scope
    nodes = store.list_nodes(scope)
    number_of = {n.uid: n.number for n in nodes}
    return {
        "project": project.slug,
        "ontology": ontology.as_dict(),
        "episodes": [
            {
                "uid": str(e.uid),
                "number": e.number,
                "valid_at": graph_time(e.valid_at),
                "text": e.content,
            }
            for e in Episode.objects.filter(project=project).order_by("number")
        ],
        "nodes": [
            {
                "uid": n.uid,
                "number": n.number,
                "type": n.type,
                "label": n.label,
                "aliases": n.aliases,
                "confidence": n.confidence,
                "valid_at": n.valid_at,
                "invalid_at": n.invalid_at,
                "evidence": [_evidence(e) for e in n.evidence],
            }
            for n in nodes
        ],
        "edges": [
            {
                "uid": e.uid,
                "type": e.relation,
                "source": e.source,
                "target": e.target,
                "source_number": number_of.get(e.source),
                "target_number": number_of.get(e.target),
                "confidence": e.confidence,
                "valid_at": e.valid_at,
                "invalid_at": e.invalid_at,
                "evidence": [_evidence(ev) for ev in e.evidence],
            }
            for e in store.list_edges(scope)
        ],
        "contradictions": [
            {
                "uid": c.uid,
                "a": c.a,
                "b": c.b,
                "a_number": number_of.get(c.a),
                "b_number": number_of.get(c.b),
                "subject": c.subject,
                "status": c.status,
                "quotes": [c.quote_a, c.quote_b],
            }
            for c in store.list_contradictions(scope)
        ],
    }


def _evidence(evidence) -> dict:
    return {
        "episode": evidence.episode_uid,
        "episode_number": evidence.episode_number,
        "quote": evidence.quote,
        "start": evidence.start,
        "end": evidence.end,
    }
