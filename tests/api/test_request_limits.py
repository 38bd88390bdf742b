"""Limits at the edge, counted in the shared cache (Redis): sign-in per address and per account,
the client's address taken only as far as the trusted proxies vouch for it, API reads and writes
per user, sign-ups, invitations, passwords; bodies that cannot crash the parser."""

from __future__ import annotations

import json
import logging
import time

import pytest
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import ValidationError
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from kg import tenancy
from kg.models import Membership, Organization
from tests.api.test_api import _error

TOKEN = "/api/auth/token/"


def _sign_in(client: APIClient, username: str, password: str, address: str, **headers):
    return client.post(
        TOKEN, {"username": username, "password": password}, REMOTE_ADDR=address, **headers
    )


# --- the client's address ----------------------------------------------------------------------


def test_a_forged_forwarded_header_does_not_reset_the_sign_in_limit(alice, settings):
    settings.NUM_PROXIES = 0  # no proxy in front: the header is the client's own writing
    client = APIClient()
    limit = settings.LOGIN_ATTEMPTS_PER_MINUTE
    codes = [
        _sign_in(
            client, f"u{i}", "guess", "203.0.113.7", HTTP_X_FORWARDED_FOR=f"10.0.0.{i}"
        ).status_code
        for i in range(limit + 3)
    ]
    assert codes[:limit] == [401] * limit
    assert codes[limit:] == [429] * 3


def test_behind_one_proxy_only_the_proxys_entry_counts(alice, settings):
    settings.NUM_PROXIES = 1
    client = APIClient()
    limit = settings.LOGIN_ATTEMPTS_PER_MINUTE
    proxy = "172.18.0.5"  # every request arrives from the proxy
    codes = [
        _sign_in(
            client, f"u{i}", "guess", proxy, HTTP_X_FORWARDED_FOR=f"10.9.{i}.1, 203.0.113.7"
        ).status_code
        for i in range(limit + 2)
    ]
    assert codes[limit:] == [429, 429]  # the forged left-hand entries changed nothing
    # Another client behind the same proxy is not held up by the first one's attempts.
    other = _sign_in(client, "alice", "pw-123456", proxy, HTTP_X_FORWARDED_FOR="198.51.100.9")
    assert other.status_code == 200, other.content


def test_the_web_login_counts_the_client_not_the_proxy(alice, settings):
    settings.NUM_PROXIES = 1
    attacker, owner = Client(), Client()
    proxy = "172.18.0.5"
    for i in range(settings.LOGIN_ATTEMPTS_PER_MINUTE + 1):
        attacker.post(
            "/accounts/login/",
            {"username": f"u{i}", "password": "x"},
            REMOTE_ADDR=proxy,
            HTTP_X_FORWARDED_FOR="203.0.113.7",
        )
    refused = attacker.post(
        "/accounts/login/",
        {"username": "alice", "password": "pw-123456"},
        REMOTE_ADDR=proxy,
        HTTP_X_FORWARDED_FOR="203.0.113.7",
    )
    assert refused.status_code == 429
    signed_in = owner.post(
        "/accounts/login/",
        {"username": "alice", "password": "pw-123456"},
        REMOTE_ADDR=proxy,
        HTTP_X_FORWARDED_FOR="198.51.100.9",
    )
    assert signed_in.status_code == 302
    assert owner.session["_auth_user_id"] == str(alice[0].pk)


# --- failures per account ----------------------------------------------------------------------


def test_failed_sign_ins_of_an_account_wait_longer_each_time(alice, bob, settings):
    settings.LOGIN_ATTEMPTS_PER_MINUTE = 1000  # the address's limit out of the way
    free = settings.LOGIN_FREE_FAILURES
    client = APIClient()
    attacker = "203.0.113.7"
    for _ in range(free):
        _error(_sign_in(client, "alice", "wrong", attacker), 401)
    held = _sign_in(client, "alice", "pw-123456", attacker)  # even the right password waits
    body = _error(held, 429)
    assert "this account" in body["message"]
    assert int(held["Retry-After"]) == 1

    # Not a lockout: the owner elsewhere, and another account from the attacker's address, pass.
    assert _sign_in(client, "alice", "pw-123456", "198.51.100.9").status_code == 200
    assert _sign_in(client, "bob", "pw-123456", attacker).status_code == 200
    # User names are one account whatever their case.
    assert _sign_in(client, "ALICE", "pw-123456", attacker).status_code == 429

    time.sleep(1.1)
    _error(_sign_in(client, "alice", "wrong", attacker), 401)  # one more failure...
    held = _sign_in(client, "alice", "pw-123456", attacker)
    assert int(_error(held, 429) and held["Retry-After"]) == 2  # ...doubles the wait

    time.sleep(2.1)
    assert _sign_in(client, "alice", "pw-123456", attacker).status_code == 200
    # A success forgets the failures: the next wrong password is a plain 401 again.
    _error(_sign_in(client, "alice", "wrong", attacker), 401)


def test_the_wait_has_a_ceiling(alice, settings):
    settings.LOGIN_ATTEMPTS_PER_MINUTE = 1000
    settings.LOGIN_FREE_FAILURES = 1
    settings.LOGIN_BACKOFF_MAX_SECONDS = 3
    from kg.web.rate_limits import record_sign_in_failure, sign_in_wait

    for _ in range(40):
        record_sign_in_failure("alice", "203.0.113.7")
    assert sign_in_wait("alice", "203.0.113.7") == 3
    assert sign_in_wait("alice", "198.51.100.9") == 0


def test_the_web_login_backs_off_per_account(alice, settings):
    settings.LOGIN_ATTEMPTS_PER_MINUTE = 1000
    attacker, owner = Client(REMOTE_ADDR="203.0.113.7"), Client(REMOTE_ADDR="198.51.100.9")
    for _ in range(settings.LOGIN_FREE_FAILURES):
        answer = attacker.post("/accounts/login/", {"username": "alice", "password": "x"})
        assert answer.status_code == 200
    tried = []

    def checked(**details) -> None:
        tried.append(details)

    user_login_failed.connect(checked)
    try:
        held = attacker.post("/accounts/login/", {"username": "alice", "password": "pw-123456"})
        wrong = attacker.post("/accounts/login/", {"username": "alice", "password": "nope"})
    finally:
        user_login_failed.disconnect(checked)
    assert held.status_code == 429 and int(held["Retry-After"]) >= 1
    assert wrong.status_code == 429
    assert tried == []  # a held attempt is not even checked (nor is the page's form)
    assert "_auth_user_id" not in attacker.session
    answer = owner.post("/accounts/login/", {"username": "alice", "password": "pw-123456"})
    assert answer.status_code == 302


# --- API reads and writes ----------------------------------------------------------------------


def test_api_reads_and_writes_are_limited_per_user(api, bob, settings):
    settings.API_READS_PER_MINUTE = 3
    settings.API_WRITES_PER_MINUTE = 1
    for _ in range(3):
        assert api.get("/api/projects/").status_code == 200
    refused = api.get("/api/projects/")
    _error(refused, 429)
    assert 1 <= int(refused["Retry-After"]) <= 60

    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=bob[0]).key}")
    assert other.get("/api/projects/").status_code == 200  # counted per user

    first = api.post("/api/projects/couriers/conversations/", {"title": "One"})
    assert first.status_code == 201, first.content  # writes have their own budget
    _error(api.post("/api/projects/couriers/conversations/", {"title": "Two"}), 429)


def test_every_api_operation_documents_the_429(api):
    schema = api.get("/api/schema/?format=json").json()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method in {"get", "post", "put", "patch", "delete"}:
                assert "429" in operation["responses"], (method, path)


# --- sign-ups, invitations, passwords ----------------------------------------------------------


def _signup(client: Client, n: int, password: str = "a-long-Passphrase-9"):  # noqa: S107
    return client.post(
        "/accounts/signup/",
        {"username": f"new{n}", "password": password, "organization": f"Org {n}"},
        REMOTE_ADDR="203.0.113.7",
    )


def test_sign_ups_are_limited_per_address(db, settings):
    settings.SIGNUPS_PER_HOUR = 2
    assert _signup(Client(), 1).status_code == 302
    assert _signup(Client(), 2).status_code == 302
    refused = _signup(Client(), 3)
    assert refused.status_code == 429
    assert "too many sign-ups" in refused.content.decode()
    assert int(refused["Retry-After"]) > 0
    assert not Organization.objects.filter(name="Org 3").exists()
    other = Client().post(
        "/accounts/signup/",
        {"username": "new4", "password": "a-long-Passphrase-9", "organization": "Org 4"},
        REMOTE_ADDR="198.51.100.9",
    )
    assert other.status_code == 302


def test_invitations_are_limited_per_user(alice, settings):
    settings.INVITATIONS_PER_HOUR = 2
    client = Client()
    client.force_login(alice[0])
    for _ in range(2):
        assert client.post("/orgs/acme/people/", {"role": "viewer"}).status_code == 200
    refused = client.post("/orgs/acme/people/", {"role": "viewer"})
    assert refused.status_code == 429
    assert "too many invitations" in refused.content.decode()
    assert alice[1].organization.invitations.count() == 2


@pytest.mark.parametrize("password", ["12345678", "password", "qwertyuiop", "short"])
def test_weak_passwords_are_refused_at_sign_up(db, password):
    response = _signup(Client(), 1, password=password)
    assert response.status_code == 400
    assert not Membership.objects.filter(user__username="new1").exists()


def test_every_validator_is_on(db):
    user = tenancy.get_user_model()(username="margaret", email="margaret@example.com")
    for password, said in [
        ("1234567890", "entirely numeric"),
        ("iloveyou1", "too common"),
        ("margaret1", "too similar"),
        ("a1b2", "too short"),
    ]:
        with pytest.raises(ValidationError) as refused:
            validate_password(password, user)
        assert said in " ".join(refused.value.messages)
    validate_password("a-long-Passphrase-9", user)


def test_password_change_uses_the_validators(alice):
    client = Client()
    client.force_login(alice[0])
    answer = client.post(
        "/accounts/password_change/",
        {"old_password": "pw-123456", "new_password1": "12345678", "new_password2": "12345678"},
    )
    assert answer.status_code == 200  # the form again, with the errors
    assert "too common" in answer.content.decode()
    alice[0].refresh_from_db()
    assert alice[0].check_password("pw-123456")


# --- bodies that cannot crash the parser -------------------------------------------------------


def _raw_post(client, path: str, body: bytes, **extra):
    return client.generic("POST", path, body, content_type="application/json", **extra)


@pytest.fixture
def no_traceback(caplog):
    with caplog.at_level(logging.WARNING):
        yield caplog
    for record in caplog.records:
        assert record.exc_info is None, record.getMessage()
        assert record.levelno < logging.ERROR, record.getMessage()


def test_deeply_nested_json_is_400(api, no_traceback):
    crafted = b"[" * 100_000 + b"]" * 100_000
    body = _error(_raw_post(APIClient(), TOKEN, crafted), 400)
    assert "nested deeper" in body["message"]
    conversation = api.post("/api/projects/couriers/conversations/", {"title": "Deep"}).json()
    messages = f"/api/projects/couriers/conversations/{conversation['id']}/messages/"
    _error(_raw_post(api, messages, b'{"text": ' + crafted + b"}"), 400)
    # Nesting the decoder manages but the limit refuses is 400 too.
    shallow_but_deep = json.dumps({"text": json.loads("[" * 100 + "]" * 100)}).encode()
    _error(_raw_post(api, messages, shallow_but_deep), 400)


def test_a_body_over_the_upload_limit_is_413(api, settings, no_traceback):
    big = json.dumps(
        {"username": "a" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10), "password": "x"}
    )
    body = _error(_raw_post(APIClient(), TOKEN, big.encode()), 413)
    assert body["code"] == "too_large"
    conversation = api.post("/api/projects/couriers/conversations/", {"title": "Big"}).json()
    messages = f"/api/projects/couriers/conversations/{conversation['id']}/messages/"
    _error(_raw_post(api, messages, json.dumps({"text": "a" * 2_700_000}).encode()), 413)


def test_a_form_with_too_many_fields_is_400(alice, settings, no_traceback):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10
    form = "&".join(f"f{i}=1" for i in range(50)) + "&username=alice&password=x"
    answer = APIClient().generic(
        "POST", TOKEN, form, content_type="application/x-www-form-urlencoded"
    )
    _error(answer, 400)


# --- the cache unreachable ---------------------------------------------------------------------


def test_without_the_cache_the_api_goes_on_and_sign_in_waits(api, settings, caplog):
    from kg.operations.embedded import free_port

    settings.CACHES = {
        "default": {**settings.CACHES["default"], "LOCATION": f"redis://127.0.0.1:{free_port()}/3"}
    }
    with caplog.at_level(logging.WARNING, logger="groundwork.api"):
        assert api.get("/api/projects/").status_code == 200  # the limits must not take it down
    assert any("not counted" in r.getMessage() for r in caplog.records)
    body = _error(_sign_in(APIClient(), "alice", "pw-123456", "203.0.113.7"), 503)
    assert body["code"] == "unavailable"
    page = Client().post("/accounts/login/", {"username": "alice", "password": "pw-123456"})
    assert page.status_code == 503
    assert "unavailable for a moment" in page.content.decode()
