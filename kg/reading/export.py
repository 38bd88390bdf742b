"""A project's ledger and graph as plain JSON (kg_export, the research view's download).

Written as it is read: `export_chunks` yields the document piece by piece, reading the ledger
with a server-side iterator and the graph a page at a time (node numbers paged by the graph,
then those nodes whole; edges and contradictions in pages), so a project of any size is
exported in bounded memory and the first bytes leave at once. One item per line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from kg import ontology
from kg.graph import store
from kg.graph.records import graph_time
from kg.models import Episode, Project

PAGE = 500


def export_project(project: Project) -> dict:
    """The whole export as one value (tests, small projects)."""
    return json.loads("".join(export_chunks(project)))


def export_chunks(project: Project) -> Iterator[str]:
    """The export as JSON text, in pieces."""
    yield "{" + f'"project": {_json(project.slug)},\n"ontology": {_json(ontology.as_dict())}'
    yield from _array("episodes", _episodes(project))
    yield from _array("nodes", _nodes(project))
    yield from _array("edges", _edges(project))
    yield from _array("contradictions", _contradictions(project))
    yield "}\n"


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _array(name: str, items: Iterator[dict]) -> Iterator[str]:
    yield f',\n"{name}": ['
    separator = "\n"
    for item in items:
        yield separator + _json(item)
        separator = ",\n"
    yield "\n]"


def _episodes(project: Project) -> Iterator[dict]:
    rows = (
        Episode.objects.filter(project=project)
        .order_by("number")
        .values_list("uid", "number", "valid_at", "content")
    )
    for uid, number, valid_at, content in rows.iterator(chunk_size=PAGE):
        yield {"uid": str(uid), "number": number, "valid_at": graph_time(valid_at), "text": content}


def _nodes(project: Project) -> Iterator[dict]:
    scope = project.graph_scope
    everything = store.NodeListQuery()
    skip = 0
    while True:
        listed = store.node_page(scope, everything, skip, PAGE)
        if not listed:
            return
        for n in store.nodes_by_uids(scope, [n.uid for n in listed]):
            yield {
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
        skip += len(listed)


def _edges(project: Project) -> Iterator[dict]:
    scope = project.graph_scope
    skip = 0
    while True:
        page = store.edge_page(scope, "", None, skip, PAGE)
        if not page:
            return
        for e, source, target in page:
            yield {
                "uid": e.uid,
                "type": e.relation,
                "source": e.source,
                "target": e.target,
                "source_number": source.number,
                "target_number": target.number,
                "confidence": e.confidence,
                "valid_at": e.valid_at,
                "invalid_at": e.invalid_at,
                "evidence": [_evidence(ev) for ev in e.evidence],
            }
        skip += len(page)


def _contradictions(project: Project) -> Iterator[dict]:
    scope = project.graph_scope
    skip = 0
    while True:
        page = store.contradiction_page(scope, "", skip, PAGE)
        if not page:
            return
        for c, a, b in page:
            yield {
                "uid": c.uid,
                "a": c.a,
                "b": c.b,
                "a_number": a.number,
                "b_number": b.number,
                "subject": c.subject,
                "status": c.status,
                "quotes": [c.quote_a, c.quote_b],
            }
        skip += len(page)


def _evidence(evidence) -> dict:
    return {
        "episode": evidence.episode_uid,
        "episode_number": evidence.episode_number,
        "quote": evidence.quote,
        "start": evidence.start,
        "end": evidence.end,
    }
