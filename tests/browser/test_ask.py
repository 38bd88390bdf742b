"""End to end in headless Chromium: ask the research in the chat, get an answer whose citations
open the quoted words highlighted in their message; ask what it never covered and be told so.
Django's live server, the embedded graph and broker, a Celery worker in a thread (offline
engine)."""

from __future__ import annotations

import re

import pytest

from tests.browser.test_chat_to_prd import PASSWORD, member_project, page  # noqa: F401

pytestmark = pytest.mark.browser

RESEARCH = [
    "Couriers wait at the pickup counter for twenty minutes when the kitchen is late.",
    "Restaurant owners said onboarding took two weeks because the menu import kept failing.",
]


def test_ask_in_the_chat_and_follow_a_citation_to_its_words(member_project, worker, page):  # noqa: F811
    from playwright.sync_api import expect

    page.goto("/accounts/login/")
    page.fill("#id_username", "pat")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.goto("/projects/couriers/chat/")
    for number, text in enumerate(RESEARCH, start=1):
        page.fill("#message-text", text)
        page.click("#send-button")
        expect(page.locator(".message.assistant")).to_have_count(number)

    page.fill("#message-text", "What do couriers say about waiting at pickup?")
    page.click("#send-button")
    answer = page.locator(".message.assistant").nth(2)
    expect(answer).to_contain_text("You asked the research (nothing was recorded).")
    citation = answer.locator(".citations a.quote-ref").first
    expect(citation).to_be_visible()
    quoted = answer.locator(".citations li").first.inner_text()
    words = re.search(r"“(.+)”", quoted)
    assert words and words.group(1) in RESEARCH[0]
    citation.click()
    expect(page).to_have_url(re.compile(r"/projects/couriers/research/messages/1/\?span=\d+-\d+"))
    expect(page.locator("#message-text mark")).to_have_text(words.group(1))

    page.goto("/projects/couriers/chat/")
    page.fill("#message-text", "Do couriers want a sleep timer?")
    page.click("#send-button")
    refusal = page.locator(".message.assistant").nth(3)
    expect(refusal).to_contain_text("The research doesn't say.")
    expect(refusal.locator(".citations")).to_have_count(0)
