"""The admin shows org insights with their sources, read-only (they are derived data)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from orgmemory.models import OrgInsight
from orgmemory.services import promote_for_org


def test_admin_lists_insights_read_only(client, shared_pain):
    promote_for_org(shared_pain.acme)
    insight = OrgInsight.objects.get()
    admin = get_user_model().objects.create_superuser("root", email="", password=None)
    client.force_login(admin)

    listing = client.get("/admin/orgmemory/orginsight/")
    assert listing.status_code == 200
    assert insight.label in listing.content.decode()

    page = client.get(f"/admin/orgmemory/orginsight/{insight.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Couriers app" in html and "Warehouse" in html  # the inline sources
    assert 'name="_save"' not in html  # nothing to save: view only
    assert client.get("/admin/orgmemory/orginsight/add/").status_code == 403


def test_node_page_section_names_the_org_insight(shared_pain):
    from kg.reading.node_references import node_reference_sections

    promote_for_org(shared_pain.acme)
    insight = OrgInsight.objects.get()

    sections = node_reference_sections(shared_pain.couriers, "couriers-node-1", 1)

    [section] = [s for s in sections if s.title == "Organization insights resting on this node"]
    [reference] = section.references
    assert insight.label in reference.title
    assert reference.url == f"/admin/orgmemory/orginsight/{insight.pk}/change/"
    other = node_reference_sections(shared_pain.couriers, "couriers-node-2", 2)
    assert [s.references for s in other if s.title.startswith("Organization")] == [[]]
