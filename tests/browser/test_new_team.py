"""A new product manager in headless Chromium: signs up, creates a project, invites a viewer
(who reads but cannot write), chats, uploads notes, generates the PRD and reaches the highlighted
quote from a claim in two clicks; then answers the contradiction the research holds and finds
the decision, citing the answer, in the regenerated PRD. Screenshots at 1280 and 390 px go to
the test's tmp dir.

Everything is real: Django's live server, the embedded graph and broker, a Celery worker in a
thread (pipeline, replies and PRD generation with the offline engine).
"""

from __future__ import annotations

import re

import pytest

from tests.browser.test_chat_to_prd import CHROMIUM, CHROMIUM_ARGS, TIMEOUT_MS

PASSWORD = "a-long-test-password"
MESSAGES = [
    "Couriers in Moscow say the app lags on weak internet in basements.",
    "Couriers use paper maps and WhatsApp groups to coordinate deliveries today.",
    # Two statements that disagree: the research asks which holds.
    "For couriers price is the main factor when they pick an app.",
    "Honestly, price does not matter to couriers at all.",
]
ANSWER = "We asked twelve couriers again and price is the main factor for all of them."
NOTES = (
    "# Interview with a dispatcher\n\n"
    "Dispatchers lose track of couriers when the app lags on weak internet. "
    "They call each courier by phone instead.\n"
)
WIDTHS = {"desktop": 1280, "phone": 390}

pytestmark = pytest.mark.browser


@pytest.fixture
def chromium(live_server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        errors: list[str] = []

        def new_page(width: int = 1280):
            context = browser.new_context(
                base_url=live_server.url, viewport={"width": width, "height": 900}
            )
            context.set_default_timeout(TIMEOUT_MS)
            page = context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            return page

        yield new_page
        browser.close()
        assert errors == [], f"JavaScript errors on the page: {errors}"


def _shoot(page, tmp_path, name: str) -> None:
    """The page at both widths, saved under the test's tmp dir; nothing wider than the screen."""
    for label, width in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": 900})
        path = tmp_path / f"{name}-{label}-{width}.png"
        page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 0
        overflow = page.evaluate("document.documentElement.scrollWidth")
        assert overflow <= width, f"{name} is {overflow}px wide at {width}px"
    page.set_viewport_size({"width": 1280, "height": 900})


def _post_status(page, url: str) -> int:
    """A write the page does not offer, sent anyway with the session and its CSRF token."""
    return page.evaluate(
        """async (url) => {
            const token = document.cookie.split('; ').find(c => c.startsWith('csrftoken='));
            const response = await fetch(url, {
                method: 'POST', redirect: 'manual',
                headers: {'X-CSRFToken': token ? token.split('=')[1] : ''},
                body: new URLSearchParams({text: 'a viewer writes'}),
            });
            return response.status;
        }""",
        url,
    )


def test_a_new_team_from_sign_up_to_the_quote_behind_a_claim(
    transactional_db, worker, chromium, tmp_path, settings
):
    from playwright.sync_api import expect

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    pm = chromium()

    # Sign up: a user and an organization of which the PM is the owner.
    pm.goto("/accounts/login/")
    pm.click("#signup-link")
    pm.fill("#id_username", "priya")
    pm.fill("#id_password", PASSWORD)
    pm.fill("#id_organization", "Rocket Couriers")
    pm.click("#signup-form button[type=submit]")
    expect(pm.locator("h1")).to_have_text("Your projects")

    # A project, with its language.
    pm.fill("#np-name-rocket-couriers", "Courier app")
    pm.select_option("#np-language-rocket-couriers", "en")
    pm.click("#new-project-rocket-couriers button[type=submit]")
    expect(pm).to_have_url(re.compile(r"/projects/courier-app/chat/$"))
    for section in ("#nav-projects", "#nav-chat", "#nav-research", "#nav-prd", "#nav-insights"):
        expect(pm.locator(section)).to_be_visible()

    # Invite a viewer by link.
    pm.click(".topbar .crumb a >> nth=0")  # the organization: its People page
    pm.select_option("#invite-role", "viewer")
    pm.click("#invite-form button[type=submit]")
    link = pm.locator("#invitation-link").input_value()
    assert "/invitations/" in link

    # The viewer joins through the link, reads, and cannot write.
    viewer = chromium()
    viewer.goto(link)
    expect(viewer.locator("#invite-role")).to_have_text("viewer")
    viewer.fill("#id_username", "vic")
    viewer.fill("#id_password", PASSWORD)
    viewer.click("#invitation-signup button[type=submit]")
    viewer.click("text=Courier app")
    expect(viewer.locator("#read-only-notice")).to_be_visible()
    assert viewer.locator("#send-form").count() == 0
    assert viewer.locator("#generate-prd").count() == 0
    pm.reload()  # the People page: Vic is a member now, as a viewer
    expect(pm.locator("#member-vic select")).to_have_value("viewer")
    conversation_id = re.search(
        r"/chat/(\d+)/", viewer.locator("#chat-poller").get_attribute("hx-get")
    ).group(1)
    assert _post_status(viewer, f"/projects/courier-app/chat/{conversation_id}/send/") == 403

    # The PM chats; the assistant answers every message.
    pm.click("#nav-projects")
    pm.click("#project-list >> text=Courier app")
    for number, text in enumerate(MESSAGES, start=1):
        pm.fill("#message-text", text)
        pm.click("#send-button")
        expect(pm.locator(f"#message-{number}")).to_contain_text(text)
        expect(pm.locator(".message.assistant")).to_have_count(number)

    # Uploads notes.
    notes = tmp_path / "dispatcher.md"
    notes.write_text(NOTES, encoding="utf-8")
    pm.set_input_files("#notes-file", str(notes))
    pm.click("#upload-form button[type=submit]")
    expect(pm.locator("#upload-notice")).to_contain_text("1 part of")
    expect(pm.locator("#panel .node-group[data-type=pain]")).to_contain_text("lags")
    expect(pm.locator("#panel-progress")).to_have_count(0)
    _shoot(pm, tmp_path, "chat")

    # The research view lists what was found; the viewer sees it too.
    pm.click("#nav-research")
    expect(pm.locator("#research-nodes .research-node").first).to_be_visible()
    _shoot(pm, tmp_path, "research")
    viewer.goto("/projects/courier-app/research/")
    expect(viewer.locator("#research-nodes .research-node").first).to_be_visible()

    # Generate the PRD; at phone width the Generate button is whole on the screen.
    pm.click("#nav-prd")
    pm.set_viewport_size({"width": 390, "height": 900})
    box = pm.locator(".prd-toolbar .generate button").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    pm.set_viewport_size({"width": 1280, "height": 900})
    pm.click(".prd-toolbar .generate button")
    citation = pm.locator("sup.cite a").first
    expect(citation).to_be_visible()
    _shoot(pm, tmp_path, "prd")
    tip = citation.get_attribute("title") or ""
    quote = re.search(r"[“\"«](.+?)[”\"»]\s*$", tip).group(1)
    episode = citation.get_attribute("data-episode")

    # Click 1: the node's evidence, the quoted words highlighted inside the cited message.
    citation.click()
    cited = pm.locator(f"#evidence-{episode}")
    expect(cited).to_have_class(re.compile(r"\bcited\b"))
    expect(cited.locator("mark").first).to_be_visible()
    assert quote in " ".join(cited.locator("mark").all_inner_texts())
    _shoot(pm, tmp_path, "node")

    # Click 2: the whole message, scrolled to the highlighted words.
    cited.locator("a.number").click()
    expect(pm).to_have_url(re.compile(rf"/research/messages/{episode}/\?node=\d+#quote$"))
    mark = pm.locator("#message-text mark").first
    expect(mark).to_be_visible()
    expect(mark).to_be_in_viewport()
    assert quote in " ".join(pm.locator("#message-text mark").all_inner_texts())
    _shoot(pm, tmp_path, "message")

    # The viewer reads the PRD, without the Generate button.
    viewer.goto("/projects/courier-app/prd/")
    expect(viewer.locator("sup.cite a").first).to_be_visible()
    assert viewer.locator(".prd-toolbar .generate").count() == 0

    # The PM answers the disagreement in the chat: price is the main factor.
    pm.click("#nav-chat")
    disagreement = pm.locator("#panel .contradiction")
    expect(disagreement).to_have_count(1)
    main = disagreement.locator("blockquote", has_text="price is the main factor")
    kept = main.locator(".muted").inner_text().lstrip("#")
    disagreement.locator("input[name=answer]").fill(ANSWER)
    disagreement.locator(f'button.keep[value="{kept}"]').click()
    expect(pm.locator("#panel .contradiction")).to_have_count(0)
    expect(pm.locator(".message.user").last).to_contain_text(ANSWER)

    # The regenerated PRD says what was decided and cites the answer.
    pm.click("#nav-prd")
    pm.click(".prd-toolbar .generate button")
    decision = pm.locator("#section-decisions .claim").first
    expect(decision).to_contain_text("“price is the main factor” holds")
    expect(decision).to_contain_text("“price does not matter” no longer does")
    answer_citation = decision.locator("sup.cite a").first
    answer_episode = answer_citation.get_attribute("data-episode")
    assert ANSWER in (answer_citation.get_attribute("title") or "")
    assert pm.locator("#section-open_questions").inner_text().count("price") == 0
    _shoot(pm, tmp_path, "decision")

    # One click: the kept statement's evidence shows the answer, its words highlighted.
    answer_citation.click()
    expect(pm).to_have_url(re.compile(rf"/research/nodes/{kept}/\?episode={answer_episode}"))
    answered = pm.locator(f"#evidence-{answer_episode}")
    expect(answered).to_have_class(re.compile(r"\bcited\b"))
    assert ANSWER in " ".join(answered.locator("mark").all_inner_texts())
    assert len(list(tmp_path.glob("*.png"))) == 12
