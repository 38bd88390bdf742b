"""Sources count once: content the project already holds (by hash) is reported as a duplicate
of the earlier message when uploaded or imported again, and adds no corroboration.

Real SQL and the real embedded graph; the pipeline runs in-process with the offline engine.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from kg.graph import store
from kg.ledger.episodes import DuplicateContent, EpisodeInput, record_episode
from kg.ledger.importing import record_uploaded_notes
from kg.models import Episode, EpisodeKind, Membership, Role
from kg.pipeline.ingest import episode_ingest
from tests.kg.pipeline_helpers import make_project

NOTES = """# Interviews

Oleg, courier: the app lags on weak internet in basements.

Maria, dispatcher: we plan routes in Excel every morning.
"""
# The same finding said by someone else, in other words around it: a second source.
OTHER_NOTES = """# Follow-up

Ivan, courier: honestly the app lags on weak internet in basements, every single day.
"""


def _confidence_of_lag(project) -> tuple[int, int]:
    """The pain "app lags on weak internet": its confidence and how many episodes back it."""
    [lag] = [
        n
        for n in store.list_nodes(project.graph_scope)
        if n.type == "pain" and "weak internet" in n.label.lower()
    ]
    return lag.confidence, len(lag.episode_uids)


def _ingest(report) -> None:
    for episode in report.episodes:
        episode_ingest(episode.pk)


def test_an_upload_sent_again_is_reported_and_records_nothing(db):
    project = make_project("dup-upload")
    first = record_uploaded_notes(project, "notes.md", NOTES.encode(), "alice")
    assert [e.number for e in first.episodes] == [1] and first.duplicates == []
    again = record_uploaded_notes(project, "notes-copy.md", NOTES.encode(), "bob")
    assert again.episodes == []
    assert [d.message for d in again.duplicates] == ["part 1: duplicate of message #1"]
    assert Episode.objects.filter(project=project).count() == 1


def test_the_same_record_twice_in_one_export_is_one_episode(db):
    project = make_project("dup-in-file")
    rows = [
        "Couriers lose signal in basements.",
        "Routes vanish.",
        "Couriers lose signal in basements.",
    ]
    export = "\n".join(json.dumps({"author": "Oleg", "text": t}) for t in rows)
    report = record_uploaded_notes(project, "export.jsonl", export.encode(), "alice")
    assert [e.content for e in report.episodes] == rows[:2]
    assert [d.message for d in report.duplicates] == ["line 3: duplicate of message #1"]


def test_another_project_and_a_typed_message_are_not_duplicates(db):
    project = make_project("dup-a")
    other = make_project("dup-b")
    record_uploaded_notes(project, "notes.md", NOTES.encode(), "alice")
    # Per project: the same file in another project is new there.
    assert len(record_uploaded_notes(other, "notes.md", NOTES.encode(), "alice").episodes) == 1
    # A chat message is always recorded (a conversation shows what was typed); an upload or
    # import asks for the check.
    said = record_episode(project, EpisodeInput(content="ok"), enqueue=False)
    assert record_episode(project, EpisodeInput(content="ok"), enqueue=False).number > said.number
    with pytest.raises(DuplicateContent) as refused:
        record_episode(
            project,
            EpisodeInput(content="ok", kind=EpisodeKind.IMPORT),
            enqueue=False,
            refuse_duplicate=True,
        )
    assert refused.value.original.number == said.number
    assert str(refused.value) == f"duplicate of message #{said.number}"


def test_a_duplicate_upload_adds_no_corroboration_and_a_second_source_does(db, graph):
    project = make_project("dup-confidence")
    _ingest(record_uploaded_notes(project, "notes.md", NOTES.encode(), "alice"))
    alone = _confidence_of_lag(project)
    assert alone[1] == 1

    again = record_uploaded_notes(project, "notes (1).md", NOTES.encode(), "alice")
    _ingest(again)
    assert again.duplicates and not again.episodes
    assert _confidence_of_lag(project) == alone  # the same words: still one source

    _ingest(record_uploaded_notes(project, "follow-up.md", OTHER_NOTES.encode(), "alice"))
    corroborated = _confidence_of_lag(project)
    assert corroborated[1] == 2
    assert corroborated[0] > alone[0]  # a distinct source does raise it


def test_api_says_duplicate_of_message_n(db):
    project = make_project("dup-api")
    user = get_user_model().objects.create_user(username="dupe", password="pw-123456")
    Membership.objects.create(user=user, organization=project.organization, role=Role.EDITOR)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    url = f"/api/projects/{project.slug}/uploads/"

    def send():
        upload = SimpleUploadedFile("notes.md", NOTES.encode(), content_type="text/markdown")
        return client.post(url, {"file": upload}, format="multipart")

    first = send()
    assert first.status_code == 201, first.content
    assert first.json()["duplicates"] == []
    second = send()
    assert second.status_code == 200, second.content
    body = second.json()
    assert body["episodes"] == []
    assert body["duplicates"] == [
        {"where": "part 1", "duplicate_of": 1, "message": "part 1: duplicate of message #1"}
    ]


def test_kg_ingest_twice_skips_the_lines_already_recorded(db, tmp_path, capsys):
    project = make_project("dup-ingest")
    path = tmp_path / "export.jsonl"
    rows = [
        {"author": "Oleg", "at": "2026-01-05T10:00:00Z", "text": "The app lags in basements."},
        {"author": "Maria", "at": "2026-01-05T11:00:00Z", "text": "We plan routes in Excel."},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    call_command("kg_ingest", str(path), "--project", project.slug)
    rows.append({"author": "Ivan", "at": "2026-01-06T09:00:00Z", "text": "Paper maps."})
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    call_command("kg_ingest", str(path), "--project", project.slug)
    err = capsys.readouterr().err
    assert "duplicate of message #1" in err and "duplicate of message #2" in err
    assert Episode.objects.filter(project=project).count() == 3
