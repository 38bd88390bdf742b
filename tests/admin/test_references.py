"""PRD claims on the admin node page (artifacts/admin_references.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from artifacts.admin_references import SECTION, claims_citing_node, register
from artifacts.models import (
    Artifact,
    ArtifactVersion,
    Citation,
    Claim,
    ClaimKind,
    Section,
    VersionStatus,
)
from kg.reading.node_references import node_reference_providers, unregister_node_reference_provider
from kg.reading.node_trail import node_admin_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def prd_claim(trail):
    version = ArtifactVersion.objects.create(
        artifact=Artifact.objects.create(project=trail.project),
        number=3,
        language="en",
        status=VersionStatus.RUNNING,
    )
    claim = Claim.objects.create(
        version=version,
        section=Section.PAINS,
        order=2,
        kind=ClaimKind.FACT,
        text="Couriers lose the route when the app lags on weak internet.",
        nodes=[trail.lag.number],
    )
    quote = trail.lag.evidence[0]
    Citation.objects.create(
        claim=claim,
        order=1,
        node_number=trail.lag.number,
        node_uid=trail.lag.uid,
        node_type="pain",
        node_label=trail.lag.label,
        confidence=80,
        episode_number=quote.episode_number,
        episode_uid=quote.episode_uid,
        date=trail.e1.valid_at,
        quote=quote.quote,
        start=quote.start,
        end=quote.end,
    )
    version.status = VersionStatus.COMPLETE
    version.save()
    # ArtifactsConfig.ready() may have registered it already; leave it as it was found.
    registered_before = claims_citing_node in node_reference_providers()
    register()
    yield claim
    if not registered_before:
        unregister_node_reference_provider(claims_citing_node)


def test_node_page_lists_the_prd_claims_that_cite_it(admin_client, trail, prd_claim):
    claim_url = reverse("admin:artifacts_claim_change", args=[prd_claim.pk])
    page = admin_client.get(node_admin_url(trail.project, trail.lag.number)).content.decode()
    assert f"{SECTION} (1)" in page
    assert f'<a href="{claim_url}">PRD v3 · Pains with evidence · claim 2 (fact)</a>' in page
    assert "Couriers lose the route when the app lags" in page
    other = admin_client.get(node_admin_url(trail.project, trail.couriers.number))
    assert f"{SECTION} (0)" in other.content.decode()
    assert admin_client.get(claim_url).status_code == 200


def test_claims_of_another_project_are_not_listed(trail, prd_claim):
    from kg.models import Project

    elsewhere = Project.objects.create(
        organization=trail.project.organization, slug="elsewhere", name="Elsewhere"
    )
    assert claims_citing_node(elsewhere, trail.lag.uid, trail.lag.number) == []
    assert len(claims_citing_node(trail.project, trail.lag.uid, trail.lag.number)) == 1


def test_from_a_claim_one_click_reaches_the_highlighted_words(admin_client, trail, prd_claim):
    claim_page = admin_client.get(
        reverse("admin:artifacts_claim_change", args=[prd_claim.pk])
    ).content.decode()
    node_url = node_admin_url(trail.project, trail.lag.number)
    assert f'href="{node_url}"' in claim_page  # click 1: the node's evidence trail
    quote = trail.lag.evidence[0]
    episode_url = reverse("admin:kg_episode_changelist") + f"?uid={quote.episode_uid}"
    assert f'href="{episode_url}"' in claim_page

    trail_page = admin_client.get(node_url).content.decode()
    assert f"<mark>{quote.quote}</mark>" in trail_page  # the exact words, highlighted
    episodes = admin_client.get(episode_url)
    assert episodes.status_code == 200
    assert [e.uid for e in episodes.context["cl"].result_list] == [trail.e1.uid]
