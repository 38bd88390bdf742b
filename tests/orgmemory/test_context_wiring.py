"""Org insights reach the ContextBuilder, the PRD and the chat panel, marked as from elsewhere."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model

from artifacts.models import ArtifactVersion, Citation, Section, VersionStatus
from artifacts.rendering import load_document, render_html, render_markdown, to_json
from artifacts.services import generate_prd
from kg.models import Episode, Membership, Organization, Project, Role
from kg.reading.context import (
    OrgInsightNote,
    artifact_context,
    org_insight_providers,
    register_org_insight_provider,
    unregister_org_insight_provider,
)
from orgmemory.services import org_insight_notes, promote_for_org
from tests.artifacts.conftest import Research
from tests.artifacts.invariants import assert_evidence_traced, writer_claims

WAREHOUSE_QUOTE = "honestly the app is slow when internet is weak in the loading bay"
RIVAL_QUOTE = "our app lags on weak internet too"


@dataclass
class Orgs:
    couriers: Research
    warehouse: Research
    rival: Research
    acme: Organization
    globex: Organization
    member: object


@pytest.fixture
def orgs(db, graph) -> Orgs:
    """One pain in two acme projects in different words; the same pain in globex too."""
    acme = Organization.objects.create(slug="acme", name="Acme")
    globex = Organization.objects.create(slug="globex", name="Globex")
    couriers = Research(
        Project.objects.create(organization=acme, slug="couriers", name="Couriers app")
    )
    warehouse = Research(
        Project.objects.create(organization=acme, slug="warehouse", name="Warehouse")
    )
    rival = Research(Project.objects.create(organization=globex, slug="rival", name="Rival app"))

    e1 = couriers.say(
        "Couriers say the app lags on weak internet in basements. "
        "Our couriers are gig workers on bikes.",
        "2026-03-03T10:00:00Z",
    )
    couriers.node(
        "pain", "App lags on weak internet", (e1, "the app lags on weak internet in basements")
    )
    couriers.node("segment", "Gig couriers on bikes", (e1, "Our couriers are gig workers on bikes"))

    e2 = warehouse.say(f"Loader Anna: {WAREHOUSE_QUOTE}.", "2026-03-04T10:00:00Z")
    warehouse.node("pain", "App is slow when internet is weak", (e2, WAREHOUSE_QUOTE))

    e3 = rival.say(f"Rival courier: {RIVAL_QUOTE}.", "2026-03-04T10:00:00Z")
    rival.node("pain", "App lags on weak internet", (e3, RIVAL_QUOTE))

    user = get_user_model().objects.create_user("mia")
    Membership.objects.create(user=user, organization=acme, role=Role.EDITOR)
    return Orgs(couriers, warehouse, rival, acme, globex, user)


@pytest.fixture
def promoted(orgs: Orgs) -> Orgs:
    assert len(promote_for_org(orgs.acme).created) == 1
    promote_for_org(orgs.globex)
    return orgs


def _pain_number(research: Research) -> int:
    return next(n for n, node in research.nodes.items() if node.type == "pain")


def test_orgmemory_registers_its_provider():
    assert org_insight_notes in org_insight_providers()


def test_context_offers_the_org_insight_without_other_projects_quotes(promoted):
    context = artifact_context(promoted.couriers.project)

    [note] = context.org_insights
    assert note.note == "also seen in 1 other project"
    assert note.other_projects == ["Warehouse"]
    assert note.node_type == "pain"
    assert note.local_nodes == [_pain_number(promoted.couriers)]
    assert note.confidence == 70
    dumped = json.dumps(context.model_dump(mode="json"))
    assert WAREHOUSE_QUOTE not in dumped and "Loader Anna" not in dumped
    # Not evidence of this project: no node, gap or contradiction came from it.
    assert {n.number for n in context.nodes} == set(promoted.couriers.nodes)
    assert all(e.episode_uid for n in context.nodes for e in n.evidence)
    assert not any("Warehouse" in g.question for g in context.gaps)

    # The other side of the insight hears about couriers.
    [back] = artifact_context(promoted.warehouse.project).org_insights
    assert back.other_projects == ["Couriers app"]
    assert "the app lags on weak internet in basements" not in json.dumps(back.model_dump())


def test_another_organization_gets_none(promoted):
    assert artifact_context(promoted.rival.project).org_insights == []


def test_a_past_context_has_no_org_insights(promoted):
    as_of = dt.datetime(2026, 3, 31, tzinfo=dt.UTC)
    context = artifact_context(promoted.couriers.project, as_of=as_of)
    assert context.nodes and context.org_insights == []


def test_a_failing_provider_does_not_break_the_context(promoted, caplog):
    def broken(project, nodes):
        raise RuntimeError("provider bug")

    register_org_insight_provider(broken)
    try:
        context = artifact_context(promoted.couriers.project)
    finally:
        unregister_org_insight_provider(broken)
    assert [n.note for n in context.org_insights] == ["also seen in 1 other project"]
    assert "org insight provider" in caplog.text


def test_provider_notes_are_kept_to_the_projects_current_nodes(promoted):
    def stale(project, nodes):
        return [
            OrgInsightNote(
                label="gone",
                node_type="pain",
                confidence=80,
                local_nodes=[999],
                other_projects=["Elsewhere"],
                note="also seen in 1 other project",
            )
        ]

    register_org_insight_provider(stale)
    try:
        labels = [n.label for n in artifact_context(promoted.couriers.project).org_insights]
    finally:
        unregister_org_insight_provider(stale)
    assert "gone" not in labels and len(labels) == 1


def test_prd_shows_org_insights_apart_from_the_claims(promoted):
    project = promoted.couriers.project
    pain = _pain_number(promoted.couriers)
    version = generate_prd(project)

    # Claims stay this project's evidence: every one cited, only couriers' episodes.
    assert writer_claims(version)
    assert_evidence_traced(version)
    ours = {str(u) for u in Episode.objects.filter(project=project).values_list("uid", flat=True)}
    cited = set(
        Citation.objects.filter(claim__version=version).values_list("episode_uid", flat=True)
    )
    assert cited and cited <= ours
    assert not version.claims.filter(text__icontains="Warehouse").exists()

    # Frozen with the version.
    assert version.report["org_insights"][0]["other_projects"] == ["Warehouse"]

    doc = load_document(version)
    data = to_json(doc)
    assert data["org_insights"] == [
        {
            "label": data["org_insights"][0]["label"],
            "node_type": "pain",
            "confidence": 70,
            "note": "also seen in 1 other project",
            "local_nodes": [pain],
            "other_projects": ["Warehouse"],
        }
    ]
    assert data["org_insights"][0]["label"] in {
        "App lags on weak internet",
        "App is slow when internet is weak",
    }
    assert WAREHOUSE_QUOTE not in json.dumps(data)

    markdown = render_markdown(doc)
    assert version.markdown == markdown
    block = markdown.split("## Also seen in other projects of the organization", 1)[1]
    assert "## Evidence appendix" in markdown.split(block)[0]  # after the appendix
    assert "also seen in 1 other project" in block
    assert f"here: pain #{pain}" in block and "other projects: Warehouse" in block
    assert WAREHOUSE_QUOTE not in markdown

    html = str(render_html(doc))
    assert '<section class="prd-section org-insights" id="section-org-insights">' in html
    assert "Also seen in other projects of the organization" in html
    assert f'<a href="#node-{pain}" data-node="{pain}">pain #{pain}</a>' in html
    assert f'id="node-{pain}"' in html  # the link lands on the appendix entry
    assert '<span class="org-projects">Warehouse</span>' in html
    assert WAREHOUSE_QUOTE not in html
    # Not a claim: nothing in the org block is a footnote marker.
    org_html = html.split('id="section-org-insights"', 1)[1].split("</section>", 1)[0]
    assert 'class="cite"' not in org_html


def test_org_insights_are_hashed_and_frozen_with_each_version(orgs):
    project = orgs.couriers.project
    before = generate_prd(project)
    assert before.report["org_insights"] == []
    assert generate_prd(project).pk == before.pk  # nothing changed: reused

    promote_for_org(orgs.acme)
    after = generate_prd(project)

    assert after.pk != before.pk and after.number == 2
    assert [i["other_projects"] for i in after.report["org_insights"]] == [["Warehouse"]]
    before = ArtifactVersion.objects.get(pk=before.pk)
    assert before.status == VersionStatus.COMPLETE and before.report["org_insights"] == []
    assert "Also seen in other projects" not in before.markdown
    assert "Also seen in other projects" in after.markdown
    # The claims did not change, only the org block.
    claims = {
        v.pk: sorted(v.claims.exclude(section=Section.APPENDIX).values_list("text"))
        for v in (before, after)
    }
    assert claims[before.pk] == claims[after.pk]


def test_org_insights_are_escaped_and_in_russian_for_a_russian_project(promoted):
    project = promoted.couriers.project
    project.language = "ru"
    project.save()
    Project.objects.filter(pk=promoted.warehouse.project.pk).update(name="<b>Склад</b>")

    doc = load_document(generate_prd(project))

    markdown = render_markdown(doc)
    assert "## Также встречается в других проектах организации" in markdown
    assert "также встречается ещё в 1 другом проекте" in markdown
    assert "\\<b\\>Склад\\</b\\>" in markdown
    html = str(render_html(doc))
    assert "<b>Склад</b>" not in html and "&lt;b&gt;Склад&lt;/b&gt;" in html
    assert "Также встречается в других проектах организации" in html


def test_chat_panel_lists_org_insights(promoted, client):
    pain = _pain_number(promoted.couriers)
    client.force_login(promoted.member)

    response = client.get("/projects/couriers/panel/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "Also seen elsewhere in your organization" in html
    assert "also seen in 1 other project" in html
    assert f'<a href="#node-{pain}">#{pain}</a>' in html
    assert "Warehouse" in html
    assert WAREHOUSE_QUOTE not in html


def test_chat_panel_escapes_other_project_names(promoted, client):
    Project.objects.filter(pk=promoted.warehouse.project.pk).update(
        name='<img src=x onerror="alert(1)">'
    )
    client.force_login(promoted.member)

    html = client.get("/projects/couriers/panel/").content.decode()

    assert '<img src=x onerror="alert(1)">' not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html


def test_chat_panel_of_another_organization_shows_none(promoted, client):
    outsider = get_user_model().objects.create_user("otto")
    Membership.objects.create(user=outsider, organization=promoted.globex, role=Role.OWNER)
    client.force_login(outsider)

    html = client.get("/projects/rival/panel/").content.decode()

    assert "Also seen elsewhere in your organization" not in html
    assert "Warehouse" not in html and "Couriers app" not in html


def test_api_and_prd_page_carry_the_org_block(promoted, client):
    from rest_framework.test import APIClient

    generate_prd(promoted.couriers.project)
    api = APIClient()
    api.force_authenticate(promoted.member)

    data = api.get("/api/projects/couriers/prd/versions/1/").json()
    [item] = data["org_insights"]
    assert item["note"] == "also seen in 1 other project"
    assert item["other_projects"] == ["Warehouse"]
    assert WAREHOUSE_QUOTE not in json.dumps(data)

    client.force_login(promoted.member)
    page = client.get("/projects/couriers/prd/").content.decode()
    assert 'id="section-org-insights"' in page and WAREHOUSE_QUOTE not in page
