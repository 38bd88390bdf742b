"""The admin refuses a second project of one name in an organization, as the pages do."""

from __future__ import annotations

import html

from django.urls import reverse

from kg.models import Organization, Project


def test_the_admin_refuses_a_project_name_the_organization_has(admin_client, db):
    org = Organization.objects.create(slug="acme", name="Acme")
    Project.objects.create(organization=org, slug="courier-app", name="Courier App")
    form = {"organization": org.pk, "slug": "courier-2", "name": " courier  app", "language": "en"}
    refused = admin_client.post(reverse("admin:kg_project_add"), form)
    assert refused.status_code == 200  # the form again, with the reason
    assert 'Acme already has a project named "Courier App"' in html.unescape(
        refused.content.decode()
    )
    assert list(Project.objects.values_list("slug", flat=True)) == ["courier-app"]
    made = admin_client.post(reverse("admin:kg_project_add"), form | {"name": "Courier Web"})
    assert made.status_code == 302
    assert Project.objects.filter(slug="courier-2", name="Courier Web").exists()
