"""The admin over a graph the real pipeline built (offline engine) from a gold conversation."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from kg.graph import store
from kg.models import ResolutionDecision
from kg.reading.node_trail import node_admin_url, nodes_admin_url
from tests.kg.pipeline_helpers import GOLD, ingest_conversation

pytestmark = pytest.mark.django_db

COURIERS = next(path for path in GOLD if path.name == "couriers_en.json")


def test_every_page_of_an_ingested_project_opens(admin_client, graph):
    project, _, episodes = ingest_conversation(COURIERS, "routemate")
    nodes = store.list_nodes(project.graph_scope)
    assert nodes, "the offline engine extracted nothing from the gold conversation"

    listing = admin_client.get(nodes_admin_url(project), {"valid": "active"})
    assert listing.status_code == 200

    decisions: dict[str, set[str]] = {}
    for decision in ResolutionDecision.objects.filter(project=project):
        decisions.setdefault(decision.node_uid, set()).add(decision.method)
    assert any(methods - {"new"} for methods in decisions.values()), "no mention was merged"

    for node in nodes:
        page = admin_client.get(node_admin_url(project, node.number))
        assert page.status_code == 200, node.number
        body = page.content.decode()
        assert "<mark>" in body
        assert "computed from the evidence" in body
        for item in node.evidence:
            assert escape(item.quote) in body
        for method in decisions.get(node.uid, set()):
            assert f">{method}</td>" in body

    for episode in episodes:
        page = admin_client.get(reverse("admin:kg_episode_change", args=[episode.pk]))
        assert page.status_code == 200
        assert "Done" in page.content.decode()
