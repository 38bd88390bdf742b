"""Every form field on the pages says what it is (an <input> without a type renders as the
browser's bare default, unlike its styled neighbours) and every kind used is styled; the CSV
column picker is a group of checkboxes, not a multi-select that needs Ctrl-click."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from django.contrib.auth import get_user_model
from django.test import Client

from kg import tenancy
from kg.models import Membership, Role
from tests.api.conftest import _fast_passwords, alice, research  # noqa: F401

CSS = Path(__file__).resolve().parents[2] / "kg" / "static" / "groundwork" / "site.css"
# Kinds the browser draws by itself (no border or padding of ours to match).
UNSTYLED_KINDS = {"hidden", "checkbox", "radio", "file", "submit"}


class _Inputs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.inputs: list[dict[str, str | None]] = []
        self.multiple_selects: list[str | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "input":
            self.inputs.append(found)
        elif tag == "select" and "multiple" in found:
            self.multiple_selects.append(found.get("name"))


def _fields(response) -> _Inputs:
    assert response.status_code == 200, response.status_code
    parser = _Inputs()
    parser.feed(response.content.decode())
    return parser


def _styled_kinds() -> set[str]:
    return set(re.findall(r"input\[type=(\w+)\]", CSS.read_text(encoding="utf-8")))


def test_every_input_has_a_type_and_every_kind_is_styled(alice, research):  # noqa: F811
    user, project = alice
    invitation = tenancy.create_invitation(user, project.organization, Role.VIEWER)
    owner = Client()
    owner.force_login(user)
    pages = {
        "sign-up": Client().get("/accounts/signup/"),
        "invitation": Client().get(f"/invitations/{invitation.token}/"),
        "projects": owner.get("/"),
        "settings": owner.get(f"/projects/{project.slug}/settings/"),
        "node": owner.get(f"/projects/{project.slug}/research/nodes/1/"),
        "chat": owner.get(f"/projects/{project.slug}/chat/"),
    }
    styled = _styled_kinds()
    seen: set[str] = set()
    for page, response in pages.items():
        fields = _fields(response)
        untyped = [f.get("name") for f in fields.inputs if not f.get("type")]
        assert untyped == [], f"{page}: inputs without a type: {untyped}"
        kinds = {str(f["type"]) for f in fields.inputs}
        assert kinds - UNSTYLED_KINDS <= styled, f"{page}: unstyled {kinds - styled}"
        seen |= kinds
    # The correction notes, the sign-up and the new project's name are styled text fields.
    assert {"text", "number", "email", "password"} <= seen


def test_the_new_project_description_is_a_text_area(alice):  # noqa: F811
    user, _ = alice
    client = Client()
    client.force_login(user)
    html = client.get("/").content.decode()
    assert re.search(r'<textarea id="np-description-acme" name="description"', html)


def test_the_csv_text_columns_are_checkboxes_with_a_hint(alice):  # noqa: F811
    user, project = alice
    client = Client()
    client.force_login(user)
    response = client.get(f"/projects/{project.slug}/chat/")
    fields = _fields(response)
    assert fields.multiple_selects == []  # no Ctrl-click list
    html = response.content.decode()
    group = re.search(r'<div id="text-columns"[^>]*>', html).group(0)
    assert 'role="group"' in group and 'aria-describedby="text-columns-hint"' in group
    assert re.search(r'id="text-columns-hint">Tick every column with what people said', html)
    viewer = get_user_model().objects.create_user(username="vic")
    Membership.objects.create(user=viewer, organization=project.organization, role=Role.VIEWER)
    client.force_login(viewer)
    assert 'id="text-columns"' not in client.get(f"/projects/{project.slug}/chat/").content.decode()
