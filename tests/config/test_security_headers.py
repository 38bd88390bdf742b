"""Every answer carries the Content-Security-Policy; the pages keep to it (no inline script, no
inline event handler), so the policy can say script-src 'self'."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_DIRS = [ROOT / app / "templates" for app in ("kg", "chat", "artifacts", "orgmemory")]


@pytest.mark.django_db
def test_pages_and_the_api_carry_the_policy(client, settings):
    for path in ("/accounts/login/", "/api/no-such-endpoint/", "/health/live"):
        policy = client.get(path)["Content-Security-Policy"]
        directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
        assert directives["script-src"] == "'self'"
        assert directives["object-src"] == "'none'"
        assert directives["frame-ancestors"] == "'none'"
    settings.CONTENT_SECURITY_POLICY = ""
    assert "Content-Security-Policy" not in client.get("/accounts/login/")


def test_templates_have_no_inline_script_or_handler():
    offending = []
    for directory in TEMPLATE_DIRS:
        for template in directory.rglob("*.html"):
            text = template.read_text()
            if re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text):
                offending.append(f"{template.name}: inline <script>")
            if re.search(r"\son[a-z]+\s*=", text):
                offending.append(f"{template.name}: inline event handler")
            if re.search(r'hx-trigger="[^"]*\[', text):
                offending.append(f"{template.name}: htmx trigger filter (evaluated code)")
    assert offending == []


@pytest.mark.django_db
def test_the_api_docs_load_their_script_from_the_site(admin_client):
    page = admin_client.get("/api/docs/")
    assert page.status_code == 200
    text = page.content.decode()
    assert re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text) is None
    script = re.search(r'<script src="([^"]*\?script[^"]*)"', text)
    assert script, text
    loaded = admin_client.get(script.group(1).replace("&amp;", "&"))
    assert loaded.status_code == 200 and b"SwaggerUIBundle" in loaded.content
