"""In headless Chromium, the chat page's own behaviour: replies that arrive out of order are
placed right after the message they answer as the page polls, and a CSV's text columns are
checkboxes (no Ctrl-click), long names whole.

Django's live server and the real database; the replies are written by hand in the order a busy
pair of workers could finish them (the workers themselves are tested in
tests/chat/test_reply_threading.py).
"""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connections

from chat import services
from chat.models import Message, Role
from kg.models import Episode, Membership, Organization, Project
from kg.models import Role as OrgRole
from tests.browser.test_chat_to_prd import PASSWORD
from tests.browser.test_new_team import chromium  # noqa: F401  (fixture)
from tests.kg.source_files import csv_bytes

pytestmark = pytest.mark.browser

LONG_QUESTION = "What is the hardest part of your working day, described in your own words, please?"


@pytest.fixture
def chat(transactional_db, monkeypatch):
    from chat.tasks import assistant_reply_task

    # No worker here: the replies are written by the test, in its own order.
    monkeypatch.setattr(assistant_reply_task, "apply_async", lambda *args, **kwargs: None)
    org = Organization.objects.create(slug="acme", name="Acme")
    project = Project.objects.create(organization=org, slug="couriers", name="Couriers")
    user = get_user_model().objects.create_user(username="anna", password=PASSWORD)
    Membership.objects.create(user=user, organization=org, role=OrgRole.EDITOR)
    conversation = services.create_conversation(project, user)
    sent = [
        services.post_user_message(conversation, user, text)
        for text in ("Couriers hate paper maps.", "Dispatchers retype invoices.", "Bakers wait.")
    ]
    return project, conversation, [m.pk for m in sent]


def _log_in(page) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", "anna")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")


def _write_replies(conversation_id: int, message_ids: list[int]) -> list[int]:
    """Replies written from another thread (Playwright's loop forbids the ORM in this one)."""
    written: list[int] = []

    def write() -> None:
        try:
            for message_id in message_ids:
                reply = Message.objects.create(
                    conversation_id=conversation_id,
                    role=Role.ASSISTANT,
                    text=f"Noted message {message_id}.",
                    reply_to_id=message_id,
                )
                written.append(reply.pk)
        finally:
            connections.close_all()

    thread = threading.Thread(target=write)
    thread.start()
    thread.join(30)
    return written


def test_replies_arriving_out_of_order_are_placed_after_their_message(chat, chromium):  # noqa: F811
    from playwright.sync_api import expect

    project, conversation, sent = chat
    page = chromium()
    _log_in(page)
    page.goto(f"/projects/{project.slug}/chat/{conversation.pk}/")
    expect(page.locator("#messages .message.user")).to_have_count(3)
    # Message 3 is answered first, then 1, then 2 (the reply to 2 is the newest).
    first = _write_replies(conversation.pk, [sent[2], sent[0]])
    expect(page.locator("#messages .message.assistant")).to_have_count(2)
    last = _write_replies(conversation.pk, [sent[1]])
    expect(page.locator("#messages .message.assistant")).to_have_count(3)
    replies = {sent[2]: first[0], sent[0]: first[1], sent[1]: last[0]}
    order = page.evaluate(
        "Array.from(document.querySelectorAll('#messages .message')).map(e => e.dataset.id)"
    )
    assert [int(pk) for pk in order] == [
        sent[0],
        replies[sent[0]],
        sent[1],
        replies[sent[1]],
        sent[2],
        replies[sent[2]],
    ]
    expect(page.locator(f"#reply-{replies[sent[1]]} .reply-to")).to_have_text("↩ to message 2")
    page.reload()
    reloaded = page.evaluate(
        "Array.from(document.querySelectorAll('#messages .message')).map(e => e.dataset.id)"
    )
    assert reloaded == order


def test_csv_text_columns_are_checkboxes_with_their_whole_names(
    chat,
    chromium,  # noqa: F811
    embedded_server,  # the upload queues the rows' pipeline on the broker
    tmp_path,
):
    from playwright.sync_api import expect

    project, _, _ = chat
    survey = tmp_path / "survey.csv"
    survey.write_bytes(
        csv_bytes(
            [LONG_QUESTION, "Anything else?", "Respondent"],
            [["Paper maps are out of date", "Dark mode", "Ann"]],
        )
    )
    page = chromium(width=390)
    _log_in(page)
    page.goto(f"/projects/{project.slug}/chat/")
    page.set_input_files("#notes-file", str(survey))
    checks = page.locator("#text-columns input[type=checkbox]")
    expect(checks).to_have_count(3)
    expect(page.locator("#text-columns-hint")).to_be_visible()
    label = page.locator("#text-columns label").first
    expect(label).to_have_text(LONG_QUESTION)
    box = label.bounding_box()
    assert box and box["x"] + box["width"] <= 390, box  # wrapped, not cut or wider than the phone
    page.locator("#text-columns label", has_text="Anything else?").click()
    label.click()  # a second column, by a plain click
    page.select_option("#author-column", "Respondent")
    page.click("#upload-form button[type=submit]")
    expect(page.locator("#upload-notice")).to_contain_text("1 part of survey.csv added")
    contents = []

    def read() -> None:
        try:
            contents.extend(
                Episode.objects.filter(source_ref__file="survey.csv").values_list(
                    "content", "author"
                )
            )
        finally:
            connections.close_all()

    thread = threading.Thread(target=read)
    thread.start()
    thread.join(30)
    assert contents == [
        (f"{LONG_QUESTION}: Paper maps are out of date\nAnything else?: Dark mode", "Ann")
    ]
