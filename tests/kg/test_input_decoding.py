"""Bad bytes and bad dates in imported files: refused line by line, with the line number and
the reason, and every good line kept (kg_ingest and uploads read files the same way)."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from kg.graph.records import graph_time
from kg.ledger.episodes import EpisodeInput, EpisodeRejected, iso_utc, record_episode
from kg.ledger.importing import read_ingest_file, read_uploaded_notes
from kg.ledger.sources.base import UnreadableFile
from kg.models import Episode, EpisodeProcessing, Project
from kg.tenancy import get_or_create_project


def record(text: str, at: str = "2026-03-01T10:00:00Z", author: str = "pm") -> str:
    return json.dumps({"author": author, "at": at, "text": text})


def ingest(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("kg_ingest", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.mark.django_db
def test_a_lone_surrogate_is_refused_on_its_line_and_the_next_lines_are_processed(tmp_path, graph):
    lines = [
        record("Couriers hate paper maps."),
        # the JSON escape of half an emoji, as written by a broken exporter
        '{"author": "pm", "at": "2026-03-02T10:00:00Z", "text": "Love it \\ud83d!"}',
        record("Dispatchers want a live map."),
    ]
    path = tmp_path / "notes.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    out, err = ingest("--project", "couriers", "--create", "--org", "acme", "--sync", str(path))

    assert "2 episodes recorded" in out and "(1 line skipped)" in out
    assert "line 2: the message contains a lone surrogate U+D83D at character 9" in err
    project = Project.objects.get(slug="couriers")
    episodes = list(Episode.objects.filter(project=project).order_by("number"))
    assert [e.source_ref["line"] for e in episodes] == [1, 3]
    assert {p.status for p in EpisodeProcessing.objects.filter(episode__in=episodes)} == {"done"}


def test_an_author_with_a_lone_surrogate_is_refused_too(tmp_path):
    path = tmp_path / "notes.jsonl"
    path.write_text(
        record("Fine.") + '\n{"author": "\\udc00x", "text": "Also fine."}\n', encoding="utf-8"
    )
    parsed = read_ingest_file(path)
    assert [i.content for i in parsed.items] == ["Fine."]
    assert parsed.errors == [
        "line 2: the author contains a lone surrogate U+DC00 at character 1, which is not a "
        "character (a broken \\u escape: an emoji needs both halves of its pair)"
    ]


def test_jsonl_lines_end_at_newline_only(tmp_path):
    # U+2028, U+0085 and U+000C are characters of a record, not line ends (str.splitlines
    # would split on them); "\r\n" ends a line as "\n" does.
    texts = ["Paragraph one\u2028paragraph two.", "Next\x85line.", "Form\x0cfeed."]
    lines = [record(t, at=f"2026-03-0{n}T10:00:00Z") for n, t in enumerate(texts, start=1)]
    lines.insert(2, "{not json")
    path = tmp_path / "notes.jsonl"
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("utf-8"))
    # json.dumps escapes them; write them raw, as an exporter with ensure_ascii=False does
    raw = (
        path.read_bytes()
        .replace(b"\\u2028", "\u2028".encode())
        .replace(b"\\u0085", "\x85".encode())
    )
    path.write_bytes(raw)
    assert "\u2028".encode() in raw

    parsed = read_ingest_file(path)

    assert [i.content for i in parsed.items] == texts
    assert [i.source_ref["line"] for i in parsed.items] == [1, 2, 4]
    assert parsed.errors == [
        "line 3: not valid JSON (Expecting property name enclosed in double quotes)"
    ]


def test_plain_text_is_read_in_chunks_that_keep_their_first_line(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("First\u2028still first.\nSecond.\n", encoding="utf-8")
    parsed = read_ingest_file(path)
    assert [(i.content, i.source_ref["line"]) for i in parsed.items] == [
        ("First\u2028still first.\nSecond.", 1),
    ]


@pytest.mark.django_db
def test_invalid_utf8_skips_its_line_and_keeps_the_others(tmp_path):
    path = tmp_path / "notes.jsonl"
    path.write_bytes(
        record("Couriers hate paper maps.").encode()
        + b'\n{"text": "caf\xe9 latin-1"}\n'
        + record("Dispatchers want a live map.").encode()
        + b"\n"
    )

    out, err = ingest("--project", "couriers", "--create", "--org", "acme", str(path))

    assert "2 episodes recorded" in out
    assert "line 2: not valid UTF-8 (byte 0xe9 at column 14); save the file as UTF-8" in err
    lines = Episode.objects.filter(project__slug="couriers").order_by("number")
    assert [e.source_ref["line"] for e in lines] == [1, 3]


@pytest.mark.django_db
def test_strict_utf8_refuses_the_whole_file_and_says_so(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"Fine line.\nsecond \xff line\nThird line.\n")
    with pytest.raises(CommandError) as refused:
        ingest("--project", "couriers", "--create", "--strict-utf8", str(path))
    assert str(refused.value) == (
        "notes.txt is not valid UTF-8 (line 2, byte 0xff at column 8); refused whole as asked "
        "by --strict-utf8 (without it the valid lines are kept)"
    )
    assert not Episode.objects.exists()


@pytest.mark.parametrize(
    ("at", "reason"),
    [
        ("2999-01-01T00:00:00Z", "the time 2999-01-01T00:00:00Z is in the future"),
        ("9999-12-31T23:59:59Z", "the time 9999-12-31T23:59:59Z is in the future"),
        ("0001-01-01T00:00:00Z", "the time 0001-01-01T00:00:00Z is before 1970"),
        ("1969-12-31T23:59:59Z", "the time 1969-12-31T23:59:59Z is before 1970"),
        ("0001-01-01T00:00:00+01:00", "the time 0001-01-01T00:00:00+01:00 is out of range"),
    ],
)
def test_at_values_in_the_future_or_before_1970_are_refused_per_line(tmp_path, at, reason):
    path = tmp_path / "notes.jsonl"
    lines = [record("Before."), record("Odd date.", at=at), record("After.")]
    path.write_text("\n".join(lines), encoding="utf-8")

    parsed = read_ingest_file(path)

    assert [i.content for i in parsed.items] == ["Before.", "After."]
    assert len(parsed.errors) == 1
    assert parsed.errors[0].startswith(f"line 2: 'at' {at!r} is refused: {reason}")


def test_a_time_within_the_clock_skew_is_kept(tmp_path):
    soon = timezone.now() + dt.timedelta(minutes=2)
    path = tmp_path / "notes.jsonl"
    path.write_text(record("Just now.", at=soon.isoformat()), encoding="utf-8")
    parsed = read_ingest_file(path)
    assert parsed.errors == [] and parsed.items[0].valid_at == soon


@pytest.mark.django_db
def test_every_way_into_the_ledger_refuses_a_future_time():
    project = get_or_create_project("acme", "couriers", "en")
    future = EpisodeInput(
        content="Tomorrow's news.", valid_at=timezone.now() + dt.timedelta(days=1)
    )
    with pytest.raises(EpisodeRejected, match="is in the future"):
        record_episode(project, future, enqueue=False)
    assert not Episode.objects.exists()


def test_times_are_written_as_iso_8601_utc_with_four_digit_years():
    year_one = dt.datetime(1, 1, 1, 0, 0, tzinfo=dt.UTC)
    assert graph_time(year_one) == "0001-01-01T00:00:00.000000Z"
    assert iso_utc(year_one) == "0001-01-01T00:00:00Z"
    moscow = dt.timezone(dt.timedelta(hours=3))
    assert graph_time(dt.datetime(2026, 3, 1, 12, 30, tzinfo=moscow)) == (
        "2026-03-01T09:30:00.000000Z"
    )
    # the strings sort like the times they name
    assert graph_time(year_one) < graph_time(dt.datetime(999, 1, 1, tzinfo=dt.UTC))


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "a PNG image"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "a JPEG image"),
        ("notes".encode("utf-16"), "UTF-16 text"),
    ],
)
def test_a_file_that_is_not_text_is_refused_as_such(raw, kind):
    with pytest.raises(UnreadableFile, match=f"notes.txt is not a text file \\(it is {kind}\\)"):
        read_uploaded_notes("notes.txt", raw)


def test_uploaded_notes_keep_their_valid_lines_and_report_the_bad_one():
    parsed = read_uploaded_notes("notes.md", b"# Survey\n\nPrice matters.\nBad \xc3 byte.\n")
    assert [i.content for i in parsed.items] == ["Price matters."]
    assert parsed.errors == [
        "line 4: not valid UTF-8 (byte 0xc3 at column 5); save the file as UTF-8"
    ]
