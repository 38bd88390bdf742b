"""Uploaded notes: chunks with their place in the file, records, and bad files refused whole."""

from __future__ import annotations

import json

import pytest

from kg.ledger.importing import (
    MAX_UPLOAD_BYTES,
    UnreadableFile,
    read_uploaded_notes,
    record_uploaded_notes,
)
from kg.models import Episode, EpisodeKind
from tests.kg.pipeline_helpers import make_project

NOTES = """# Interviews

Oleg, courier: the app lags on weak internet in basements.
He calls the dispatcher every time the route disappears.

Maria, dispatcher: we plan routes in Excel every morning.

## Survey

40% of orders are late during the evening peak.
"""


def test_markdown_becomes_chunks_that_remember_file_line_and_heading():
    parsed = read_uploaded_notes("notes.md", NOTES.encode())
    assert parsed.errors == []
    assert [i.kind for i in parsed.items] == [EpisodeKind.FILE_CHUNK] * 2
    first, second = parsed.items
    assert first.content.startswith("Oleg, courier") and "Maria, dispatcher" in first.content
    assert first.source_ref == {
        "file": "notes.md",
        "part": 1,
        "line": 2,
        "section": "Interviews",
        "section_path": ["Interviews"],
    }
    assert second.content == "40% of orders are late during the evening peak."
    assert second.source_ref["section"] == "Survey" and second.source_ref["part"] == 2
    assert second.source_ref["section_path"] == ["Interviews", "Survey"]


def test_a_heading_that_states_a_finding_stays_in_the_text():
    notes = "# Findings\n\n### Requesters did not receive a confirmation\n\nSeveral said so.\n"
    parsed = read_uploaded_notes("findings.md", notes.encode())
    assert [i.content for i in parsed.items] == [
        "Requesters did not receive a confirmation\n\nSeveral said so."
    ]
    assert parsed.items[0].source_ref["line"] == 3


def test_long_text_is_split_at_paragraphs():
    paragraph = "Couriers say the app lags on weak internet. " * 30
    parsed = read_uploaded_notes("long.txt", ("\n\n".join([paragraph] * 10)).encode())
    assert len(parsed.items) > 2
    assert all(len(i.content) < 2 * 4000 for i in parsed.items)
    assert "".join(i.content for i in parsed.items).count("Couriers") == 300  # nothing lost


def test_jsonl_upload_reads_records_and_reports_bad_lines():
    lines = [
        json.dumps({"author": "pm", "at": "2026-03-01T10:00:00Z", "text": "Price matters."}),
        "{broken",
        json.dumps({"text": "Couriers hate paper maps."}),
    ]
    parsed = read_uploaded_notes("feedback.jsonl", "\n".join(lines).encode())
    assert [i.content for i in parsed.items] == ["Price matters.", "Couriers hate paper maps."]
    assert parsed.errors == [
        "line 2: not valid JSON (Expecting property name enclosed in double quotes)"
    ]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"\n\xff broken\n", "not valid UTF-8 .*line 2"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not a text file"),
        (b"x" * (MAX_UPLOAD_BYTES + 1), "the limit is"),
        (b"   \n\n  ", "holds no text"),
    ],
)
def test_bad_files_are_refused_with_a_reason_and_record_nothing(db, raw, message):
    project = make_project("uploads")
    with pytest.raises(UnreadableFile, match=message):
        record_uploaded_notes(project, "notes.txt", raw, "alice")
    assert not Episode.objects.filter(project=project).exists()


def test_recorded_chunks_are_episodes_queued_for_the_pipeline(
    db, django_capture_on_commit_callbacks
):
    project = make_project("uploads")
    with django_capture_on_commit_callbacks() as queued:
        report = record_uploaded_notes(project, "notes.md", NOTES.encode(), "alice")
    assert [e.number for e in report.episodes] == [1, 2]
    assert {e.author for e in report.episodes} == {"alice"}
    # One task for the run, the last chunk's: it works through the chunks before it in order.
    assert [q.args for q in queued] == [(report.episodes[-1].pk,)]
