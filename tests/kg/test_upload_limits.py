"""One message limit for the web and the API; notes without blank lines cut at sentences;
the file's extension, not its first character, decides its format."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from chat import services
from kg.ledger.episodes import MAX_MESSAGE_CHARS
from kg.ledger.importing import CHUNK_CHARS, read_uploaded_notes, split_at_sentences
from kg.models import Episode
from tests.api.conftest import _fast_passwords, alice  # noqa: F401


@pytest.fixture
def web(client, alice):  # noqa: F811
    client.force_login(alice[0])
    return client


@pytest.fixture
def api(alice):  # noqa: F811
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=alice[0]).key}")
    return client


def test_the_web_form_and_the_api_share_one_message_limit(alice, web, api):  # noqa: F811
    user, project = alice
    conversation = services.current_conversation(project, user)
    page = web.get("/projects/couriers/chat/").content.decode()
    assert f'maxlength="{MAX_MESSAGE_CHARS}"' in page and "200,000 characters" in page
    too_long = "a" * (MAX_MESSAGE_CHARS + 1)
    web_answer = web.post(f"/projects/couriers/chat/{conversation.pk}/send/", {"text": too_long})
    api_answer = api.post(
        f"/api/projects/couriers/conversations/{conversation.pk}/messages/", {"text": too_long}
    )
    assert web_answer.status_code == 400 and "200,000" in web_answer.content.decode()
    assert api_answer.status_code == 400 and "200000" in str(api_answer.json())
    assert not Episode.objects.exists()
    at_limit = "a" * MAX_MESSAGE_CHARS
    assert (
        web.post(f"/projects/couriers/chat/{conversation.pk}/send/", {"text": at_limit}).status_code
        == 302
    )
    assert (
        api.post(
            f"/api/projects/couriers/conversations/{conversation.pk}/messages/", {"text": at_limit}
        ).status_code
        == 201
    )


def test_text_without_blank_lines_is_cut_at_sentences_under_the_chunk_size():
    sentences = [f"Courier {n} says the app lags in basement {n}." for n in range(4000)]
    text = " ".join(sentences)  # about 180,000 characters on one line
    parsed = read_uploaded_notes("notes.txt", text.encode())
    chunks = [item.content for item in parsed.items]
    assert len(chunks) > 1 and all(len(c) <= CHUNK_CHARS for c in chunks)
    assert all(c.endswith(".") for c in chunks)  # whole sentences
    assert " ".join(chunks) == text  # nothing lost or repeated
    assert [item.source_ref["part"] for item in parsed.items] == list(range(1, len(chunks) + 1))


def test_a_sentence_longer_than_the_limit_is_cut_at_a_space():
    words = " ".join(["word"] * 50)  # 249 characters, no sentence end
    pieces = split_at_sentences(words, 40)
    assert all(len(p) <= 40 for p in pieces) and " ".join(pieces) == words
    assert all(not p.startswith(" ") and "wor d" not in p for p in pieces)
    assert split_at_sentences("x" * 100, 40) == ["x" * 40, "x" * 40, "x" * 20]
    assert split_at_sentences("Short. Text.", 40) == ["Short. Text."]


def test_a_markdown_file_starting_with_a_brace_is_read_as_markdown():
    parsed = read_uploaded_notes("notes.md", b'{"draft": true}\n\nCouriers want offline maps.\n')
    assert [item.content for item in parsed.items] == [
        '{"draft": true}\n\nCouriers want offline maps.'
    ]
    assert parsed.items[0].kind == "file_chunk" and not parsed.errors


def test_a_jsonl_file_with_no_readable_line_is_refused_not_accepted_empty(api):
    response = api.post(
        "/api/projects/couriers/uploads/",
        {"file": SimpleUploadedFile("notes.jsonl", b"not json\nnor this\n")},
        format="multipart",
    )
    assert response.status_code == 400
    assert "nothing in notes.jsonl could be read" in str(response.json())
    assert not Episode.objects.exists()
