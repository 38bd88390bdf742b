"""In headless Chromium: a product manager merges two pains from the research view, and the
regenerated PRD changes — one pain left, resting on the evidence of both.

Everything is real: Django's live server, the embedded graph and broker, a Celery worker in a
thread generating the PRD (offline engine); the research is ingested by the real pipeline.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from kg.graph import store
from kg.models import Membership, Organization, Project, Role
from kg.pipeline.ingest import episode_ingest
from tests.browser.test_chat_to_prd import PASSWORD
from tests.browser.test_new_team import chromium  # noqa: F401  (fixture)
from tests.kg.pipeline_helpers import record_messages

MESSAGES = [
    {
        "text": "Couriers in Berlin hate the slow checkout. The slow checkout makes them lose "
        "orders.",
        "at": "2026-01-01T10:00:00Z",
        "author": "Anna",
    },
    {
        "text": "Restaurant owners complain that the payment screen freezes every evening.",
        "at": "2026-01-02T10:00:00Z",
        "author": "Ben",
    },
    {
        "text": "The checkout is slow for couriers again; they lose orders every evening.",
        "at": "2026-01-04T10:00:00Z",
        "author": "Ben",
    },
]

pytestmark = pytest.mark.browser


@pytest.fixture
def research(worker):
    org = Organization.objects.create(slug="acme", name="Acme")
    project = Project.objects.create(organization=org, slug="couriers", name="Couriers app")
    user = get_user_model().objects.create_user(
        username="anna", password=PASSWORD, first_name="Anna"
    )
    Membership.objects.create(user=user, organization=org, role=Role.EDITOR)
    for episode in record_messages(project, MESSAGES):
        episode_ingest(episode.pk)
    # Read before the browser starts: Playwright's loop forbids the ORM in the test's thread.
    pains = {n.label: n for n in store.list_nodes(project.graph_scope, "pain")}
    return project, pains["slow checkout"], pains["lose orders"]


def _pains(page) -> str:
    return page.locator("#section-pains").inner_text()


def test_merge_two_nodes_in_the_research_view_changes_the_prd(research, chromium):  # noqa: F811
    from playwright.sync_api import expect

    project, keep, gone = research
    page = chromium()
    page.goto("/accounts/login/")
    page.fill("#id_username", "anna")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")

    # The first PRD lists both pains.
    page.goto(f"/projects/{project.slug}/prd/")
    page.click(".prd-toolbar .generate button")
    expect(page.locator("sup.cite a").first).to_be_visible()
    before = _pains(page)
    assert "lose orders" in before and "slow checkout" in before, before

    # Merge "lose orders" into "slow checkout" from the survivor's page.
    page.goto(f"/projects/{project.slug}/research/nodes/{keep.number}/")
    merge = page.locator("#merge-form")
    merge.locator("input[name=merge]").fill("lose")  # picked by name, not by number
    merge.locator("button[type=submit]").click()
    picked = page.locator(f"#merge-candidate-{gone.number} form.merge-into-this")
    picked.locator("input[name=note]").fill("the same pain, said twice")
    picked.locator("button[type=submit]").click()
    expect(page.locator("#confirm-step")).to_contain_text(f"Merge #{gone.number}")
    page.locator("#confirm-form button[type=submit]").click()
    expect(page.locator("#correction-done")).to_be_visible()
    expect(page.locator("#node-summary")).to_contain_text("lose orders")  # now an alias
    history = page.locator("#node-history")
    expect(history).to_contain_text(f"merged #{gone.number} into this node")
    expect(history).to_contain_text("by Anna")

    # The regenerated PRD: one pain where there were two.
    page.goto(f"/projects/{project.slug}/prd/")
    page.click(".prd-toolbar .generate button")
    expect(page.locator("#section-pains")).not_to_contain_text("lose orders")
    after = _pains(page)
    assert "slow checkout" in after, after
    assert after != before
    expect(page).to_have_url(re.compile(rf"/projects/{project.slug}/prd/"))
