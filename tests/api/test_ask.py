"""POST /api/projects/<slug>/ask/: members (viewers too) ask; nothing crosses organizations."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from kg.models import Membership, Role

pytestmark = pytest.mark.django_db


def _ask(client: APIClient, slug: str, question: str):
    return client.post(f"/api/projects/{slug}/ask/", {"question": question}, format="json")


def test_a_viewer_asks_and_every_citation_is_a_quote_of_the_project(alice, research):
    user, project = alice
    Membership.objects.filter(user=user).update(role=Role.VIEWER)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    response = _ask(client, project.slug, "What do couriers say about lag in basements?")
    assert response.status_code == 200
    body = response.json()
    assert body["refused"] is False
    assert "retrieval" not in body  # the trace is for staff
    contents = {e.number: e.content for e in research.episodes}
    cited = [c for s in body["sentences"] for c in s["citations"]]
    assert cited
    for citation in cited:
        text = contents[citation["message"]]
        assert text[citation["start"] : citation["end"]] == citation["quote"]
    assert 1 in {c["message"] for c in cited}


def test_an_uncovered_question_is_refused(api, alice, research):
    _, project = alice
    body = _ask(api, project.slug, "What do users think of the subscription pricing?").json()
    assert body["refused"] is True
    assert body["sentences"] == []
    assert body["refusal"].startswith("The research doesn't say.")


def test_another_organizations_project_is_not_found_and_its_words_never_cited(
    api, alice, bob, research, other_research
):
    _, theirs = bob
    assert _ask(api, theirs.slug, "What do couriers say about lag?").status_code == 404
    _, ours = alice
    body = _ask(api, ours.slug, "What do couriers say about lag in basements?").json()
    ours_numbers = {e.number for e in research.episodes}
    assert {c["message"] for s in body["sentences"] for c in s["citations"]} <= ours_numbers


def test_staff_see_the_retrieval_trace(api, alice, research):
    user, project = alice
    user.is_staff = True
    user.save()
    body = _ask(api, project.slug, "What do couriers say about lag in basements?").json()
    trace = body["retrieval"]
    assert "basement" in trace["focus"]
    assert trace["used"]
    assert {"text", "meaning", "graph"} <= set(trace["rankings"])


def test_an_empty_question_is_a_clear_error(api, alice, research):
    _, project = alice
    response = _ask(api, project.slug, "   ")
    assert response.status_code == 400
