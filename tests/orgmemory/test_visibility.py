"""Who sees which org insight, and which quotes: members only, quotes per readable project."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from kg.models import Project
from orgmemory.models import OrgInsight
from orgmemory.services import (
    OrgInsightNotFound,
    insight_for_user,
    insights_for_user,
    org_context_for_project,
    promote_for_org,
)
from tests.orgmemory.conftest import write_node

pytestmark = pytest.mark.urls("tests.orgmemory.urls")


@pytest.fixture
def promoted(shared_pain):
    promote_for_org(shared_pain.acme)
    promote_for_org(shared_pain.globex)
    return shared_pain


def test_member_sees_full_chain(promoted):
    [insight] = insights_for_user(promoted.member, promoted.acme)

    assert insight.project_count == 2
    quotes = {s.project_slug: [e.quote for e in s.evidence] for s in insight.sources}
    assert quotes == {
        "couriers": ["the app lags on weak internet in basements"],
        "warehouse": ["honestly the app is slow when internet is weak in the loading bay"],
    }


def test_quotes_hidden_for_projects_the_user_cannot_open(promoted):
    [insight] = insights_for_user(
        promoted.member, promoted.acme, accessible_projects=[promoted.couriers]
    )

    by_slug = {s.project_slug: s for s in insight.sources}
    assert by_slug["couriers"].accessible
    assert by_slug["couriers"].evidence
    hidden = by_slug["warehouse"]
    assert not hidden.accessible
    assert hidden.project_name == "Warehouse"
    assert hidden.evidence == []
    assert hidden.node_label is None and hidden.node_number is None
    assert hidden.hidden_quotes == 1


def test_explicit_projects_never_widen_access(promoted):
    # The outsider names acme's projects: still not a member, still nothing.
    assert (
        insights_for_user(
            promoted.outsider,
            promoted.acme,
            accessible_projects=[promoted.couriers, promoted.warehouse],
        )
        == []
    )


def test_non_member_sees_nothing(promoted):
    assert insights_for_user(promoted.outsider, promoted.acme) == []
    assert insights_for_user(promoted.outsider, promoted.globex) == []  # globex has none
    insight = OrgInsight.objects.get(organization=promoted.acme)
    with pytest.raises(OrgInsightNotFound):
        insight_for_user(promoted.outsider, promoted.acme, insight.pk)
    with pytest.raises(OrgInsightNotFound):  # an acme insight through globex's door
        insight_for_user(promoted.outsider, promoted.globex, insight.pk)


def test_api_list_and_detail_for_a_member(client, promoted):
    client.force_login(promoted.member)

    listing = client.get("/api/organizations/acme/insights/")
    assert listing.status_code == 200
    body = listing.json()
    assert body["count"] == 1
    [item] = body["results"]
    assert item["status"] == "active"
    assert {s["project_slug"] for s in item["sources"]} == {"couriers", "warehouse"}

    detail = client.get(f"/api/organizations/acme/insights/{item['id']}/")
    assert detail.status_code == 200
    assert detail.json()["sources"][0]["evidence"][0]["quote"]

    assert client.get("/api/organizations/acme/insights/?status=inactive").json()["count"] == 0
    assert client.get("/api/organizations/acme/insights/?status=bogus").status_code == 400


def test_api_is_404_across_organizations(client, promoted):
    insight = OrgInsight.objects.get(organization=promoted.acme)
    client.force_login(promoted.outsider)

    assert client.get("/api/organizations/acme/insights/").status_code == 404
    assert client.get(f"/api/organizations/acme/insights/{insight.pk}/").status_code == 404
    assert client.get(f"/api/organizations/globex/insights/{insight.pk}/").status_code == 404
    assert client.get("/api/organizations/globex/insights/").json()["count"] == 0
    assert client.get("/api/organizations/nowhere/insights/").status_code == 404
    assert client.get("/api/organizations/acme/insights/" + "9" * 30 + "/").status_code == 404


def test_api_requires_login(client, promoted):
    assert client.get("/api/organizations/acme/insights/").status_code in {401, 403}


def test_page_for_member_outsider_and_anonymous(client, promoted):
    anonymous = client.get("/orgs/acme/insights/")
    assert anonymous.status_code == 302

    client.force_login(promoted.outsider)
    assert client.get("/orgs/acme/insights/").status_code == 404

    client.force_login(promoted.member)
    page = client.get("/orgs/acme/insights/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "the app lags on weak internet in basements" in html
    assert "Warehouse" in html


def test_page_quotes_link_to_the_messages_the_viewer_may_open(client, promoted):
    [insight] = insights_for_user(promoted.member, promoted.acme)
    by_slug = {s.project_slug: s for s in insight.sources}
    couriers = by_slug["couriers"]
    [quote] = couriers.evidence
    client.force_login(promoted.member)
    html = client.get("/orgs/acme/insights/").content.decode()
    message = f"/projects/couriers/research/messages/{quote.episode_number}/"
    assert f'href="{message}?node={couriers.node_number}#quote"' in html
    assert f'href="/projects/couriers/research/nodes/{couriers.node_number}/"' in html
    # The node's page (its evidence, the quoted words highlighted) opens for this viewer.
    node_page = client.get(f"/projects/couriers/research/nodes/{couriers.node_number}/")
    assert node_page.status_code == 200
    assert quote.quote in node_page.content.decode()


def test_org_context_for_a_project(promoted):
    [item] = org_context_for_project(promoted.couriers)
    assert item.matched_by == "source"
    assert item.local_node_numbers == [1]
    assert item.other_projects == ["Warehouse"]
    assert item.model_dump()["note"] == "also seen in 1 other project"

    # A project promotion has not looked at yet still hears about it through its label.
    depot = Project.objects.create(organization=promoted.acme, slug="depot", name="Depot")
    write_node(depot, 7, "App lags on weak internet", "the app lags on weak internet")
    [item] = org_context_for_project(depot)
    assert item.matched_by == "label"
    assert item.local_node_numbers == [7]
    assert item.note == "also seen in 2 other projects"

    assert org_context_for_project(promoted.rival) == []  # another organization


def test_org_insights_command_promotes_and_prints_chains(shared_pain):
    out = StringIO()
    call_command("org_insights", org="acme", stdout=out)

    [insight] = json.loads(out.getvalue())
    assert insight["type"] == "pain"
    assert insight["status"] == "active"
    assert insight["confidence"] == 70
    assert insight["label"]
    projects = {p["slug"]: p for p in insight["projects"]}
    assert set(projects) == {"couriers", "warehouse"}
    assert projects["couriers"]["node_number"] == 1
    assert projects["couriers"]["episodes"] == [
        {"number": 1, "quote": "the app lags on weak internet in basements"}
    ]

    out = StringIO()
    call_command("org_insights", org="globex", stdout=out)
    assert json.loads(out.getvalue()) == []


def test_org_insights_command_unknown_org(db):
    with pytest.raises(CommandError, match="nowhere"):
        call_command("org_insights", org="nowhere")
