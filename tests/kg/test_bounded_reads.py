"""Reads a person waits for are bounded: the research view, the admin's and the API's lists
read one page from the graph (filtered, ordered and cut there), whatever the project's size.
Real SQL and the embedded graph; the graph client is only watched (rows counted), not replaced.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from kg.graph import ContradictionRecord, EdgeRecord, Evidence, store
from kg.ledger.episodes import EpisodeInput, record_episode
from tests.api.conftest import _fast_passwords, alice  # noqa: F401
from tests.fixtures.graph_rows import graph_rows  # noqa: F401
from tests.kg.pipeline_helpers import node_record

NODES = 240
TYPES = ("pain", "feature", "segment")
BASE = "/projects/couriers/research/"


def _type(number: int) -> str:
    return TYPES[number % len(TYPES)]


def _stale(number: int) -> bool:
    return number % 7 == 0


@pytest.fixture
def many_nodes(alice, graph):  # noqa: F811 - the imported fixture, requested
    """240 nodes of three types (every 7th closed), #10 and #20 contradicting each other,
    and an edge from each segment to the next node."""
    user, project = alice
    scope = project.graph_scope
    episode = record_episode(project, EpisodeInput(content="quoted words"), enqueue=False)
    evidence = Evidence(
        episode_uid=str(episode.uid),
        episode_number=episode.number,
        quote="quoted",
        start=0,
        end=6,
        valid_at="2026-01-01T00:00:00.000000Z",
    )
    store.write_nodes(
        scope,
        [
            node_record(
                n,
                f"{_type(n)} number {n}",
                _type(n),
                confidence=n % 100,
                invalid_at="2026-02-01T00:00:00.000000Z" if _stale(n) else None,
                evidence=[evidence],
                aliases=["maps"] if n % 10 == 3 else [],
            )
            for n in range(1, NODES + 1)
        ],
    )
    store.write_edges(
        scope,
        [
            EdgeRecord(
                uid=f"edge-{n:04d}",
                relation="experiences",
                source=f"u{n}",
                target=f"u{n + 1}",
                confidence=60,
                valid_at=f"2026-01-01T00:00:{n % 60:02d}.000000Z",
            )
            for n in range(2, NODES, 3)
            if _type(n + 1) == "pain"
        ],
    )
    store.write_contradiction(
        scope,
        ContradictionRecord(
            uid="c-10-20",
            a="u10",
            b="u20",
            subject="price",
            quote_a="a",
            quote_b="b",
            opened_at="2026-01-02T00:00:00.000000Z",
        ),
    )
    return user, project


def _ids(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'id="node-(\d+)"', html)]


def test_a_research_page_is_read_from_the_graph_page_by_page(many_nodes, graph_rows):  # noqa: F811
    user, _ = many_nodes
    client = Client()
    client.force_login(user)
    pains = [n for n in range(1, NODES + 1) if _type(n) == "pain"]

    graph_rows.rows = 0
    html = client.get(BASE + "?type=pain&page=2").content.decode()
    assert _ids(html) == pains[50:80]
    assert "page 2 of 2" in html
    assert f"{NODES} nodes · 2 contradicted · {NODES // 7} stale" in html
    assert f'>pain <span class="count">{len(pains)}</span>' in html
    # The page's 30 rows, the count and the totals (three types, one contradicted count):
    # never the project's 240 nodes.
    assert graph_rows.rows <= 30 + 5

    html = client.get(BASE).content.decode()
    assert _ids(html) == list(range(1, 51))
    assert "page 1 of 5" in html

    assert _ids(client.get(BASE + "?status=contradicted").content.decode()) == [10, 20]
    stale_pains = [n for n in pains if _stale(n)]
    assert _ids(client.get(BASE + "?status=stale&type=pain").content.decode()) == stale_pains
    assert _ids(client.get(BASE + "?status=stale&valid=active").content.decode()) == []
    maps = [n for n in range(1, NODES + 1) if n % 10 == 3 and not _stale(n)]
    assert _ids(client.get(BASE + "?q=MAPS&valid=active").content.decode()) == maps
    banded = [n for n in range(1, NODES + 1) if n % 100 >= 85 and _type(n) == "segment"]
    assert _ids(client.get(BASE + "?band=85plus&type=segment").content.decode()) == banded


def test_api_lists_are_paged_by_the_graph(many_nodes, graph_rows):  # noqa: F811
    user, _ = many_nodes
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    base = "/api/projects/couriers/"

    graph_rows.rows = 0
    answer = api.get(base + "nodes/", {"page": 2, "type": "feature", "valid": "true"}).json()
    features = [n for n in range(1, NODES + 1) if _type(n) == "feature" and not _stale(n)]
    assert answer["count"] == len(features)
    page_size = len(answer["results"])
    assert [n["number"] for n in answer["results"]] == features[50 : 50 + page_size]
    assert all(n["sources"] == 1 and n["valid"] for n in answer["results"])
    assert graph_rows.rows <= page_size + 1

    graph_rows.rows = 0
    answer = api.get(base + "edges/", {"page": 2}).json()
    expected = sorted(
        (f"2026-01-01T00:00:{n % 60:02d}.000000Z", f"edge-{n:04d}", n)
        for n in range(2, NODES, 3)
        if _type(n + 1) == "pain"
    )
    assert answer["count"] == len(expected)
    shown = expected[50:100]
    assert [e["uid"] for e in answer["results"]] == [uid for _, uid, _ in shown]
    assert [e["source"]["number"] for e in answer["results"]] == [n for _, _, n in shown]
    assert [e["target"]["label"] for e in answer["results"]] == [
        f"pain number {n + 1}" for _, _, n in shown
    ]
    assert graph_rows.rows <= len(shown) + 1

    graph_rows.rows = 0
    answer = api.get(base + "contradictions/", {"status": "open"}).json()
    assert [(c["a"]["number"], c["b"]["number"]) for c in answer["results"]] == [(10, 20)]
    assert graph_rows.rows <= 2
    assert api.get(base + "contradictions/", {"status": "resolved"}).json()["count"] == 0


def test_the_export_is_streamed_as_the_graph_is_read_page_by_page(
    many_nodes,
    graph_rows,  # noqa: F811
    monkeypatch,
    client,
):
    import json

    from kg.reading.export import export_project

    user, project = many_nodes
    monkeypatch.setattr("kg.reading.export.PAGE", 40)
    client.force_login(user)
    graph_rows.reset()
    response = client.get(BASE + "export.json")
    assert response.status_code == 200 and response.streaming
    assert response["Content-Disposition"] == 'attachment; filename="couriers-export.json"'
    chunks = [c.decode() for c in response.streaming_content]
    exported = json.loads("".join(chunks))
    assert len(chunks) > NODES  # one piece per item, not one document built whole
    assert [n["number"] for n in exported["nodes"]] == list(range(1, NODES + 1))
    assert all(n["evidence"] == [exported["nodes"][0]["evidence"][0]] for n in exported["nodes"])
    assert [(c["a_number"], c["b_number"]) for c in exported["contradictions"]] == [(10, 20)]
    edges = exported["edges"]
    assert len(edges) == len([n for n in range(2, NODES, 3) if _type(n + 1) == "pain"])
    assert all(e["target_number"] == e["source_number"] + 1 for e in edges)
    assert graph_rows.most_rows <= 40  # no statement read more than a page
    assert export_project(project) == exported


def test_the_export_is_for_members_only(many_nodes, client):
    from django.contrib.auth import get_user_model

    outsider = get_user_model().objects.create_user(username="eve", password="pw-123456")
    client.force_login(outsider)
    assert client.get(BASE + "export.json").status_code == 404


def test_a_node_trail_reads_the_node_and_its_neighbours_only(many_nodes, graph_rows, client):  # noqa: F811
    user, _ = many_nodes
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    graph_rows.reset()
    trail = api.get("/api/projects/couriers/nodes/11/").json()  # a segment: #11 → #12
    assert [(e["direction"], e["target"]["number"]) for e in trail["edges"]] == [("out", 12)]
    assert trail["sources"] == 1
    graph_rows.reset()
    trail = api.get("/api/projects/couriers/nodes/10/").json()
    assert [(c["a"]["number"], c["b"]["number"]) for c in trail["contradictions"]] == [(10, 20)]
    assert graph_rows.rows <= 5  # the node, its edge ends, its contradiction: not the project

    client.force_login(user)
    graph_rows.reset()
    html = client.get(BASE + "nodes/10/").content.decode()
    assert "number 20" in html  # the other statement of its contradiction, linked
    assert graph_rows.rows <= 10  # as above, and the node's evidence items (one row each)
