"""Access rules at the edges: JSON errors under /api/ whatever DEBUG is, sign-in throttled,
password reset only with mail, no text from the address shown as a message."""

from __future__ import annotations

import json
import logging

import pytest
from django.test import Client
from django.urls import path
from rest_framework.test import APIClient

from config.logging import StructuredFormatter
from tests.api.test_api import _error

PROJECT = "/api/projects/couriers/"


@pytest.fixture
def fresh_throttle():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.mark.parametrize("debug", [False, True])
def test_api_errors_are_json_whatever_debug_is(api, alice, settings, debug):
    settings.DEBUG = debug
    _error(api.get("/api/no-such-endpoint/"), 404)
    not_allowed = api.delete("/api/projects/")
    _error(not_allowed, 405)
    assert "GET" in not_allowed["Allow"]
    # The Markdown export's 404 is JSON too, not a dict printed as Markdown.
    body = _error(api.get(PROJECT + "prd/versions/99/markdown/"), 404)
    assert "{" not in body["message"]


def crash(request):
    raise RuntimeError("boom")


urlpatterns = [path("api/crash/", crash)]


@pytest.mark.parametrize("debug", [False, True])
def test_a_crash_is_a_json_500_and_a_structured_stderr_line(settings, alice, debug, caplog):
    settings.DEBUG = debug
    settings.ROOT_URLCONF = __name__
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.ERROR, logger="django.request"):
        _error(client.get("/api/crash/"), 500)
    record = next(r for r in caplog.records if r.name == "django.request")
    line = json.loads(StructuredFormatter().format(record))
    assert line["level"] == "ERROR" and line["path"] == "/api/crash/" and line["status"] == 500
    assert "RuntimeError: boom" in line["exception"]


def test_server_errors_go_to_stderr_structured(settings):
    handlers = settings.LOGGING["loggers"]["django.request"]["handlers"]
    assert handlers == ["errors"]
    assert settings.LOGGING["handlers"]["errors"]["formatter"] == "structured"


def test_wrong_password_is_401_and_missing_field_is_400(alice, fresh_throttle):
    client = APIClient()
    wrong = client.post("/api/auth/token/", {"username": "alice", "password": "nope"})
    body = _error(wrong, 401)
    assert "credentials" in body["message"]
    _error(client.post("/api/auth/token/", {"username": "alice"}), 400)
    right = client.post("/api/auth/token/", {"username": "alice", "password": "pw-123456"})
    assert right.status_code == 200 and right.json()["token"]


def test_token_endpoint_is_throttled(alice, settings, fresh_throttle):
    client = APIClient()
    limit = settings.LOGIN_ATTEMPTS_PER_MINUTE
    # Different accounts, so the per-account backoff stays out of it: the address's limit.
    codes = [
        client.post("/api/auth/token/", {"username": f"u{i}", "password": "guess"}).status_code
        for i in range(limit + 2)
    ]
    assert codes[:limit] == [401] * limit
    assert codes[limit:] == [429, 429]
    refused = client.post("/api/auth/token/", {"username": "alice", "password": "pw-123456"})
    _error(refused, 429)  # even the right password waits
    assert int(refused["Retry-After"]) > 0


def test_web_login_is_throttled(alice, settings, fresh_throttle):
    client = Client()
    limit = settings.LOGIN_ATTEMPTS_PER_MINUTE
    for i in range(limit):
        assert (
            client.post("/accounts/login/", {"username": f"u{i}", "password": "x"}).status_code
            == 200
        )
    refused = client.post("/accounts/login/", {"username": "alice", "password": "pw-123456"})
    assert refused.status_code == 429
    assert "Too many attempts" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_password_reset_is_hidden_without_mail(client, db, settings):
    assert settings.PASSWORD_RESET_ENABLED is False  # no EMAIL_HOST in the test environment
    assert client.get("/accounts/password_reset/").status_code == 404
    assert "Forgot your password" not in client.get("/accounts/login/").content.decode()


def test_the_address_cannot_make_the_chat_page_show_a_notice(alice, graph):
    user, project = alice
    client = Client()
    client.force_login(user)
    page = client.get(f"/projects/{project.slug}/chat/?upload_error=<b>Your account is locked</b>")
    text = page.content.decode()
    assert "account is locked" not in text
    assert 'id="upload-error"' not in text
    page = client.get(
        f"/projects/{project.slug}/chat/?upload_error=no_file&uploaded=9&skipped=2&notice=Hi"
    )
    text = page.content.decode()
    assert 'id="upload-error"' not in text and 'id="upload-notice"' not in text
    assert "Choose a file to upload." not in text and "added as evidence" not in text
    assert 'class="notices"' not in text


def test_a_refused_upload_says_why_without_the_address(alice, graph):
    user, project = alice
    client = Client()
    client.force_login(user)
    answer = client.post(
        f"/projects/{project.slug}/upload/", {"notes": _file("notes.txt", b"  \n \n")}
    )
    assert answer.status_code == 302
    assert answer["Location"] == f"/projects/{project.slug}/chat/"  # nothing in the address
    text = client.get(answer["Location"]).content.decode()
    assert "The file was not added." in text
    reason = text.split('id="upload-error"')[1].split("</p>")[0]
    assert len(reason) > len(' role="alert">The file was not added.')  # the reason follows
    # The reason was shown once: it lived in the session, not in the address.
    assert "The file was not added. " not in client.get(answer["Location"]).content.decode()


def _file(name: str, content: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content)
