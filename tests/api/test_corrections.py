"""Corrections through the API and the research view's node page: per role, across
organizations, refusals with their reason, and the node's history."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from kg.graph import store
from kg.models import Correction, Membership, Organization, Role
from kg.pipeline.ingest import episode_ingest
from tests.kg.pipeline_helpers import make_project, record_messages

pytestmark = pytest.mark.django_db

MESSAGES = [
    {
        "text": "Couriers in Berlin hate the slow checkout. The slow checkout makes them lose "
        "orders.",
        "at": "2026-01-01T10:00:00Z",
        "author": "Anna",
    },
    {
        "text": "The checkout is slow for couriers again; they lose orders every evening.",
        "at": "2026-01-04T10:00:00Z",
        "author": "Ben",
    },
]


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def project(graph):
    project = make_project("couriers")
    for episode in record_messages(project, MESSAGES):
        episode_ingest(episode.pk)
    return project


def _person(org, name: str, role: str):
    user = get_user_model().objects.create_user(username=name, password="pw", first_name=name)
    Membership.objects.create(user=user, organization=org, role=role)
    return user


def _pain(project, label: str):
    return next(n for n in store.list_nodes(project.graph_scope, "pain") if n.label == label)


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize(
    ("role", "expected"),
    [(Role.OWNER, 201), (Role.ADMIN, 201), (Role.EDITOR, 201), (Role.VIEWER, 403)],
)
def test_api_correction_per_role(project, role, expected):
    user = _person(project.organization, "pat", role)
    pain = _pain(project, "slow checkout")
    url = f"/api/projects/{project.slug}/nodes/{pain.number}/corrections/"
    response = _api(user).post(url, {"action": "confirm", "note": "seen it"}, format="json")
    assert response.status_code == expected, response.content
    if expected == 201:
        body = response.json()
        assert body["correction"]["action"] == "confirm"
        assert body["correction"]["author"] == "pat"
        assert body["node"]["number"] == pain.number
        assert store.node_by_number(project.graph_scope, pain.number).confirmed_by == ["pat"]
    else:
        assert not Correction.objects.exists()
    listed = _api(user).get(f"/api/projects/{project.slug}/corrections/")
    assert listed.status_code == 200
    assert len(listed.json()["results"]) == (1 if expected == 201 else 0)


def test_api_other_organization_is_404_and_refusals_are_409(project):
    outsider_org = Organization.objects.create(slug="other", name="Other")
    outsider = _person(outsider_org, "olga", Role.OWNER)
    pain = _pain(project, "slow checkout")
    url = f"/api/projects/{project.slug}/nodes/{pain.number}/corrections/"
    assert _api(outsider).post(url, {"action": "reject"}, format="json").status_code == 404
    assert _api(outsider).get(f"/api/projects/{project.slug}/corrections/").status_code == 404

    editor = _person(project.organization, "ed", Role.EDITOR)
    refused = _api(editor).post(url, {"action": "merge", "other": pain.number}, format="json")
    assert refused.status_code == 409
    assert "itself" in refused.json()["message"]
    retype = _api(editor).post(url, {"action": "retype", "type": "segment"}, format="json")
    assert retype.status_code == 409 and "experiences" in retype.json()["message"]
    missing = f"/api/projects/{project.slug}/nodes/999/corrections/"
    assert _api(editor).post(missing, {"action": "reject"}, format="json").status_code == 404
    assert not Correction.objects.exists()


def test_node_page_merges_and_shows_the_history(project):
    editor = _person(project.organization, "Anna", Role.EDITOR)
    keep, gone = _pain(project, "slow checkout"), _pain(project, "lose orders")
    client = Client()
    client.force_login(editor)
    page = client.get(f"/projects/{project.slug}/research/nodes/{keep.number}/")
    assert page.status_code == 200 and b'id="merge-form"' in page.content

    response = client.post(
        f"/projects/{project.slug}/research/nodes/{keep.number}/correct/",
        {"action": "merge", "other": str(gone.number), "note": "one pain", "confirmed": "yes"},
        follow=True,
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "lose orders" in html  # now an alias of the survivor
    history = html[html.index('id="node-history"') :]
    assert "extracted as" in history and f"merged #{gone.number} into this node" in history
    assert "by Anna" in history and "one pain" in history

    closed = client.get(f"/projects/{project.slug}/research/nodes/{gone.number}/").content.decode()
    assert 'id="node-status">merged' in closed and f"merged into #{keep.number}" in closed
    assert 'id="merge-form"' not in closed  # a closed node is not corrected further

    refused = client.post(
        f"/projects/{project.slug}/research/nodes/{keep.number}/correct/",
        {"action": "rename", "label": "  "},
    )
    assert refused.status_code == 400 and "Refused: a label has 1 to" in refused.content.decode()


def test_node_page_for_viewers_and_outsiders(project):
    viewer = _person(project.organization, "vic", Role.VIEWER)
    pain = _pain(project, "slow checkout")
    client = Client()
    client.force_login(viewer)
    page = client.get(f"/projects/{project.slug}/research/nodes/{pain.number}/")
    assert page.status_code == 200 and b'id="merge-form"' not in page.content
    assert b'id="node-history"' in page.content
    url = f"/projects/{project.slug}/research/nodes/{pain.number}/correct/"
    assert client.post(url, {"action": "reject"}).status_code == 403
    outsider = _person(Organization.objects.create(slug="o2", name="O2"), "out", Role.OWNER)
    client.force_login(outsider)
    assert client.post(url, {"action": "reject"}).status_code == 404
    assert not Correction.objects.exists()
    assert store.node_by_number(project.graph_scope, pain.number).invalid_at is None


def test_a_correction_notice_comes_from_the_server_never_from_the_address(project):
    pain = _pain(project, "slow checkout")
    node_url = f"/projects/{project.slug}/research/nodes/{pain.number}/"
    viewer = _person(project.organization, "vic", Role.VIEWER)
    client = Client()
    client.force_login(viewer)
    forged = client.get(node_url + "?corrected=Merge+failed:+log+in+again+at+evil.example")
    assert forged.status_code == 200
    assert "evil.example" not in forged.content.decode()
    assert 'id="correction-done"' not in forged.content.decode()

    editor = _person(project.organization, "ed", Role.EDITOR)
    client.force_login(editor)
    done = client.post(node_url + "correct/", {"action": "confirm", "note": "seen it"})
    assert done.status_code == 302 and done["Location"] == node_url  # nothing in the address
    shown = client.get(done["Location"]).content.decode()
    notice = shown.split('id="correction-done">')[1].split("</p>")[0]
    assert notice and "confirm" in notice.lower()
    assert 'class="notice success"' in shown
    # Said once: a reload, or the forged address, shows no notice.
    assert 'id="correction-done"' not in client.get(node_url).content.decode()
    again = client.get(node_url + "?corrected=Merge+failed").content.decode()
    assert "Merge failed" not in again and 'id="correction-done"' not in again


def _page(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("action", ["reject", "merge", "split"])
def test_destructive_corrections_ask_to_confirm_on_the_page(project, action):
    editor = _person(project.organization, "Anna", Role.EDITOR)
    keep, gone = _pain(project, "slow checkout"), _pain(project, "lose orders")
    fields = {
        "reject": {"action": "reject", "note": "noise"},
        "merge": {"action": "merge", "other": str(gone.number)},
        "split": {"action": "split", "alias": keep.aliases[0]},
    }[action]
    client = _page(editor)
    url = f"/projects/{project.slug}/research/nodes/{keep.number}/correct/"
    before = store.node_by_number(project.graph_scope, keep.number)

    asked = client.post(url, fields)

    html = asked.content.decode()
    assert asked.status_code == 200 and 'id="confirm-step"' in html
    assert f"#{keep.number} “{keep.label}”" in html
    assert 'name="confirmed" value="yes"' in html and f'name="action" value="{action}"' in html
    assert "Cancel" in html
    assert not Correction.objects.exists()
    assert store.node_by_number(project.graph_scope, keep.number) == before
    done = client.post(url, {**fields, "confirmed": "yes"})
    assert done.status_code == 302
    assert Correction.objects.get().action == action


def test_a_viewer_is_refused_before_any_confirmation(project):
    viewer = _person(project.organization, "vic", Role.VIEWER)
    pain = _pain(project, "slow checkout")
    url = f"/projects/{project.slug}/research/nodes/{pain.number}/correct/"
    assert _page(viewer).post(url, {"action": "reject"}).status_code == 403


def test_the_merge_target_is_picked_by_name_in_the_project(project, graph):
    editor = _person(project.organization, "Anna", Role.EDITOR)
    keep, gone = _pain(project, "slow checkout"), _pain(project, "lose orders")
    other = make_project("elsewhere", org=project.organization.slug)
    for episode in record_messages(other, MESSAGES[:1]):
        episode_ingest(episode.pk)
    client = _page(editor)
    page = client.get(f"/projects/{project.slug}/research/nodes/{keep.number}/?merge=LOSE")
    html = page.content.decode()
    picker = html[html.index('id="merge-picker"') :]
    assert f'id="merge-candidate-{gone.number}"' in picker
    assert f'name="other" value="{gone.number}"' in picker  # chosen, not typed
    assert picker.count("merge-candidate-") == 1  # one pain of this project, not the other's
    assert 'name="other" inputmode' not in html[: html.index('id="merge-picker"')]
    segment = next(n for n in store.list_nodes(project.graph_scope, "segment"))
    nothing = client.get(
        f"/projects/{project.slug}/research/nodes/{keep.number}/?merge={segment.label}"
    ).content.decode()
    assert 'id="merge-none"' in nothing  # a segment is not a pain: never offered
    self_search = client.get(
        f"/projects/{project.slug}/research/nodes/{keep.number}/?merge=slow"
    ).content.decode()
    assert f'id="merge-candidate-{keep.number}"' not in self_search


def test_undo_on_the_research_page_and_the_api(project):
    editor = _person(project.organization, "Anna", Role.EDITOR)
    viewer = _person(project.organization, "vic", Role.VIEWER)
    pain = _pain(project, "slow checkout")
    client = _page(editor)
    client.post(
        f"/projects/{project.slug}/research/nodes/{pain.number}/correct/",
        {"action": "reject", "confirmed": "yes"},
    )
    assert store.node_by_number(project.graph_scope, pain.number).status == "rejected"
    rejected = client.get(f"/projects/{project.slug}/research/nodes/{pain.number}/")
    assert 'id="node-confidence"><strong>rejected</strong>' in rejected.content.decode()
    listing = client.get(f"/projects/{project.slug}/research/").content.decode()
    recent = listing[listing.index('id="recent-corrections"') :]
    assert 'id="correction-1"' in recent and "Reject" in recent
    assert f'action="/projects/{project.slug}/research/corrections/1/undo/"' in recent
    viewer_page = _page(viewer).get(f"/projects/{project.slug}/research/").content.decode()
    assert 'id="correction-1"' in viewer_page and "undo-form" not in viewer_page
    assert (
        _page(viewer).post(f"/projects/{project.slug}/research/corrections/1/undo/").status_code
        == 403
    )

    undone = client.post(f"/projects/{project.slug}/research/corrections/1/undo/")
    assert undone.status_code == 302
    node = store.node_by_number(project.graph_scope, pain.number)
    assert node.status == "" and node.invalid_at is None and node.confidence > 0
    page = client.get(f"/projects/{project.slug}/research/nodes/{pain.number}/").content.decode()
    assert 'id="correction-2"' in page and 'badge-stale">undone' in page

    # The API: the undo of the undo (the node rejected again), refused for a viewer.
    url = f"/api/projects/{project.slug}/corrections/2/undo/"
    assert _api(viewer).post(url, {}, format="json").status_code == 403
    response = _api(editor).post(url, {"note": "it was noise"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["correction"]["action"] == "undo" and body["reverted"]["number"] == 2
    assert store.node_by_number(project.graph_scope, pain.number).status == "rejected"
    again = _api(editor).post(url, {}, format="json")
    assert again.status_code == 409 and "already undone" in again.json()["message"]
    missing = _api(editor).post(
        f"/api/projects/{project.slug}/corrections/9/undo/", {}, format="json"
    )
    assert missing.status_code == 404
    assert [c.action for c in Correction.objects.order_by("number")] == ["reject", "undo", "undo"]


def test_edges_added_and_resourced_through_the_api_and_the_page(project):
    editor = _person(project.organization, "Anna", Role.EDITOR)
    viewer = _person(project.organization, "vic", Role.VIEWER)
    segment = next(n for n in store.list_nodes(project.graph_scope, "segment"))
    slow, lose = _pain(project, "slow checkout"), _pain(project, "lose orders")

    def experiences():
        return [
            e
            for e in store.edges_of_node(project.graph_scope, lose.uid)
            if e.source == segment.uid and e.relation == "experiences" and e.invalid_at is None
        ]

    url = f"/api/projects/{project.slug}/nodes/{lose.number}/corrections/"
    (extracted,) = experiences()
    removed = {"action": "remove_edge", "edge": extracted.uid}
    assert _api(editor).post(url, removed, format="json").status_code == 201
    assert experiences() == []
    body = {"action": "add_edge", "relation": "experiences", "other": segment.number,
            "direction": "in", "message": 1, "quote": "lose orders"}  # fmt: skip
    assert _api(viewer).post(url, body, format="json").status_code == 403
    wrong = _api(editor).post(url, {**body, "relation": "blocks"}, format="json")
    assert wrong.status_code == 409 and "does not allow" in wrong.json()["message"]
    added = _api(editor).post(url, body, format="json")
    assert added.status_code == 201, added.content
    assert added.json()["correction"]["action"] == "add_edge"
    assert added.json()["node"]["number"] == lose.number
    (edge,) = experiences()  # the same edge, open again, citing the quote too
    assert (1, "lose orders") in [(e.episode_number, e.quote) for e in edge.evidence]

    client = _page(editor)
    node_page = client.get(
        f"/projects/{project.slug}/research/nodes/{slow.number}/"
    ).content.decode()
    assert 'id="add-edge-form"' in node_page and 'value="resource_edge"' in node_page
    response = client.post(
        f"/projects/{project.slug}/research/nodes/{lose.number}/correct/",
        {"action": "resource_edge", "edge": edge.uid, "message": "2", "quote": "they lose orders"},
    )
    assert response.status_code == 302
    cited = next(e for e in store.edges_of_node(project.graph_scope, lose.uid) if e.uid == edge.uid)
    assert [(e.episode_number, e.quote) for e in cited.evidence] == [(2, "they lose orders")]
    refused = client.post(
        f"/projects/{project.slug}/research/nodes/{lose.number}/correct/",
        {"action": "resource_edge", "edge": edge.uid, "message": "2", "quote": "not said"},
    )
    assert refused.status_code == 400 and "does not say" in refused.content.decode()
