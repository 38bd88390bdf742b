"""In headless Chromium: a PM edits a PRD sentence, sees the new version and its diff,
regenerates (an unchanged graph keeps the edit; changed research gives a version that lists
the edit it does not hold), and downloads the DOCX and the requirements CSV, whose contents
are read back.

Everything is real: Django's live server, the embedded graph and broker, a Celery worker in a
thread generating the PRD (offline engine) and ingesting the chat message that changes the
research.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.contrib.auth import get_user_model
from docx import Document as DocxDocument

from artifacts.exports import REQUIREMENT_COLUMNS
from kg.models import Membership, Organization, Project, Role
from tests.artifacts.conftest import Research
from tests.artifacts.test_exports import _footnotes
from tests.browser.test_chat_to_prd import PASSWORD
from tests.browser.test_new_team import chromium  # noqa: F401  (fixture)

pytestmark = pytest.mark.browser

ORIGINAL = "Requirement: SMS reminders — solves the pain: Lost bookings."
EDITED = "Requirement: SMS reminders help salon owners who lose bookings."


@pytest.fixture
def bookings_research(worker):
    """Reminders answer two pains of two segments and are asked for by three people."""
    org = Organization.objects.create(slug="salons", name="Salons")
    project = Project.objects.create(organization=org, slug="bookings", name="Bookings app")
    user = get_user_model().objects.create_user(username="pat", password=PASSWORD)
    Membership.objects.create(user=user, organization=org, role=Role.EDITOR)
    r = Research(project)
    e1 = r.say("We recommend a booking widget on the salon site.", "2026-04-01T09:00:00Z", "pm")
    e2 = r.say(
        "Salon owners lose bookings; SMS reminders would help.", "2026-04-02T09:00:00Z", "ann"
    )
    e3 = r.say(
        "Receptionists forget to call clients; SMS reminders fix that.",
        "2026-04-03T09:00:00Z",
        "bob",
    )
    r.node("feature", "Booking widget", (e1, "We recommend a booking widget"))
    reminders = r.node(
        "feature", "SMS reminders", (e2, "SMS reminders would help"), (e3, "SMS reminders fix that")
    )
    owners = r.node("segment", "Salon owners", (e2, "Salon owners lose bookings"))
    desk = r.node("segment", "Receptionists", (e3, "Receptionists forget to call clients"))
    lost = r.node("pain", "Lost bookings", (e2, "lose bookings"))
    calls = r.node("pain", "Forgotten calls to clients", (e3, "forget to call clients"))
    r.edge("solves", reminders, lost, e2, "Salon owners lose bookings; SMS reminders would help")
    r.edge("solves", reminders, calls, e3, "forget to call clients; SMS reminders fix that")
    r.edge("experiences", owners, lost, e2, "Salon owners lose bookings")
    r.edge("experiences", desk, calls, e3, "Receptionists forget to call clients")
    return project


def _download(page, link_text: str):
    with page.expect_download() as info:
        page.locator(".prd-toolbar a.download", has_text=link_text).click()
    download = info.value
    with open(download.path(), "rb") as handle:
        return download.suggested_filename, handle.read()


def test_edit_a_sentence_regenerate_and_download_the_exports(bookings_research, chromium):  # noqa: F811
    from playwright.sync_api import expect

    project = bookings_research
    page = chromium()
    page.goto("/accounts/login/")
    page.fill("#id_username", "pat")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")

    # The first PRD, with the reminders ranked first.
    page.goto(f"/projects/{project.slug}/prd/")
    page.click(".prd-toolbar .generate button")
    requirements = page.locator("#section-requirements")
    expect(requirements).to_contain_text(ORIGINAL)
    expect(requirements).to_contain_text("Priority 1:")

    # Edit the reminders' sentence: a new version by pat, with the diff shown.
    option = page.locator("#sentence option", has_text=ORIGINAL).first
    page.select_option("#sentence", option.get_attribute("value"))
    page.fill("#text", EDITED)
    page.click("#prd-edit button[type=submit]")
    expect(page).to_have_url(re.compile(rf"/projects/{project.slug}/prd/\?version=2$"))
    diff = page.locator("#edit-diff")
    expect(diff).to_contain_text("Edited by pat from version 1")
    expect(diff.locator("del")).to_have_text(ORIGINAL)
    expect(diff.locator("ins")).to_have_text(EDITED)
    expect(requirements).to_contain_text(EDITED)
    expect(requirements).not_to_contain_text(ORIGINAL)
    expect(page.locator("#version option[selected]")).to_contain_text("v2")
    # The edited sentence keeps its citations: a footnote mark still follows it.
    edited = requirements.locator("li, p", has_text=EDITED).first
    expect(edited.locator("sup.cite a").first).to_be_visible()

    # The DOCX of the edited version: the new sentence, its quote in a footnote.
    name, body = _download(page, "Download DOCX")
    assert name == f"{project.slug}-prd-v2.docx"
    document = DocxDocument(io.BytesIO(body))
    text = "\n".join(p.text for p in document.paragraphs)
    assert EDITED in text and ORIGINAL not in text
    notes = _footnotes(document)
    assert any("SMS reminders would help" in note for note in notes.values()), notes

    # The requirements CSV: the Jira-style columns, the reminders first with their quotes.
    name, body = _download(page, "Requirements CSV")
    assert name == f"{project.slug}-prd-v2-requirements.csv"
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows[0] == list(REQUIREMENT_COLUMNS)
    first = dict(zip(rows[0], rows[1], strict=True))
    assert (first["Summary"], first["Rank"], first["Priority"]) == ("SMS reminders", "1", "Highest")
    assert set(first["Labels"].split()) == {"Salon-owners", "Receptionists"}
    assert "SMS reminders would help" in first["Description"]
    assert [row[0] for row in rows[1:]] == ["SMS reminders", "Booking widget"]

    # Regenerating from the unchanged research answers with the edited version: the edit stays.
    page.click(".prd-toolbar .generate button")
    expect(requirements).to_contain_text(EDITED)
    expect(page.locator("#edits-not-kept")).to_have_count(0)
    expect(page.locator("#version option[selected]")).to_contain_text("v2")

    # New research arrives through the chat; the next PRD is generated from it and lists the
    # edit it does not hold instead of dropping it silently.
    page.goto(f"/projects/{project.slug}/chat/")
    page.fill("#message-text", "Salon owners say clients forget their appointments.")
    page.click("#send-button")
    expect(page.locator(".message.assistant")).to_have_count(1)
    page.goto(f"/projects/{project.slug}/prd/")
    page.click(".prd-toolbar .generate button")
    not_kept = page.locator("#edits-not-kept")
    expect(not_kept).to_contain_text(f"v2: {EDITED}")
    expect(page.locator("#version option[selected]")).to_contain_text("v3")
    expect(requirements).to_contain_text(ORIGINAL)
