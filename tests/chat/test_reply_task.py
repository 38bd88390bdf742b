"""chat.assistant_reply through the real broker and a real worker: message → pipeline → reply."""

from __future__ import annotations

import time

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import transaction
from rest_framework.test import APIClient

from chat import services
from chat.models import Message, Role
from config.celery import app
from kg.graph import store


@pytest.mark.worker
def test_a_posted_message_is_analysed_and_answered_by_the_worker(
    embedded_server, graph, transactional_db, alice
):
    user, project = alice
    conversation = services.create_conversation(project, user)
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        with transaction.atomic():  # the reply task is queued when this commits
            message = services.post_user_message(
                conversation, user, "Couriers hate paper maps; the app lags in basements."
            )
        deadline = time.monotonic() + 60
        reply = None
        while reply is None and time.monotonic() < deadline:
            reply = Message.objects.filter(reply_to=message, role=Role.ASSISTANT).first()
            time.sleep(0.2)
        assert reply is not None, "no reply within 60 s"
        client = APIClient()
        client.force_authenticate(user)
        status = client.get(f"/api/tasks/{message.reply_task_id}/").json()
        while status["state"] != "SUCCESS" and time.monotonic() < deadline:
            time.sleep(0.2)
            status = client.get(f"/api/tasks/{message.reply_task_id}/").json()

    message.episode.processing.refresh_from_db()
    assert message.episode.processing.status == "done"
    numbers = {n.number for n in store.list_nodes(project.graph_scope)}
    assert reply.cited_nodes and set(reply.cited_nodes) <= numbers
    assert reply.text.startswith("From this message: ")
    assert status == status | {"state": "SUCCESS", "successful": True}
