"""Replies threaded to their message: each reply names the message it answers and is shown right
after it (page, reload, poll and API), whatever order the replies were written in — first with
replies written out of order by hand, then with two real worker processes answering messages
sent at the same moment."""

from __future__ import annotations

import os
import re
import threading
import time

import pytest
import redis
from django.conf import settings
from django.db import connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from chat import services
from chat.models import Message, Role
from tests.fixtures.services import celery_worker, worker_environment

HTMX = {"HTTP_HX_REQUEST": "true"}
ARTICLE = re.compile(r'<article class="message (user|assistant)[^"]*" id="([^"]+)" data-id="(\d+)"')
REPLY_TO = re.compile(r'class="reply-to" href="#(message-\d+)"[^>]*>↩ to message (\d+)</a>')


def _thread_order(html: str) -> list[tuple[str, int]]:
    """(role, id) of the messages as the page shows them, top to bottom."""
    return [(role, int(pk)) for role, _, pk in ARTICLE.findall(html)]


def _expected(user_messages: list[Message]) -> list[tuple[str, int]]:
    order = []
    for message in user_messages:
        reply = Message.objects.get(reply_to=message, role=Role.ASSISTANT)
        order += [("user", message.pk), ("assistant", reply.pk)]
    return order


def _assert_threaded(client, api: APIClient, project, conversation, sent: list[Message]) -> None:
    expected = _expected(sent)
    chat_url = f"/projects/{project.slug}/chat/{conversation.pk}/"
    for _ in range(2):  # the page, then a reload
        html = client.get(chat_url).content.decode()
        assert _thread_order(html) == expected
    # Each reply names its message, by the message's number in the conversation.
    named = REPLY_TO.findall(html)
    assert named == [
        (f"message-{m.episode.number}", str(position)) for position, m in enumerate(sent, 1)
    ]
    # The poll after the first message: the rest, threaded too.
    partial = client.get(f"{chat_url}messages/", {"after": sent[0].pk}, **HTMX).content.decode()
    assert _thread_order(partial) == [item for item in expected if item != ("user", sent[0].pk)]
    assert f'id="chat-after" value="{max(pk for _, pk in expected)}"' in partial
    listed = api.get(f"/api/projects/{project.slug}/conversations/{conversation.pk}/messages/")
    rows = listed.json()["results"]
    assert [(r["role"], r["id"]) for r in rows] == expected
    for asked, reply in zip(rows[::2], rows[1::2], strict=True):
        assert reply["reply_to"] == asked["id"]
        assert reply["reply_to_position"] == asked["position"]
        assert reply["reply_to_number"] == asked["number"]


def test_replies_written_out_of_order_are_shown_after_their_own_message(alice, browser_client):
    user, project = alice
    conversation = services.create_conversation(project, user)
    sent = [
        services.post_user_message(conversation, user, text)
        for text in ("Couriers hate paper maps.", "Dispatchers retype invoices.", "Bakers wait.")
    ]
    for message in (sent[2], sent[0], sent[1]):  # message 2's reply is written last
        Message.objects.create(
            conversation=conversation,
            role=Role.ASSISTANT,
            text=f"Noted: {message.text}",
            reply_to=message,
        )
    api = APIClient()
    api.force_authenticate(user)
    _assert_threaded(browser_client, api, project, conversation, sent)


def _env() -> dict[str, str]:
    return worker_environment(LLM_ENGINE="offline")


TEXTS = [
    "Couriers in Kazan hate paper maps; the app lags in basements.",
    "Dispatchers retype every invoice by hand at the end of the day.",
    "Florists lose orders written on paper when the shop is busy.",
    "Bakers wait an hour for the weekly rota to be published.",
    "Warehouse staff cannot scan damaged labels and type codes instead.",
]


@pytest.mark.worker
@pytest.mark.timeout(300)
def test_messages_sent_at_once_are_each_answered_and_shown_in_thread(
    embedded_server, graph, transactional_db, alice, client, tmp_path
):
    user, project = alice
    conversation = services.create_conversation(project, user)
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()  # no other test's tasks
    env = _env()
    logs = [tmp_path / "worker-1.log", tmp_path / "worker-2.log"]
    workers = [celery_worker(env, log, f"thread-{i}") for i, log in enumerate(logs, 1)]
    token = Token.objects.create(user=user).key
    url = f"/api/projects/{project.slug}/conversations/{conversation.pk}/messages/"
    start = threading.Barrier(len(TEXTS))
    answers: dict[str, int] = {}

    def send(text: str) -> None:
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        start.wait()
        try:
            response = api.post(url, {"text": text}, format="json")
            answers[text] = response.status_code
        finally:
            connections.close_all()

    try:
        senders = [threading.Thread(target=send, args=(text,)) for text in TEXTS]
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join(60)
        assert answers == {text: 201 for text in TEXTS}
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            if Message.objects.filter(
                conversation=conversation, role=Role.ASSISTANT
            ).count() == len(TEXTS):
                break
            time.sleep(0.5)
    finally:
        for worker in workers:
            os.killpg(worker.pid, 15)
        for worker in workers:
            worker.wait(30)
    tails = [log.read_text(errors="replace")[-2000:] for log in logs]
    sent = list(Message.objects.filter(conversation=conversation, role=Role.USER).order_by("id"))
    assert sorted(m.text for m in sent) == sorted(TEXTS)
    replies = Message.objects.filter(conversation=conversation, role=Role.ASSISTANT)
    assert replies.count() == len(TEXTS), tails
    # Each reply answers its own message and says what that message said.
    for message in sent:
        reply = replies.get(reply_to=message)
        assert reply.text.startswith("From this message: "), reply.text
        assert f"“{message.text.split()[0].lower()}" in reply.text  # its segment, no other's
    client.force_login(user)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    _assert_threaded(client, api, project, conversation, sent)
