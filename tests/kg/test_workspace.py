"""The workspace a team runs by itself: sign-up, invitations, roles in pages and API, projects.

Every role's allowed and refused actions are asked of the real views (pages and API) against
the real database; a refusal must also leave nothing written.
"""

from __future__ import annotations

import datetime as dt
import html

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from chat.models import Conversation, Message
from kg import tenancy
from kg.models import Episode, Invitation, Membership, Organization, Project, Role

PASSWORD = "a-long-test-password"
ROLES = [Role.OWNER, Role.ADMIN, Role.EDITOR, Role.VIEWER]
WRITERS = {Role.OWNER, Role.ADMIN, Role.EDITOR}
MANAGERS = {Role.OWNER, Role.ADMIN}


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def acme(db):
    org = Organization.objects.create(slug="acme", name="Acme")
    project = Project.objects.create(organization=org, slug="couriers", name="Couriers")
    users = {}
    for role in ROLES:
        user = get_user_model().objects.create_user(username=f"{role}-user", password=PASSWORD)
        Membership.objects.create(user=user, organization=org, role=role)
        users[role] = user
    return org, project, users


def _page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _api_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


# --- sign-up and invitations ---------------------------------------------------------------


def test_sign_up_creates_the_user_and_their_organization_and_logs_in(db, client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "pm",
            "email": "pm@example.com",
            "password": PASSWORD,
            "organization": "Rocket Co",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/"
    user = get_user_model().objects.get(username="pm")
    membership = Membership.objects.get(user=user)
    assert membership.role == Role.OWNER
    assert (
        membership.organization.name == "Rocket Co" and membership.organization.slug == "rocket-co"
    )
    assert client.get("/").status_code == 200  # logged in


def test_sign_up_refuses_a_taken_name_or_a_short_password_and_writes_nothing(db, client):
    get_user_model().objects.create_user(username="pm", password=PASSWORD)
    taken = client.post(
        "/accounts/signup/",
        {"username": "PM", "password": PASSWORD, "organization": "Other"},
    )
    assert taken.status_code == 400 and "is taken" in taken.content.decode()
    short = client.post(
        "/accounts/signup/", {"username": "new", "password": "x", "organization": "Other"}
    )
    assert short.status_code == 400 and "too short" in short.content.decode()
    assert not Organization.objects.filter(name="Other").exists()
    assert not get_user_model().objects.filter(username="new").exists()


@pytest.mark.parametrize("role", ROLES)
def test_invitations_by_role(acme, role):
    org, _, users = acme
    response = _page_client(users[role]).post(
        "/orgs/acme/people/", {"role": Role.VIEWER, "email": "new@example.com"}
    )
    if role in MANAGERS:
        assert response.status_code == 200
        invitation = Invitation.objects.get(organization=org)
        assert invitation.role == Role.VIEWER
        link = f"/invitations/{invitation.token}/"
        assert link in response.content.decode()
        assert len(mail.outbox) == 1 and link in mail.outbox[0].body
    else:
        assert response.status_code == 403
        assert not Invitation.objects.exists() and not mail.outbox


def test_only_an_owner_invites_an_owner(acme):
    _, _, users = acme
    refused = _page_client(users[Role.ADMIN]).post("/orgs/acme/people/", {"role": Role.OWNER})
    assert refused.status_code == 403 and not Invitation.objects.exists()
    allowed = _page_client(users[Role.OWNER]).post("/orgs/acme/people/", {"role": Role.OWNER})
    assert allowed.status_code == 200 and Invitation.objects.get().role == Role.OWNER


def test_an_invitation_link_signs_up_a_viewer_once(acme, client):
    org, _, users = acme
    invitation = tenancy.create_invitation(users[Role.OWNER], org, Role.VIEWER)
    link = f"/invitations/{invitation.token}/"
    assert "viewer" in client.get(link).content.decode()
    response = client.post(link, {"username": "vic", "password": PASSWORD})
    assert response.status_code == 302
    vic = get_user_model().objects.get(username="vic")
    assert Membership.objects.get(user=vic, organization=org).role == Role.VIEWER
    again = Client().post(link, {"username": "eve", "password": PASSWORD})
    assert again.status_code == 404 and "already been used" in again.content.decode()
    assert not get_user_model().objects.filter(username="eve").exists()


def test_an_expired_or_unknown_invitation_is_refused(acme, client):
    org, _, users = acme
    invitation = tenancy.create_invitation(users[Role.OWNER], org, Role.EDITOR)
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - dt.timedelta(1))
    assert "expired" in client.get(f"/invitations/{invitation.token}/").content.decode()
    assert client.get("/invitations/nope/").status_code == 404


def test_a_signed_in_member_accepting_keeps_the_higher_role(acme):
    org, _, users = acme
    invitation = tenancy.create_invitation(users[Role.OWNER], org, Role.VIEWER)
    _page_client(users[Role.EDITOR]).post(f"/invitations/{invitation.token}/")
    assert Membership.objects.get(user=users[Role.EDITOR], organization=org).role == Role.EDITOR


@pytest.mark.parametrize("role", ROLES)
def test_changing_roles_and_removing_people_by_role(acme, role):
    org, _, users = acme
    target = Membership.objects.get(user=users[Role.VIEWER], organization=org)
    client = _page_client(users[role])
    response = client.post(f"/orgs/acme/people/{target.pk}/", {"role": Role.EDITOR})
    target.refresh_from_db()
    if role in MANAGERS:
        assert response.status_code == 302 and target.role == Role.EDITOR
    else:
        assert response.status_code == 403 and target.role == Role.VIEWER


@pytest.mark.parametrize("role", ROLES)
def test_removing_someone_asks_to_confirm_first(acme, role):
    org, _, users = acme
    target = Membership.objects.get(user=users[Role.VIEWER], organization=org)
    client = _page_client(users[role])
    url = f"/orgs/acme/people/{target.pk}/"
    asked = client.post(url, {"action": "remove"})
    if role not in MANAGERS:
        assert asked.status_code == 403 and Membership.objects.filter(pk=target.pk).exists()
        return
    html = asked.content.decode()
    assert asked.status_code == 200 and 'id="confirm-step"' in html
    assert "Remove viewer-user (Viewer) from Acme?" in html
    # The confirmation is a plain form: the same fields again, confirmed (no script needed).
    assert f'action="{url}"' in html and 'name="action" value="remove"' in html
    assert 'name="confirmed" value="yes"' in html
    assert Membership.objects.filter(pk=target.pk).exists()  # nothing done yet
    done = client.post(url, {"action": "remove", "confirmed": "yes"})
    assert done.status_code == 302 and not Membership.objects.filter(pk=target.pk).exists()


def test_the_last_owner_cannot_step_down(acme):
    org, _, users = acme
    owner = Membership.objects.get(user=users[Role.OWNER], organization=org)
    response = _page_client(users[Role.OWNER]).post(
        f"/orgs/acme/people/{owner.pk}/", {"action": "remove"}
    )
    assert response.status_code == 400 and "at least one owner" in response.content.decode()
    assert Membership.objects.filter(pk=owner.pk).exists()


def test_people_of_another_organization_are_not_found(acme):
    other = get_user_model().objects.create_user(username="outsider", password=PASSWORD)
    assert _page_client(other).get("/orgs/acme/people/").status_code == 404


# --- projects ------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_creating_renaming_and_archiving_projects_by_role(acme, role):
    _, project, users = acme
    client = _page_client(users[role])
    created = client.post(
        "/orgs/acme/projects/new/", {"name": "Warehouse scanner", "language": "ru"}
    )
    renamed = client.post(
        "/projects/couriers/settings/",
        {"name": "Couriers 2", "language": "en", "description": "d"},
    )
    archived = client.post("/projects/couriers/settings/", {"action": "archive"})
    project.refresh_from_db()
    if role in MANAGERS:
        new = Project.objects.get(name="Warehouse scanner")
        assert created.status_code == 302 and created["Location"] == f"/projects/{new.slug}/chat/"
        assert new.language == "ru" and new.slug == "warehouse-scanner"
        assert renamed.status_code == 302 and project.name == "Couriers 2"
        assert project.slug == "couriers"  # the address stays
        assert archived.status_code == 302 and project.archived
    else:
        assert created.status_code == 403 and not Project.objects.filter(name__startswith="Ware")
        assert renamed.status_code == 403 and project.name == "Couriers"
        assert archived.status_code == 403 and not project.archived


def test_an_archived_project_is_read_only_for_everyone(acme):
    _, project, users = acme
    tenancy.set_project_archived(users[Role.OWNER], project, True)
    client = _page_client(users[Role.OWNER])
    assert client.get("/projects/couriers/chat/").status_code == 200
    assert "archived" in client.get("/projects/couriers/chat/").content.decode()
    sent = client.post(f"/projects/couriers/chat/{_conversation(project).pk}/send/", {"text": "x"})
    assert sent.status_code == 403 and not Episode.objects.exists()
    api = _api_client(users[Role.OWNER])
    assert api.post("/api/projects/couriers/conversations/", {}).status_code == 403


def test_a_project_name_is_required(acme):
    _, _, users = acme
    response = _page_client(users[Role.OWNER]).post("/orgs/acme/projects/new/", {"name": "  "})
    assert response.status_code == 400 and "needs a name" in response.content.decode()


def test_a_second_project_of_the_same_name_is_refused_in_page_and_api(acme):
    # "Couriers" exists; names differing only in case and spacing are the same name.
    org, project, users = acme
    page = _page_client(users[Role.OWNER]).post(
        "/orgs/acme/projects/new/", {"name": "  couriers ", "language": "en"}
    )
    assert page.status_code == 400
    assert 'already has a project named "Couriers"' in html.unescape(page.content.decode())
    api = _api_client(users[Role.ADMIN]).post(
        "/api/projects/", {"organization": "acme", "name": "COURIERS"}, format="json"
    )
    assert api.status_code == 409  # a conflict with a stored project, said as the API says errors
    assert 'already has a project named "Couriers"' in api.json()["errors"]["name"][0]
    other = Project.objects.create(organization=org, slug="scanner", name="Scanner")
    renamed = _page_client(users[Role.OWNER]).post(
        "/projects/scanner/settings/", {"name": "Cou  riers", "language": "en"}
    )
    assert renamed.status_code == 302  # other words: allowed
    clash = _api_client(users[Role.OWNER]).patch(
        "/api/projects/scanner/", {"name": "couriers"}, format="json"
    )
    assert clash.status_code == 409 and "already has a project" in clash.json()["errors"]["name"][0]
    other.refresh_from_db()
    assert other.name == "Cou riers"
    assert list(Project.objects.filter(organization=org).values_list("name", flat=True)) == [
        "Couriers",
        "Cou riers",
    ]
    # Another organization may use the name.
    globex = Organization.objects.create(slug="globex", name="Globex")
    Membership.objects.create(user=users[Role.OWNER], organization=globex, role=Role.OWNER)
    elsewhere = _page_client(users[Role.OWNER]).post(
        "/orgs/globex/projects/new/", {"name": "Couriers", "language": "en"}
    )
    assert elsewhere.status_code == 302
    assert Project.objects.filter(organization=globex, name="Couriers").exists()


# --- research writes: pages ----------------------------------------------------------------


def _conversation(project: Project) -> Conversation:
    return Conversation.objects.get_or_create(project=project, defaults={"title": "Notes"})[0]


@pytest.mark.parametrize("role", ROLES)
def test_pages_every_member_reads(acme, role):
    _, _, users = acme
    client = _page_client(users[role])
    for url in [
        "/",
        "/projects/couriers/chat/",
        "/projects/couriers/prd/",
        "/projects/couriers/settings/",
        "/orgs/acme/people/",
        "/orgs/acme/insights/",
    ]:
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("role", ROLES)
def test_page_writes_by_role(acme, role):
    _, project, users = acme
    conversation = _conversation(project)
    client = _page_client(users[role])
    chat = client.get("/projects/couriers/chat/").content.decode()
    sent = client.post(
        f"/projects/couriers/chat/{conversation.pk}/send/", {"text": "Couriers hate lag."}
    )
    uploaded = client.post(
        "/projects/couriers/upload/",
        {"notes": SimpleUploadedFile("notes.txt", b"Couriers want offline maps.")},
    )
    started = client.post("/projects/couriers/chat/new/", {"title": "Interviews"})
    generated = client.post("/projects/couriers/prd/generate", {"as_of": ""})
    if role in WRITERS:
        assert 'id="send-form"' in chat and 'id="generate-prd"' in chat
        assert sent.status_code == 302 and uploaded.status_code == 302
        assert started.status_code == 302 and generated.status_code == 302
        assert Episode.objects.count() == 2
        assert Conversation.objects.filter(title="Interviews").exists()
    else:
        assert 'id="send-form"' not in chat and 'id="generate-prd"' not in chat
        assert 'id="read-only-notice"' in chat
        assert sent.status_code == 403 and uploaded.status_code == 403
        assert started.status_code == 403 and generated.status_code == 403
        assert not Episode.objects.exists() and not Message.objects.exists()
        assert not Conversation.objects.filter(title="Interviews").exists()


# --- research writes: API ------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_api_by_role(acme, role):
    _, project, users = acme
    conversation = _conversation(project)
    api = _api_client(users[role])
    assert api.get("/api/projects/couriers/").status_code == 200
    assert api.get("/api/projects/couriers/conversations/").status_code == 200
    assert api.get("/api/projects/couriers/prd/versions/").status_code == 200
    created = api.post("/api/projects/couriers/conversations/", {"title": "API"})
    sent = api.post(
        f"/api/projects/couriers/conversations/{conversation.pk}/messages/",
        {"text": "Couriers hate lag."},
    )
    uploaded = api.post(
        "/api/projects/couriers/uploads/",
        {"file": SimpleUploadedFile("notes.md", b"# Notes\n\nCouriers want offline maps.")},
        format="multipart",
    )
    generated = api.post("/api/projects/couriers/prd/generate/", {}, format="json")
    if role in WRITERS:
        assert created.status_code == 201 and sent.status_code == 201
        assert uploaded.status_code == 201 and generated.status_code == 202
        assert Episode.objects.count() == 2
    else:
        for response in (created, sent, uploaded, generated):
            assert response.status_code == 403, response.content
            assert "viewers can read" in str(response.json())
        assert not Episode.objects.exists() and not Conversation.objects.filter(title="API")


def test_api_of_another_organization_is_not_found(acme):
    outsider = get_user_model().objects.create_user(username="outsider", password=PASSWORD)
    api = _api_client(outsider)
    assert api.get("/api/projects/couriers/conversations/").status_code == 404
    assert api.post("/api/projects/couriers/conversations/", {}).status_code == 404
