"""Projects created, renamed and archived through the API, by the same rules as the pages:
owners and admins manage projects; editors and viewers are refused (403) and nothing changes;
another organization's projects are not found (404)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from kg.models import Membership, Organization, Project, Role

ROLES = [Role.OWNER, Role.ADMIN, Role.EDITOR, Role.VIEWER]
MANAGERS = {Role.OWNER, Role.ADMIN}


@pytest.fixture
def acme(db):
    org = Organization.objects.create(slug="acme", name="Acme")
    project = Project.objects.create(organization=org, slug="couriers", name="Couriers")
    clients = {}
    for role in ROLES:
        user = get_user_model().objects.create_user(username=f"{role}-user")
        Membership.objects.create(user=user, organization=org, role=role)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
        clients[role] = client
    return org, project, clients


@pytest.fixture
def outsider(db) -> APIClient:
    globex = Organization.objects.create(slug="globex", name="Globex")
    user = get_user_model().objects.create_user(username="otto")
    Membership.objects.create(user=user, organization=globex, role=Role.OWNER)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


@pytest.mark.parametrize("role", ROLES)
def test_create_a_project_by_role(acme, role):
    org, _, clients = acme
    response = clients[role].post(
        "/api/projects/",
        {"organization": "acme", "name": f"Kazan pilot {role}", "language": "ru"},
        format="json",
    )
    made = Project.objects.filter(organization=org, name=f"Kazan pilot {role}")
    if role in MANAGERS:
        assert response.status_code == 201, response.content
        body = response.json()
        assert (body["organization"], body["language"], body["archived"]) == ("acme", "ru", False)
        assert made.get().slug == body["slug"]
    else:
        assert response.status_code == 403
        assert not made.exists()


def test_create_is_refused_outside_your_organizations_and_without_a_name(acme, outsider):
    _, _, clients = acme
    refused = outsider.post("/api/projects/", {"organization": "acme", "name": "x"}, format="json")
    assert refused.status_code == 404
    blank = clients[Role.OWNER].post(
        "/api/projects/", {"organization": "acme", "name": "   "}, format="json"
    )
    assert blank.status_code == 400
    wrong = clients[Role.OWNER].post(
        "/api/projects/", {"organization": "acme", "name": "P", "language": "xx"}, format="json"
    )
    assert wrong.status_code == 400
    assert list(Project.objects.values_list("slug", flat=True)) == ["couriers"]


@pytest.mark.parametrize("role", ROLES)
def test_rename_and_archive_by_role(acme, role):
    _, project, clients = acme
    client = clients[role]
    renamed = client.patch(
        "/api/projects/couriers/", {"name": "Couriers, Kazan", "language": "ru"}, format="json"
    )
    archived = client.patch("/api/projects/couriers/", {"archived": True}, format="json")
    project.refresh_from_db()
    if role in MANAGERS:
        assert renamed.status_code == 200, renamed.content
        assert renamed.json()["name"] == "Couriers, Kazan" and renamed.json()["slug"] == "couriers"
        assert archived.json()["archived"] is True
        assert (project.name, project.language, project.archived) == ("Couriers, Kazan", "ru", True)
    else:
        assert (renamed.status_code, archived.status_code) == (403, 403)
        assert (project.name, project.language, project.archived) == ("Couriers", "en", False)


def test_an_archived_project_is_read_not_written_until_restored(acme, outsider):
    _, project, clients = acme
    owner, editor = clients[Role.OWNER], clients[Role.EDITOR]
    archived = owner.patch("/api/projects/couriers/", {"archived": True}, format="json")
    assert archived.status_code == 200
    conversations = "/api/projects/couriers/conversations/"
    assert editor.get("/api/projects/couriers/").json()["archived"] is True
    assert editor.post(conversations, {"title": "x"}, format="json").status_code == 403
    restored = owner.patch("/api/projects/couriers/", {"archived": False}, format="json")
    assert restored.json()["archived"] is False
    assert editor.post(conversations, {"title": "x"}, format="json").status_code == 201
    # Another organization's project: not found, whatever the change.
    assert (
        outsider.patch("/api/projects/couriers/", {"name": "x"}, format="json").status_code == 404
    )
    project.refresh_from_db()
    assert project.name == "Couriers"
