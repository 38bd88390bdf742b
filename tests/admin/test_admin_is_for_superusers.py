"""A staff user of a second organization sees nothing of the first: not in the admin (which is
for superusers only), not in the API, not in the pages."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from kg.models import Membership, Organization, Project
from kg.reading.node_trail import nodes_admin_url
from tests.admin.conftest import add_episode

pytestmark = pytest.mark.django_db


@pytest.fixture
def first_org(db, graph):
    org = Organization.objects.create(slug="acme", name="Acme")
    project = Project.objects.create(organization=org, slug="couriers", name="Couriers app")
    add_episode(project, "Acme couriers wait forty minutes at the depot.")
    return project


@pytest.fixture
def second_staff(db):
    org = Organization.objects.create(slug="globex", name="Globex")
    user = get_user_model().objects.create_user("mallory", password="pw-123456", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    Membership.objects.create(user=user, organization=org)
    return user


def test_staff_of_another_org_is_refused_everywhere_in_the_admin(first_org, second_staff):
    client = Client()
    client.force_login(second_staff)
    pages = [
        reverse("admin:index"),
        reverse("admin:kg_episode_changelist"),
        reverse("admin:kg_resolutiondecision_changelist"),
        reverse("admin:kg_project_change", args=[first_org.pk]),
        nodes_admin_url(first_org),
    ]
    for url in pages:
        answer = client.get(url)
        assert answer.status_code == 302, url
        assert answer["Location"].startswith(reverse("admin:login")), url
        assert b"forty minutes" not in answer.content


def test_superuser_still_sees_the_ledger(first_org, admin_client):
    page = admin_client.get(reverse("admin:kg_episode_changelist"))
    assert page.status_code == 200
    assert "forty minutes" in page.content.decode()


def test_staff_of_another_org_sees_nothing_in_api_or_pages(first_org, second_staff):
    api = APIClient()
    api.force_authenticate(second_staff)
    assert [p["slug"] for p in api.get("/api/projects/").json()["results"]] == []
    assert api.get("/api/projects/couriers/episodes/").status_code == 404
    pages = Client()
    pages.force_login(second_staff)
    assert pages.get("/projects/couriers/chat/").status_code == 404
    assert "forty minutes" not in pages.get("/").content.decode()
