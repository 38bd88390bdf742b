"""The graph in the admin: node list and node evidence trail, for staff only."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from kg.graph import NodeRecord, store
from kg.models import ResolutionDecision
from kg.pipeline.confidence import explain
from kg.reading.node_references import (
    NodeReference,
    register_node_reference_provider,
    unregister_node_reference_provider,
)
from kg.reading.node_trail import node_admin_url, nodes_admin_url
from tests.admin.conftest import add_episode, evidence, node

pytestmark = pytest.mark.django_db


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def test_node_url_is_stable_and_guessable(trail):
    project = trail.project
    expected = f"/admin/kg/project/{project.pk}/nodes/7/"
    assert node_admin_url(project, 7) == expected
    assert node_admin_url(project.pk, 7) == expected
    assert nodes_admin_url(project) == f"/admin/kg/project/{project.pk}/nodes/"


def test_project_change_page_links_to_its_nodes(admin_client, trail):
    page = text(admin_client.get(reverse("admin:kg_project_change", args=[trail.project.pk])))
    assert nodes_admin_url(trail.project) in page
    listing = text(admin_client.get(reverse("admin:kg_project_changelist")))
    assert nodes_admin_url(trail.project) in listing


def test_node_list_shows_filters_and_links(admin_client, trail):
    url = nodes_admin_url(trail.project)
    page = text(admin_client.get(url))
    for n in (trail.lag, trail.couriers, trail.us, trail.price_irrelevant):
        assert node_admin_url(trail.project, n.number) in page
        assert n.label in page
    assert "7 of 7 nodes" in page

    def labels(**params) -> set[str]:
        body = text(admin_client.get(url, params))
        every = [trail.lag, trail.couriers, trail.paper_maps, trail.us, trail.eu]
        every += [trail.price_matters, trail.price_irrelevant]
        return {n.label for n in every if f">{n.label}</a>" in body}

    assert labels(type="pain") == {
        "App lags on weak internet",
        "Price is the main factor",
        "Price does not matter",
    }
    assert labels(valid="invalid") == {"US market"}
    assert "US market" not in labels(valid="active")
    assert labels(band="lt50") == {"Price does not matter"}
    assert labels(band="50-69") == {
        "Paper maps",
        "US market",
        "EU market",
        "Price is the main factor",
    }
    assert labels(band="70-84") == {"App lags on weak internet"}
    assert labels(band="85plus") == {"Couriers"}
    assert labels(q="lags OFFLINE") == {"App lags on weak internet"}  # an alias
    assert labels(q="market", valid="active") == {"EU market"}
    assert labels(type="not-a-type") == labels()  # unknown values are ignored, not errors


def test_node_list_is_paginated(admin_client, org_project, graph):
    episode = add_episode(org_project, "Slow sync everywhere.")
    proof = [evidence(episode, "Slow sync")]
    store.write_nodes(
        org_project.graph_scope,
        [node(i, "pain", f"Pain number {i:03d}", proof, 65) for i in range(1, 121)],
    )
    url = nodes_admin_url(org_project)
    first = text(admin_client.get(url))
    assert "page 1 of 3" in first
    assert "Pain number 001" in first and "Pain number 051" not in first
    third = text(admin_client.get(url, {"p": 3}))
    assert "Pain number 120" in third and "Pain number 001" not in third


def test_node_trail_shows_the_whole_evidence_trail(admin_client, trail):
    page = text(admin_client.get(node_admin_url(trail.project, trail.lag.number)))
    # Both supporting episodes, each with the quote highlighted inside the full text.
    assert "<mark>the app lags on weak internet in basements</mark>" in page
    assert "Our couriers say <mark>" in page
    assert "<mark>the app lags on weak internet</mark>, so drivers call dispatch" in page
    assert "2 supporting episodes" in page
    # Number, date, author, message and file/page of each episode, with a link to it.
    assert reverse("admin:kg_episode_change", args=[trail.e1.pk]) in page
    assert "Episode #1" in page and "message #47" in page and "15 Mar 2026" in page
    assert "Anna (PM)" in page
    assert "file <em>interviews.pdf</em>, page 3" in page
    # Confidence and how it was computed.
    assert html.escape(explain(trail.lag.evidence, 0)) in page
    assert "<strong>80</strong>" in page
    # Edges in, with links to the other nodes and the evidence episode.
    assert "experiences" in page and "addresses" in page
    assert node_admin_url(trail.project, trail.couriers.number) in page
    assert node_admin_url(trail.project, trail.paper_maps.number) in page
    # The resolution decisions that merged mentions into it.
    assert "fuzzy" in page and "93.5" in page and "app lags on weak internet" in page
    assert "Resolution decisions (2)" in page


def test_node_trail_shows_supersession_and_validity(admin_client, trail):
    page = text(admin_client.get(node_admin_url(trail.project, trail.us.number)))
    assert 'id="node-superseded-by"' in page
    assert node_admin_url(trail.project, trail.eu.number) in page
    assert "targets_market" in page
    assert "2026-03-25" in page  # invalid from: when the EU market was said
    newer = text(admin_client.get(node_admin_url(trail.project, trail.eu.number)))
    assert 'id="node-supersedes"' in newer
    assert node_admin_url(trail.project, trail.us.number) in newer
    assert "(active)" in newer


def test_node_trail_counts_open_contradictions_in_confidence(admin_client, trail):
    page = text(admin_client.get(node_admin_url(trail.project, trail.price_matters.number)))
    assert "Contradictions (1 open)" in page
    assert node_admin_url(trail.project, trail.price_irrelevant.number) in page
    assert "price does not matter" in page
    explanation = explain(trail.price_matters.evidence, 1)
    assert "1 open contradiction(s)" in explanation
    assert html.escape(explanation) in page


def test_node_trail_lists_references_from_other_apps(admin_client, trail):
    def claims(project, node_uid, node_number):
        assert (project, node_uid, node_number) == (trail.project, trail.lag.uid, 1)
        return [NodeReference("PRD v2, claim 3", "/prd/2/#claim-3", "Couriers lose <time>")]

    def broken(project, node_uid, node_number):
        raise RuntimeError("artifacts table missing")

    register_node_reference_provider(claims, section="PRD claims citing this node")
    register_node_reference_provider(broken, section="Broken section")
    try:
        page = text(admin_client.get(node_admin_url(trail.project, trail.lag.number)))
    finally:
        unregister_node_reference_provider(claims)
        unregister_node_reference_provider(broken)
    assert "PRD claims citing this node (1)" in page
    assert '<a href="/prd/2/#claim-3">PRD v2, claim 3</a>' in page
    assert "Couriers lose &lt;time&gt;" in page
    assert "RuntimeError: artifacts table missing" in page


def test_unknown_node_or_project_is_404(admin_client, trail):
    assert admin_client.get(node_admin_url(trail.project, 999)).status_code == 404
    assert admin_client.get(node_admin_url(trail.project.pk + 100, 1)).status_code == 404
    assert admin_client.get(nodes_admin_url(trail.project.pk + 100)).status_code == 404


def test_episode_text_is_escaped_around_the_highlight(admin_client, org_project, graph):
    episode = add_episode(
        org_project, '<script>alert("x")</script> Drivers: the app lags & <b>crashes</b>.'
    )
    store.write_nodes(
        org_project.graph_scope,
        [
            node(
                1,
                "pain",
                "App <b>crashes</b>",
                [evidence(episode, "the app lags & <b>crashes")],
                65,
            )
        ],
    )
    page = text(admin_client.get(node_admin_url(org_project, 1)))
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Drivers: " in page
    assert "<mark>the app lags &amp; &lt;b&gt;crashes</mark>&lt;/b&gt;." in page
    assert "App &lt;b&gt;crashes&lt;/b&gt;" in page
    assert "<b>crashes" not in page


def test_wrong_offsets_and_unknown_episodes_are_flagged(admin_client, org_project, graph):
    episode = add_episode(org_project, "Couriers hate   the slow sync.")
    proof = evidence(episode, "hate   the slow sync").model_copy(
        update={"quote": "hate the slow sync", "start": 0, "end": 5}
    )
    missing = proof.model_copy(update={"quote": "an invented sentence", "start": 0, "end": 3})
    stray = proof.model_copy(update={"episode_uid": "not-a-uuid", "episode_number": 99})
    store.write_nodes(
        org_project.graph_scope, [node(1, "pain", "Slow sync", [proof, missing, stray], 65)]
    )
    page = text(admin_client.get(node_admin_url(org_project, 1)))
    assert "Couriers <mark>hate   the slow sync</mark>." in page
    assert "stored offsets are off" in page
    assert "quote not found in the episode text" in page
    assert 'Episode #99</strong> <span class="kg-warning">not in the ledger' in page


def test_node_page_queries_stay_bounded(
    admin_client, org_project, graph, django_assert_max_num_queries
):
    episodes = [
        add_episode(org_project, f"Visit {i}: the app lags on weak internet again.", day=i)
        for i in range(100)
    ]
    lag = node(
        1,
        "pain",
        "App lags on weak internet",
        [evidence(e, "the app lags on weak internet") for e in episodes],
        90,
    )
    store.write_nodes(org_project.graph_scope, [lag])
    ResolutionDecision.objects.bulk_create(
        ResolutionDecision(
            project=org_project,
            episode=e,
            node_type="pain",
            candidate_label="app lags on weak internet",
            method="exact" if i else "new",
            compared_label=lag.label if i else "",
            node_uid=lag.uid,
            node_number=1,
        )
        for i, e in enumerate(episodes)
    )
    with django_assert_max_num_queries(50):
        response = admin_client.get(node_admin_url(org_project, 1))
    page = text(response)
    assert "100 supporting episodes" in page
    assert page.count("<mark>the app lags on weak internet</mark>") >= 100
    assert "Resolution decisions (100)" in page


def test_graph_outage_is_reported_not_a_crash(admin_client, trail, settings, monkeypatch):
    from kg.operations.embedded import free_port

    # Point the process-wide client at a port nobody listens on; the real client object is
    # put back afterwards without being closed, so the next test can use it again.
    settings.GRAPH_URI = f"falkordb://127.0.0.1:{free_port()}"
    settings.GRAPH_TIMEOUT_SECONDS = 1
    monkeypatch.setattr("kg.graph.client._client", None)
    node_page = admin_client.get(node_admin_url(trail.project, 1))
    nodes_page = admin_client.get(nodes_admin_url(trail.project))
    episode_page = admin_client.get(reverse("admin:kg_episode_change", args=[trail.e1.pk]))
    assert node_page.status_code == 503
    assert "graph database is unavailable" in node_page.content.decode()
    assert "graph database is unavailable" in text(nodes_page)
    assert "graph database is unavailable" in text(episode_page)


def test_graph_unavailable_is_shown_on_every_graph_page(admin_client, trail, monkeypatch):
    """The pages' side of the contract: GraphUnavailable from kg.graph becomes a message."""
    from kg.graph import GraphUnavailable

    class Down:
        uri = "falkordb://graph.invalid:6379"
        schema_ready = True

        def for_graph(self, name):
            return self

        def run(self, statement, **params):
            raise GraphUnavailable(f"graph server at {self.uri} is unavailable: refused")

    monkeypatch.setattr("kg.graph.store.get_client", Down)
    node_page = admin_client.get(node_admin_url(trail.project, 1))
    assert node_page.status_code == 503
    assert "graph database is unavailable" in node_page.content.decode()
    assert "graph database is unavailable" in text(admin_client.get(nodes_admin_url(trail.project)))
    episode_page = text(admin_client.get(reverse("admin:kg_episode_change", args=[trail.e1.pk])))
    assert "graph database is unavailable" in episode_page
    assert "Our couriers say" in episode_page  # the ledger side still shows


def test_records_round_trip_sanity(trail):
    """The fixture's graph is what the pages read (guards the tests, not the admin)."""
    scope = trail.project.graph_scope
    assert isinstance(store.node_by_number(scope, 1), NodeRecord)
    assert len(store.edges_of_node(scope, trail.lag.uid)) == 2
