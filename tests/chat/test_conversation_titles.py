"""Conversations get a title from their first message and can be renamed (pages and API, by
editors and above); user messages are numbered within their conversation, uploads between them
take no numbers there; file chunks are named by file and part."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from chat import services
from chat.models import Conversation
from kg.ledger.importing import record_uploaded_notes
from kg.models import Membership, Role

FIRST = "Couriers in Kazan say the app lags in basements and they lose the route every evening"


def _viewer(project):
    user = get_user_model().objects.create_user(username="vera", password="pw-123456")
    Membership.objects.create(user=user, organization=project.organization, role=Role.VIEWER)
    return user


def _api(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def test_the_first_message_titles_an_untitled_conversation(alice):
    user, project = alice
    conversation = services.create_conversation(project, user)
    assert conversation.title == services.DEFAULT_TITLE and not conversation.named
    services.post_user_message(conversation, user, FIRST)
    conversation.refresh_from_db()
    assert conversation.title == "Couriers in Kazan say the app lags in basements and they…"
    assert len(conversation.title) <= services.TITLE_FROM_MESSAGE + 1
    services.post_user_message(conversation, user, "Second thought entirely.")
    conversation.refresh_from_db()
    assert conversation.title.startswith("Couriers in Kazan")  # only the first one titles it
    short = services.create_conversation(project, user)
    services.post_user_message(short, user, "  Pricing   interviews  ")
    short.refresh_from_db()
    assert short.title == "Pricing interviews"


def test_a_title_given_by_the_user_is_kept(alice):
    user, project = alice
    named = services.create_conversation(project, user, "Interviews, March")
    services.post_user_message(named, user, FIRST)
    named.refresh_from_db()
    assert named.title == "Interviews, March" and named.named
    services.rename_conversation(named, "  Interviews,\n April ")
    named.refresh_from_db()
    assert named.title == "Interviews, April"


def test_rename_on_the_page_for_writers_only(alice, browser_client, client):
    user, project = alice
    conversation = services.create_conversation(project, user)
    url = f"/projects/{project.slug}/chat/{conversation.pk}/rename/"
    page = browser_client.get(f"/projects/{project.slug}/chat/{conversation.pk}/")
    assert url in page.content.decode()
    response = browser_client.post(url, {"title": "Dispatchers <b>week 2</b>"})
    assert response.status_code == 302
    conversation.refresh_from_db()
    assert conversation.title == "Dispatchers <b>week 2</b>"
    shown = browser_client.get(response["Location"]).content.decode()
    assert "Dispatchers &lt;b&gt;week 2&lt;/b&gt;" in shown and "<b>week 2</b>" not in shown
    assert browser_client.post(url, {"title": "   "}).status_code == 400
    client.force_login(_viewer(project))
    assert client.post(url, {"title": "Mine now"}).status_code == 403
    assert (
        url not in client.get(f"/projects/{project.slug}/chat/{conversation.pk}/").content.decode()
    )
    conversation.refresh_from_db()
    assert conversation.title == "Dispatchers <b>week 2</b>"


def test_rename_through_the_api(alice, bob):
    user, project = alice
    conversation = services.create_conversation(project, user)
    url = f"/api/projects/{project.slug}/conversations/{conversation.pk}/"
    renamed = _api(user).patch(url, {"title": "Onboarding calls"}, format="json")
    assert renamed.status_code == 200, renamed.content
    assert renamed.json()["title"] == "Onboarding calls"
    assert Conversation.objects.get(pk=conversation.pk).named
    assert _api(user).patch(url, {"title": ""}, format="json").status_code == 400
    assert _api(_viewer(project)).patch(url, {"title": "x"}, format="json").status_code == 403
    other, _ = bob
    assert _api(other).patch(url, {"title": "x"}, format="json").status_code == 404
    assert Conversation.objects.get(pk=conversation.pk).title == "Onboarding calls"


def test_messages_are_numbered_within_their_conversation(alice, browser_client):
    user, project = alice
    first_chat = services.create_conversation(project, user, "One")
    second_chat = services.create_conversation(project, user, "Two")
    a = services.post_user_message(first_chat, user, "Couriers hate paper maps.")
    services.post_user_message(second_chat, user, "Elsewhere.")
    record_uploaded_notes(project, "notes.md", b"# Survey\n\nA.\n\n" + b"B" * 4100 + b"\n", "x")
    b = services.post_user_message(first_chat, user, "Dispatchers plan in Excel.")
    assert a.position == 1 and b.position == 2
    assert b.number - a.number > 1  # the ledger numbers jump over the other chat and the file
    listed = [(m.number, m.position) for m in services.messages_of(first_chat)]
    assert listed == [(a.number, 1), (b.number, 2)]

    page = browser_client.get(f"/projects/{project.slug}/chat/{first_chat.pk}/").content.decode()
    assert re.search(rf'id="message-{b.number}".*?>Message 2</a>', page, re.S)
    assert f"cited as message #{b.number}" in page

    body = _api(user).get(f"/api/projects/{project.slug}/conversations/{first_chat.pk}/messages/")
    rows = [(m["number"], m["position"]) for m in body.json()["results"] if m["role"] == "user"]
    assert rows == [(a.number, 1), (b.number, 2)]


def test_a_file_chunk_is_named_by_its_file_and_part(alice, browser_client):
    user, project = alice
    notes = b"# Survey\n\nCouriers answered.\n\n" + b"B " * 2100 + b"\n\nLast part.\n"
    report = record_uploaded_notes(project, "notes.md", notes, "x")
    second = report.episodes[1]
    assert second.source_label == "notes.md, \u00a7Survey, part 2"
    page = browser_client.get(f"/projects/{project.slug}/messages/{second.number}/")
    assert "notes.md, \u00a7Survey, part 2" in page.content.decode()
