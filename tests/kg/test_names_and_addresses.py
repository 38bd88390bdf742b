"""Project addresses are per organization (a name taken elsewhere is not revealed), stay
unambiguous and membership-checked for a member of several organizations, and keep apart in the
graph; names and titles with bidirectional control characters are refused, saying which."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from chat import services as chat_services
from kg import tenancy
from kg.models import Membership, Organization, Project, Role

RLO = "\u202e"


def _owner(username: str, org_slug: str):
    org = Organization.objects.create(slug=org_slug, name=org_slug.title())
    user = get_user_model().objects.create_user(username=username, password="pw-123456")
    Membership.objects.create(user=user, organization=org, role=Role.OWNER)
    return user, org


def _api(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


@pytest.fixture
def two_orgs(db):
    """Alice owns acme, Bob owns globex; both create a project called "Beta App"."""
    alice, acme = _owner("alice", "acme")
    bob, globex = _owner("bob", "globex")
    mine = tenancy.create_project(alice, acme, "Beta App")
    theirs = tenancy.create_project(bob, globex, "Beta App")
    return alice, bob, mine, theirs


def test_a_name_taken_in_another_organization_is_not_revealed(two_orgs):
    alice, bob, mine, theirs = two_orgs
    assert mine.slug == theirs.slug == "beta-app"  # not "beta-app-2"
    # Each one's address leads to their own project.
    assert tenancy.project_for_user(alice, "beta-app") == mine
    assert tenancy.project_for_user(bob, "beta-app") == theirs
    assert _api(bob).get("/api/projects/beta-app/").json()["organization"] == "globex"
    # Within one organization the slug is still unique (and the name: "Beta App" again is
    # refused, "Beta-App" is another name with the same address).
    with pytest.raises(tenancy.ProjectNameTaken):
        tenancy.create_project(alice, mine.organization, "Beta App")
    again = tenancy.create_project(alice, mine.organization, "Beta-App")
    assert again.slug == "beta-app-2"


def test_the_graph_keeps_the_two_projects_apart(two_orgs, graph):
    from kg.graph.store import list_nodes
    from kg.pipeline.ingest import ingest_recorded_episodes
    from tests.kg.pipeline_helpers import record_messages

    _, _, mine, theirs = two_orgs
    assert mine.graph_key == "beta-app"  # the first one keeps its slug as its key
    assert theirs.graph_key.startswith("beta-app-") and theirs.graph_key != mine.graph_key
    assert mine.graph_scope.project != theirs.graph_scope.project
    episodes = record_messages(
        mine, [{"at": "2026-03-01T10:00:00Z", "text": "Couriers hate the paper maps."}]
    )
    assert ingest_recorded_episodes(episodes, sync=True) == []
    assert list_nodes(mine.graph_scope)
    assert list_nodes(theirs.graph_scope) == []


def test_a_member_of_both_names_the_project_with_its_organization(two_orgs):
    alice, bob, mine, theirs = two_orgs
    Membership.objects.create(user=alice, organization=theirs.organization, role=Role.VIEWER)
    api = _api(alice)
    ambiguous = api.get("/api/projects/beta-app/")
    assert ambiguous.status_code == 404
    assert "acme~beta-app or globex~beta-app" in ambiguous.json()["message"]
    assert api.get("/api/projects/acme~beta-app/").json()["organization"] == "acme"
    assert api.get("/api/projects/globex~beta-app/").json()["organization"] == "globex"
    page = Client()
    page.force_login(alice)
    assert page.get("/projects/globex~beta-app/chat/").status_code == 200
    assert page.get("/projects/beta-app/chat/").status_code == 404


def test_the_organization_in_an_address_is_membership_checked(two_orgs):
    alice, bob, mine, theirs = two_orgs
    api = _api(alice)
    assert api.get("/api/projects/globex~beta-app/").status_code == 404  # exists, not hers
    assert api.get("/api/projects/nowhere~beta-app/").status_code == 404
    body_of_hidden = api.get("/api/projects/globex~beta-app/").json()["message"]
    body_of_missing = api.get("/api/projects/globex~gamma/").json()["message"]
    assert "globex" in body_of_hidden and "more than one" not in body_of_hidden
    assert body_of_missing.replace("gamma", "beta-app") == body_of_hidden  # the same answer


def test_a_creator_in_both_gets_an_address_of_their_own(two_orgs):
    alice, bob, mine, theirs = two_orgs
    Membership.objects.create(user=alice, organization=theirs.organization, role=Role.ADMIN)
    made = tenancy.create_project(alice, theirs.organization, "Beta-App")
    assert made.slug == "beta-app-2"  # she would otherwise have two "beta-app"s
    assert tenancy.project_for_user(alice, "beta-app-2") == made


def test_commands_name_a_project_by_organization_when_needed(two_orgs):
    _, _, mine, theirs = two_orgs
    with pytest.raises(tenancy.AmbiguousProject, match="acme~beta-app or globex~beta-app"):
        tenancy.find_project("beta-app")
    assert tenancy.find_project("globex~beta-app") == theirs
    assert tenancy.get_or_create_project("globex", "beta-app") == theirs


# --- bidirectional controls --------------------------------------------------------------------


@pytest.mark.parametrize("control", ["\u202e", "\u202d", "\u2066", "\u2069", "\u200f", "\u061c"])
def test_project_and_organization_names_refuse_bidi_controls(db, control):
    alice, acme = _owner("alice", "acme")
    with pytest.raises(tenancy.TenancyRejected, match=f"U\\+{ord(control):04X}"):
        tenancy.create_project(alice, acme, f"Invoice{control}fdp.exe")
    with pytest.raises(tenancy.TenancyRejected, match="remove it"):
        tenancy.sign_up("mallory", "", "a-long-Passphrase-9", f"Acme{control} Corp")
    assert not Project.objects.exists()
    assert not get_user_model().objects.filter(username="mallory").exists()


def test_the_api_and_pages_say_what_is_wrong(db):
    alice, acme = _owner("alice", "acme")
    project = tenancy.create_project(alice, acme, "Couriers")
    api = _api(alice)
    refused = api.post(
        "/api/projects/", {"organization": "acme", "name": f"Beta{RLO}ppa"}, format="json"
    )
    assert refused.status_code == 400
    assert "U+202E (RIGHT-TO-LEFT OVERRIDE)" in refused.json()["message"]
    renamed = api.patch(f"/api/projects/{project.slug}/", {"name": f"x{RLO}y"}, format="json")
    assert renamed.status_code == 400
    project.refresh_from_db()
    assert project.name == "Couriers"

    signup = Client().post(
        "/accounts/signup/",
        {"username": "mallory", "password": "a-long-Passphrase-9", "organization": f"A{RLO}B"},
    )
    assert signup.status_code == 400
    assert "RIGHT-TO-LEFT OVERRIDE" in signup.content.decode()


def test_conversation_titles_refuse_bidi_controls(db):
    alice, acme = _owner("alice", "acme")
    project = tenancy.create_project(alice, acme, "Couriers")
    api = _api(alice)
    base = f"/api/projects/{project.slug}/conversations/"
    refused = api.post(base, {"title": f"Notes{RLO}txt.exe"}, format="json")
    assert refused.status_code == 400
    assert "U+202E" in refused.json()["errors"]["title"][0]
    created = api.post(base, {"title": "Kazan"}, format="json").json()
    renamed = api.patch(f"{base}{created['id']}/", {"title": f"a{RLO}b"}, format="json")
    assert renamed.status_code == 400
    assert api.get(f"{base}{created['id']}/").json()["title"] == "Kazan"

    page = Client()
    page.force_login(alice)
    answer = page.post(f"/projects/{project.slug}/chat/new/", {"title": f"x{RLO}y"})
    assert answer.status_code == 400
    assert "U+202E" in answer.content.decode()
    # A title taken from a message leaves the message's controls in the message.
    assert chat_services.title_from_message(f"Maps {RLO}fail offline") == "Maps fail offline"
