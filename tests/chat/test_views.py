"""The web chat: pages, htmx partials, membership checks and escaping."""

from __future__ import annotations

import pytest

from chat import services
from chat.models import Message, Role
from kg.graph import EpisodeStub, Evidence, NodeRecord, store
from kg.graph.records import graph_time
from kg.models import Episode

CHAT = "/projects/couriers/chat/"
HTMX = {"HTTP_HX_REQUEST": "true"}
SCRIPT = "<script>alert(1)</script>"


def _html(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


# --- access -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url", ["/", CHAT, "/projects/couriers/panel/", "/projects/couriers/messages/1/"]
)
def test_pages_need_a_login(client, alice, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


def test_login_page_and_login(client, alice):
    html = _html(client.get("/accounts/login/"))
    assert 'name="username"' in html and 'name="password"' in html
    response = client.post("/accounts/login/", {"username": "alice", "password": "pw-123456"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert "Couriers" in _html(client.get("/"))


def test_project_list_shows_only_my_projects(browser_client, bob):
    html = _html(browser_client.get("/"))
    assert 'href="/projects/couriers/chat/"' in html
    assert "warehouse" not in html.lower()


@pytest.mark.parametrize(
    "method, url",
    [
        ("get", "/projects/warehouse/chat/"),
        ("get", "/projects/warehouse/panel/"),
        ("get", "/projects/warehouse/messages/1/"),
        ("post", "/projects/warehouse/chat/new/"),
        ("post", "/projects/warehouse/contradictions/6f1c1f9e-0000-4000-8000-000000000000/answer/"),
    ],
)
def test_another_organizations_pages_are_404(browser_client, bob, method, url):
    assert getattr(browser_client, method)(url).status_code == 404


def test_another_organizations_conversation_is_404_even_under_my_slug(browser_client, bob):
    bob_user, bob_project = bob
    theirs = services.create_conversation(bob_project, bob_user)
    assert browser_client.get(f"{CHAT}{theirs.pk}/").status_code == 404
    response = browser_client.post(f"{CHAT}{theirs.pk}/send/", {"text": "hi"})
    assert response.status_code == 404
    response = browser_client.post(f"/projects/warehouse/chat/{theirs.pk}/send/", {"text": "hi"})
    assert response.status_code == 404
    assert not Episode.objects.exists()


# --- the chat page ----------------------------------------------------------------------------


def test_chat_page_has_the_form_the_panel_and_the_generate_button(browser_client, research):
    html = _html(browser_client.get(CHAT))
    assert 'id="send-form"' in html and 'name="text"' in html
    assert 'hx-post="/projects/couriers/chat/' in html
    assert 'action="/projects/couriers/prd/generate"' in html
    assert 'id="generate-prd"' in html
    assert 'hx-get="/projects/couriers/panel/?conversation=' in html
    assert 'hx-trigger="every 2s"' in html  # idle check in site.js (htmx:confirm), no eval
    assert '<script src="/static/groundwork/site.js"' in html
    assert '<script src="/static/groundwork/htmx.min.js"' in html
    assert 'id="node-1"' in html  # the panel is rendered with the page, not only by polling


def test_sending_with_htmx_returns_the_new_messages_partial(
    browser_client, alice, queued_replies, django_capture_on_commit_callbacks
):
    page = _html(browser_client.get(CHAT))
    conversation = services.current_conversation(alice[1], alice[0])
    assert f'action="/projects/couriers/chat/{conversation.pk}/send/"' in page

    with django_capture_on_commit_callbacks(execute=True):
        response = browser_client.post(
            f"{CHAT}{conversation.pk}/send/",
            {"text": "Couriers hate paper maps.", "after": "0"},
            **HTMX,
        )
    html = _html(response)
    message = Message.objects.get(role=Role.USER)
    assert message.episode.number == 1 and message.episode.author == "alice"
    assert 'id="message-1"' in html and "Couriers hate paper maps." in html
    assert f'id="chat-after" value="{message.pk}" hx-swap-oob="true"' in html
    assert "Analysing message #1" in html
    assert "<html" not in html  # a partial, not a page
    assert queued_replies == [([message.pk], message.reply_task_id)]


def test_sending_without_javascript_redirects_to_the_message(browser_client, alice, queued_replies):
    conversation = services.current_conversation(alice[1], alice[0])
    response = browser_client.post(f"{CHAT}{conversation.pk}/send/", {"text": "Plain post."})
    assert response.status_code == 302
    assert response["Location"] == f"{CHAT}{conversation.pk}/?highlight=1#message-1"


def test_an_empty_message_is_an_error_and_writes_nothing(browser_client, alice, queued_replies):
    conversation = services.current_conversation(alice[1], alice[0])
    html = _html(browser_client.post(f"{CHAT}{conversation.pk}/send/", {"text": "  "}, **HTMX))
    assert 'id="chat-error"' in html and "the message is empty" in html
    assert not Episode.objects.exists()
    plain = browser_client.post(f"{CHAT}{conversation.pk}/send/", {"text": ""})
    assert plain.status_code == 400


def test_the_poller_gets_only_messages_after_the_last_one_it_has(
    browser_client, alice, queued_replies
):
    user, project = alice
    conversation = services.current_conversation(project, user)
    first = services.post_user_message(conversation, user, "first")
    reply = Message.objects.create(
        conversation=conversation, role=Role.ASSISTANT, text="noted", reply_to=first
    )
    url = f"{CHAT}{conversation.pk}/messages/"
    html = _html(browser_client.get(url, {"after": first.pk}, **HTMX))
    assert f'id="reply-{reply.pk}"' in html and 'id="message-1"' not in html
    assert "Analysing" not in html  # answered: the status line is gone
    nothing_new = _html(browser_client.get(url, {"after": reply.pk}, **HTMX))
    assert 'class="message' not in nothing_new
    assert f'value="{reply.pk}"' in nothing_new


def test_highlight_opens_the_conversation_holding_the_message(
    browser_client, alice, queued_replies
):
    user, project = alice
    old = services.create_conversation(project, user, "Old")
    services.post_user_message(old, user, "in the old conversation")
    services.create_conversation(project, user, "Newer")

    html = _html(browser_client.get(CHAT, {"highlight": 1}))
    assert 'class="message user highlight" id="message-1"' in html
    # The stable link every citation can use: /projects/<slug>/messages/<number>/
    response = browser_client.get("/projects/couriers/messages/1/")
    assert response["Location"] == f"{CHAT}{old.pk}/?highlight=1#message-1"


@pytest.mark.parametrize("value", ["²", "-1", "1" * 30, "abc"])
def test_odd_highlight_values_are_ignored(browser_client, alice, value):
    assert (
        "highlight"
        not in _html(browser_client.get(CHAT, {"highlight": value}))
        .split('id="messages"')[1]
        .split("</div>")[0]
    )


def test_a_message_link_to_an_episode_outside_the_chat_shows_the_episode(browser_client, research):
    html = _html(browser_client.get("/projects/couriers/messages/2/"))
    assert 'id="message-2"' in html and "price is the main factor" in html
    assert browser_client.get("/projects/couriers/messages/99/").status_code == 404


# --- the panel --------------------------------------------------------------------------------


def test_panel_lists_nodes_gaps_and_contradictions(browser_client, research):
    html = _html(browser_client.get("/projects/couriers/panel/", **HTMX))
    assert '<li id="node-1" class="node">' in html
    assert "#1</span>" in html and "Couriers" in html and "85 · 3 sources" in html
    assert "#2</span>" in html and "65 · 1 source<" in html
    assert "Paper maps" not in html  # closed
    assert "What makes Couriers look for a solution?" in html
    assert "The research disagrees" in html
    assert (
        f'hx-post="/projects/couriers/contradictions/{research.contradiction_uid}/answer/"' in html
    )
    assert "Analysing 4 messages" in html


def test_panel_polls_are_not_modified_until_the_research_changes(browser_client, research, bob):
    from kg.models import EpisodeProcessing, ProcessingStatus

    first = browser_client.get("/projects/couriers/panel/", **HTMX)
    etag = first["ETag"]
    assert first.status_code == 200 and etag
    again = browser_client.get("/projects/couriers/panel/", HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert again.status_code == 304 and again.content == b""

    processing = EpisodeProcessing.objects.filter(episode__project__slug="couriers").first()
    processing.status = ProcessingStatus.DONE
    processing.save()  # an episode moved through the pipeline: the research may have changed
    changed = browser_client.get("/projects/couriers/panel/", HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert changed.status_code == 200 and changed["ETag"] != etag
    other = browser_client.get("/projects/warehouse/panel/", HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert other.status_code == 404  # membership is checked before any cache answer


def test_answering_a_contradiction_in_the_panel(browser_client, research, alice, queued_replies):
    user, project = alice
    conversation = services.current_conversation(project, user)
    url = f"/projects/couriers/contradictions/{research.contradiction_uid}/answer/"
    html = _html(
        browser_client.post(
            url, {"answer": "Only new couriers care.", "conversation": conversation.pk}, **HTMX
        )
    )
    assert "The research disagrees" not in html
    answer = Message.objects.get(conversation=conversation, role=Role.USER)
    assert answer.text == "Only new couriers care." and answer.episode.number == 5
    again = _html(browser_client.post(url, {"answer": "again"}, **HTMX))
    assert "already resolved" in again
    missing = "/projects/couriers/contradictions/6f1c1f9e-0000-4000-8000-000000000000/answer/"
    assert browser_client.post(missing, {"answer": "x"}, **HTMX).status_code == 404


# --- escaping ---------------------------------------------------------------------------------


def test_a_script_in_a_message_is_shown_as_text(browser_client, alice, queued_replies):
    user, project = alice
    conversation = services.current_conversation(project, user)
    response = browser_client.post(f"{CHAT}{conversation.pk}/send/", {"text": SCRIPT}, **HTMX)
    partial = _html(response)
    page = _html(browser_client.get(CHAT))
    for html in (partial, page):
        assert SCRIPT not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    # Stored as typed: escaping happens when it is shown, the ledger keeps the exact words.
    assert Episode.objects.get().content == SCRIPT


def test_assistant_text_is_escaped_and_only_checked_citations_become_links(browser_client, alice):
    user, project = alice
    conversation = services.current_conversation(project, user)
    Message.objects.create(
        conversation=conversation,
        role=Role.ASSISTANT,
        text=f"Pain #2 and {SCRIPT} and #9\nnext line",
        cited_nodes=[2],
    )
    html = _html(browser_client.get(CHAT))
    assert SCRIPT not in html and "&lt;script&gt;" in html
    node_page = f"/projects/{project.slug}/research/nodes/2/"
    assert f'<a class="node-ref" href="{node_page}" data-node="2">#2</a>' in html
    assert 'data-node="9"' not in html
    assert "#9<br>next line" in html


def test_node_labels_and_quotes_from_user_words_are_escaped_in_the_panel(
    browser_client, alice, graph
):
    _, project = alice
    from kg.ledger.episodes import EpisodeInput, record_episode

    evil = '<img src=x onerror="alert(1)">'
    episode = record_episode(project, EpisodeInput(content=f"They said {evil}"), enqueue=False)
    scope = project.graph_scope
    store.upsert_episode_stub(
        scope, EpisodeStub(uid=str(episode.uid), number=1, valid_at=graph_time(episode.valid_at))
    )
    store.write_nodes(
        scope,
        [
            NodeRecord(
                uid="evil",
                number=1,
                type="pain",
                label=evil,
                key="evil",
                confidence=65,
                valid_at=graph_time(episode.valid_at),
                evidence=[
                    Evidence(
                        episode_uid=str(episode.uid),
                        episode_number=1,
                        quote=evil,
                        start=10,
                        end=10 + len(evil),
                        valid_at=graph_time(episode.valid_at),
                    )
                ],
            )
        ],
    )
    html = _html(browser_client.get("/projects/couriers/panel/"))
    assert evil not in html and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html


def test_notes_uploaded_on_the_chat_page_become_evidence(browser_client, alice, bob):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from kg.models import Episode

    page = _html(browser_client.get("/projects/couriers/chat/"))
    assert 'action="/projects/couriers/upload/"' in page and 'name="notes"' in page
    notes = SimpleUploadedFile("interviews.md", b"# Day 1\n\nCouriers hate paper maps.\n")
    response = browser_client.post("/projects/couriers/upload/", {"notes": notes})
    assert response.status_code == 302
    assert response["Location"] == "/projects/couriers/chat/"
    episode = Episode.objects.get(project__slug="couriers", kind="file_chunk")
    assert episode.content == "Couriers hate paper maps."
    assert episode.source_ref["file"] == "interviews.md"
    notice = _html(browser_client.get(response["Location"]))
    assert "1 part of interviews.md added as evidence" in notice

    bad = SimpleUploadedFile("bad.txt", b"\xc3(")
    refused = browser_client.post("/projects/couriers/upload/", {"notes": bad})
    assert refused["Location"] == "/projects/couriers/chat/"
    assert "not valid UTF-8" in _html(browser_client.get(refused["Location"]))
    other = browser_client.post("/projects/warehouse/upload/", {"notes": notes})
    assert other.status_code == 404
