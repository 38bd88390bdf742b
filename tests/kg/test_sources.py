"""Research files become episodes that remember where they came from: PDF pages, DOCX and
HTML sections (the 18F FOIA notes converted by the test), CSV/TSV rows, Slack messages and
threads; bad files are refused with their reason and nothing is recorded."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from kg.ledger.sources import ImportOptions, SourceError, read_source, source_format
from kg.ledger.sources.recording import record_source
from kg.ledger.sources.reference import citation_locator, citation_source, source_label
from kg.models import Episode, Organization, Project
from tests.kg.source_files import (
    FOIA,
    csv_bytes,
    docx_from_markdown,
    encrypted,
    foia,
    html_from_markdown,
    pdf_bytes,
    slack_export,
)

needs_foia = pytest.mark.skipif(not FOIA.is_dir(), reason=f"the 18F notes are not at {FOIA}")

INTERVIEW_PAGES = [
    ["Interview with a dispatcher, 12 March.", "She plans routes on paper maps every morning."],
    [],  # a scanned page: an image, no text
    ["Couriers hate paper maps because the maps are out of date.", "(Follow-up in April.)"],
]


@pytest.fixture
def project(db) -> Project:
    org = Organization.objects.create(slug="acme", name="Acme")
    return Project.objects.create(organization=org, slug="couriers", name="Routes")


# --- PDF ----------------------------------------------------------------------------------


def test_pdf_pages_become_chunks_that_keep_their_page():
    read = read_source("interviews.pdf", pdf_bytes(INTERVIEW_PAGES, image_pages=(2,)))

    assert [item.source_ref["page"] for item in read.items] == [1, 3]
    assert "paper maps every morning" in read.items[0].content
    assert "Couriers hate paper maps because the maps are out of date." in read.items[1].content
    assert "(Follow-up in April.)" in read.items[1].content  # PDF string escapes undone
    assert read.skipped == ["page 2: no text, only images (a scan?)"]
    assert (read.units, read.unit) == (3, "page")
    assert source_label(read.items[1].source_ref) == "interviews.pdf, p. 3"


def test_encrypted_and_image_only_pdfs_are_refused_and_nothing_is_recorded(project):
    plain = pdf_bytes(INTERVIEW_PAGES)
    with pytest.raises(SourceError, match="encrypted \\(password-protected\\)"):
        record_source(project, "locked.pdf", encrypted(plain, "s3cret"), enqueue=False)
    with pytest.raises(SourceError, match="no text layer: its 2 pages are images \\(a scan\\?\\)"):
        record_source(project, "scan.pdf", pdf_bytes([[], []], image_pages=(1, 2)), enqueue=False)
    with pytest.raises(SourceError, match="not a readable PDF"):
        record_source(project, "broken.pdf", plain[: len(plain) // 3], enqueue=False)
    assert Episode.objects.filter(project=project).count() == 0


def test_blank_pdf_pages_are_told_apart_from_pages_of_images(project):
    # A page that paints nothing is blank, not "images (a scan?)": OCR would not help it.
    read = read_source("notes.pdf", pdf_bytes([["Maps are out of date."], []]))
    assert read.skipped == ["page 2: blank (no text, no images)"]
    with pytest.raises(SourceError) as blank:
        record_source(project, "blank.pdf", pdf_bytes([[], []]), enqueue=False)
    assert str(blank.value) == "blank.pdf has no text: all 2 of its pages are blank"
    assert "scan" not in str(blank.value) and "images" not in str(blank.value)
    with pytest.raises(SourceError) as one:
        record_source(project, "one.pdf", pdf_bytes([[]]), enqueue=False)
    assert str(one.value) == "one.pdf has no text: its page is blank"
    with pytest.raises(SourceError) as mixed:
        record_source(project, "mixed.pdf", pdf_bytes([[], []], image_pages=(2,)), enqueue=False)
    assert str(mixed.value).startswith(
        "mixed.pdf has no text: 1 page blank and 1 page of images only (a scan?); run it "
        "through OCR"
    )
    assert Episode.objects.filter(project=project).count() == 0


# --- DOCX ---------------------------------------------------------------------------------


@needs_foia
def test_docx_of_the_18f_notes_keeps_section_paths_and_pages():
    text = foia("usability-testing-synthesis.md")
    raw = docx_from_markdown(text, page_break_before=("Submission",))

    read = read_source("usability-testing.docx", raw)

    email = next(i for i in read.items if "expected to receive an email confirmation" in i.content)
    assert email.source_ref["section_path"] == [
        "July 2017 Usability Testing",
        "Issues and recommendations",
        "Submission",
        "Requesters did not receive an email confirmation.",
    ]
    assert email.source_ref["page"] == 2  # after the hard page break before "Submission"
    intro = next(i for i in read.items if "remote prototype testing" in i.content)
    assert intro.source_ref["page"] == 1 and intro.source_ref["section"] == (
        "July 2017 Usability Testing"
    )
    # a heading that states a finding is quotable text of its own section
    assert email.content.startswith("Requesters did not receive an email confirmation.\n\n")
    assert citation_locator(email.source_ref).endswith(", p. 2")
    assert len(citation_locator(email.source_ref)) <= 50
    parts = [i.source_ref["part"] for i in read.items]
    assert parts == sorted(parts) and len(set(parts)) == len(parts)


def test_docx_tables_and_headings_in_document_order():
    import docx

    document = docx.Document()
    document.add_heading("Onboarding", level=1)
    document.add_paragraph("Setting up the first route took three days.")
    table = document.add_table(rows=2, cols=2)
    for (r, c), value in {
        (0, 0): "Step",
        (0, 1): "Pain",
        (1, 0): "Import",
        (1, 1): "CSV fails",
    }.items():
        table.cell(r, c).text = value
    document.add_page_break()
    document.add_heading("Billing", level=1)
    document.add_paragraph("Invoices arrive late.")
    out = io.BytesIO()
    document.save(out)

    read = read_source("transcript-04.docx", out.getvalue())

    assert [i.content for i in read.items] == [
        "Setting up the first route took three days.\n\nStep | Pain\n\nImport | CSV fails",
        "Invoices arrive late.",
    ]
    assert source_label(read.items[0].source_ref) == "transcript-04.docx, §Onboarding, p. 1"
    assert citation_locator(read.items[1].source_ref) == "§Billing, p. 2"


def test_corrupt_docx_is_refused():
    with pytest.raises(SourceError, match="not a readable Word document \\(.docx\\)"):
        read_source("transcript.docx", b"PK\x03\x04 this is not a word document")
    good = io.BytesIO()
    with zipfile.ZipFile(good, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
    with pytest.raises(SourceError, match="not a readable Word document"):
        read_source("empty.docx", good.getvalue())


# --- HTML ---------------------------------------------------------------------------------


@needs_foia
def test_html_of_the_18f_notes_keeps_the_main_content_and_its_heading_path():
    raw = html_from_markdown(foia("research-synthesis-requesters.md"), "Requesters")

    read = read_source("requesters.html", raw)

    everything = "\n".join(i.content for i in read.items)
    for furniture in ("SITE-NAVIGATION", "COOKIE-BANNER", "TRACKING-SCRIPT", "SIDEBAR", "FOOTER"):
        assert furniture not in everything
    assert "color: #333" not in everything
    first_heading = next(i for i in read.items if i.source_ref["section_path"])
    assert first_heading.source_ref["title"] == "Requesters"
    assert all(i.source_ref["format"] == "html" for i in read.items)
    deep = max(read.items, key=lambda i: len(i.source_ref["section_path"]))
    assert len(deep.source_ref["section_path"]) >= 2
    assert source_label(deep.source_ref).startswith(
        "requesters.html, §" + deep.source_ref["section_path"][0] + " › "
    )


def test_html_table_cells_and_inline_markup_read_as_text():
    raw = (
        b"<html><body><nav>menu</nav><h2>Pricing</h2><p>The plan is <b>too</b> expensive.</p>"
        b"<table><tr><th>Plan</th><th>Complaint</th></tr><tr><td>Pro</td><td>$99</td></tr></table>"
        b"</body></html>"
    )
    read = read_source("page.htm", raw)
    assert read.items[0].content == "The plan is too expensive.\n\nPlan | Complaint\n\nPro | $99"
    assert read.items[0].source_ref["section_path"] == ["Pricing"]


# --- CSV / TSV ----------------------------------------------------------------------------

SURVEY_HEADER = ["id", "What is hardest?", "Anything else?", "Respondent", "Submitted"]
SURVEY_ROWS = [
    ["1", "Paper maps are out of date", "Offline mode please", "Ann", "2024-03-05"],
    ["2", "", "", "Bob", "2024-03-06"],
    ["3", "Exports time out", "", "Cy", "05/03/2024"],
    ["4", "Photos upload slowly", "", "Di", "next week"],
    ["5", "Line one\nline two of one answer", "", "Ed", "2024-03-07T10:30:00Z"],
]


def test_csv_rows_become_episodes_with_their_row_number_author_and_date():
    options = ImportOptions(
        text_columns=("What is hardest?", "Anything else?"),
        author_column="respondent",  # columns match without regard to case
        date_column="Submitted",
    )
    read = read_source("survey.csv", csv_bytes(SURVEY_HEADER, SURVEY_ROWS), options)

    rows = {i.source_ref["row"]: i for i in read.items}
    assert sorted(rows) == [2, 4, 5, 6]  # the header is row 1, as a spreadsheet shows it
    assert rows[2].content == (
        "What is hardest?: Paper maps are out of date\nAnything else?: Offline mode please"
    )
    assert rows[2].author == "Ann" and rows[2].valid_at.isoformat() == "2024-03-05T00:00:00+00:00"
    assert rows[4].valid_at.isoformat() == "2024-05-03T00:00:00+00:00"  # US month/day/year
    assert rows[6].content.endswith("Line one\nline two of one answer")  # a quoted newline
    # A date that is not one loses the date, not the answer: the row is kept, undated.
    assert rows[5].content.endswith("Photos upload slowly") and rows[5].valid_at is None
    assert rows[5].source_ref["unread_date"] == "next week"
    assert read.skipped == ["row 3: no text in What is hardest?, Anything else?"]
    assert read.warnings == [
        "row 5: 'next week' in Submitted is not a date "
        "(use ISO-8601, e.g. 2024-03-05 or 2024-03-05T14:30:00Z); "
        "recorded without a date (dated when imported)"
    ]
    assert source_label(rows[4].source_ref) == "survey.csv, row 4"


def test_csv_with_a_missing_column_or_no_column_chosen_is_refused(project):
    raw = csv_bytes(SURVEY_HEADER, SURVEY_ROWS)
    with pytest.raises(SourceError, match="survey.csv has no column 'Answer' .*its columns: 'id'"):
        record_source(project, "survey.csv", raw, options=ImportOptions(text_columns=("Answer",)))
    with pytest.raises(SourceError, match="has 5 columns .*choose the text column"):
        record_source(project, "survey.csv", raw)
    with pytest.raises(SourceError, match="no column 'When' \\(asked for as the date column\\)"):
        record_source(
            project,
            "survey.csv",
            raw,
            options=ImportOptions(text_columns=("What is hardest?",), date_column="When"),
        )
    assert Episode.objects.filter(project=project).count() == 0


def test_tsv_and_semicolon_csv():
    tsv = csv_bytes(["comment"], [["Needs dark mode"], ["Too slow, really"]], delimiter="\t")
    read = read_source("feedback.tsv", tsv)  # one column: no choice needed
    assert [i.content for i in read.items] == ["Needs dark mode", "Too slow, really"]
    assert read.items[1].source_ref == {
        "file": "feedback.tsv",
        "format": "tsv",
        "row": 3,
        "columns": ["comment"],
    }
    semicolons = b"name;comment\nAnn;Export, then import\n"
    read = read_source("export.csv", semicolons, ImportOptions(text_columns=("comment",)))
    assert read.items[0].content == "Export, then import"


# --- Slack --------------------------------------------------------------------------------

USERS = [
    {"id": "U1", "name": "ann", "profile": {"real_name": "Ann Lee"}},
    {"id": "U2", "name": "bob", "real_name": "Bob Stone"},
    {"id": "B1", "name": "standup-bot", "is_bot": True},
]


def _message(user: str, text: str, ts: str, **extra) -> dict:
    return {"type": "message", "user": user, "text": text, "ts": ts, **extra}


ROOT = "1700000000.000100"
GENERAL = [
    _message("U1", "Customers keep asking for CSV export.", ROOT, thread_ts=ROOT, reply_count=2),
    _message("U2", "<@U2> has joined the channel", "1700000050.000100", subtype="channel_join"),
    _message("U2", "Unrelated: lunch?", "1700000100.000100"),
    _message("B1", "Standup reminder", "1700000150.000100", bot_id="B1"),
    _message(
        "U2",
        "<@U1> they want it weekly &amp; by email, see <https://example.com/t/1|ticket 1>",
        "1700003600.000100",
        thread_ts=ROOT,
    ),
    _message("U1", "Noted.", "1700090000.000100", thread_ts=ROOT),
]


def test_slack_export_one_episode_per_message_with_threads_kept_together():
    read = read_source("workspace.zip", slack_export({"general": GENERAL}, USERS))

    assert [i.content for i in read.items] == [
        "Customers keep asking for CSV export.",
        "@Ann Lee they want it weekly & by email, see ticket 1",  # the thread's replies
        "Noted.",  # (the last on the next day) follow their first message
        "Unrelated: lunch?",
    ]
    assert [i.author for i in read.items] == ["Ann Lee", "Bob Stone", "Ann Lee", "Bob Stone"]
    assert read.items[1].valid_at.isoformat() == "2023-11-14T23:13:20.000100+00:00"
    assert {i.source_ref["thread"] for i in read.items[:3]} == {"1700000000.000100"}
    assert "thread" not in read.items[3].source_ref
    assert read.skipped == ["1 bot message", "1 join or leave"]
    assert source_label(read.items[2].source_ref) == (
        "workspace.zip, #general, thread 2023-11-14 22:13"
    )


def test_slack_export_without_users_json_is_refused(project, tmp_path: Path):
    raw = slack_export({"general": GENERAL}, users=None)
    with pytest.raises(SourceError, match="not a Slack workspace export: users.json is missing"):
        record_source(project, "workspace.zip", raw)
    with pytest.raises(SourceError, match="not a readable zip file"):
        read_source("workspace.zip", b"not a zip")
    assert Episode.objects.filter(project=project).count() == 0


# --- recording, the registry, citations -----------------------------------------------------


def test_a_file_becomes_episodes_in_order_with_the_uploaders_name(project):
    report = record_source(
        project,
        "interviews.pdf",
        pdf_bytes(INTERVIEW_PAGES, image_pages=(2,)),
        author="Pat PM",
        enqueue=False,
    )
    stored = list(Episode.objects.filter(project=project).order_by("number"))
    assert [e.pk for e in stored] == [e.pk for e in report.episodes]
    assert [e.source_ref["page"] for e in stored] == [1, 3]
    assert {e.kind for e in stored} == {"file_chunk"} and {e.author for e in stored} == {"Pat PM"}
    assert stored[1].source_label == "interviews.pdf, p. 3"
    assert report.summary() == "interviews.pdf: 2 episodes from 3 pages; 1 skipped"


def test_format_by_extension_overridable_and_refusals():
    assert source_format("notes.PDF") == "pdf"
    assert source_format("notes.md") is None and source_format("x.jsonl") is None
    assert source_format("export.txt", "csv") == "csv"
    assert source_format("page.pdf", "markdown") is None
    with pytest.raises(SourceError, match="an old Word file: save it as .docx"):
        source_format("old.doc")
    with pytest.raises(SourceError, match="unknown format 'xls'"):
        source_format("a.csv", "xls")
    read = read_source("answers.txt", b"answer\nslow sync\n", ImportOptions(format="csv"))
    assert read.items[0].source_ref["row"] == 2


def test_citation_source_reads_in_the_documents_language():
    assert citation_source("transcript-04.docx", "§Onboarding, p. 3") == (
        "transcript-04.docx, §Onboarding, p. 3"
    )
    assert citation_source("survey.csv", "row 212", "ru") == "survey.csv, строка 212"
    assert citation_source("interviews.pdf", "3") == "interviews.pdf, p. 3"  # older citations
    long_section = {"file": "a.docx", "section_path": ["x" * 80], "page": 12}
    assert citation_locator(long_section).endswith("…, p. 12")
    assert len(citation_locator(long_section)) == 50


# --- kg_ingest ----------------------------------------------------------------------------


def test_kg_ingest_reads_a_survey_with_column_options(project, tmp_path: Path):
    path = tmp_path / "survey.csv"
    path.write_bytes(csv_bytes(SURVEY_HEADER, SURVEY_ROWS))
    out, err = io.StringIO(), io.StringIO()

    call_command(
        "kg_ingest",
        str(path),
        "--project",
        "couriers",
        "--text-column",
        "What is hardest?",
        "--author-column",
        "Respondent",
        stdout=out,
        stderr=err,
    )

    assert "survey.csv: 4 episodes from 5 rows; 1 skipped; recorded in couriers" in out.getvalue()
    assert "skipped row 3: no text in What is hardest?" in err.getvalue()
    rows = [e.source_ref["row"] for e in Episode.objects.filter(project=project)]
    assert rows == [2, 4, 5, 6]


def test_kg_ingest_keeps_a_row_whose_date_is_not_a_date_and_says_so(project, tmp_path: Path):
    path = tmp_path / "survey.csv"
    path.write_bytes(
        csv_bytes(
            ["answer", "submitted"],
            [["Paper maps are out of date", "2024-03-05"], ["I lose a day to paper", "not a date"]],
        )
    )
    out, err = io.StringIO(), io.StringIO()

    call_command(
        "kg_ingest", str(path), "--project", "couriers", "--text-column", "answer",
        "--date-column", "submitted", stdout=out, stderr=err,
    )  # fmt: skip

    assert "survey.csv: 2 episodes from 2 rows; 1 with a warning; recorded in couriers" in (
        out.getvalue()
    )
    assert err.getvalue() == (
        "warning: row 3: 'not a date' in submitted is not a date (use ISO-8601, e.g. 2024-03-05 "
        "or 2024-03-05T14:30:00Z); recorded without a date (dated when imported)\n"
    )
    kept = Episode.objects.get(project=project, source_ref__row=3)
    assert kept.content == "I lose a day to paper"
    assert kept.source_ref["unread_date"] == "not a date"


def test_kg_ingest_refuses_a_missing_column_and_reads_an_unzipped_slack_export(
    project, tmp_path: Path
):
    path = tmp_path / "survey.csv"
    path.write_bytes(csv_bytes(SURVEY_HEADER, SURVEY_ROWS))
    with pytest.raises(CommandError, match="no column 'Answer'"):
        call_command("kg_ingest", str(path), "--project", "couriers", "--text-column", "Answer")
    assert not Episode.objects.filter(project=project).exists()

    folder = tmp_path / "export"
    with zipfile.ZipFile(io.BytesIO(slack_export({"general": GENERAL}, USERS))) as archive:
        archive.extractall(folder)
    out, err = io.StringIO(), io.StringIO()
    call_command("kg_ingest", str(folder), "--project", "couriers", stdout=out, stderr=err)
    assert "export: 4 episodes from 6 messages; 2 skipped" in out.getvalue()
    # Each reason once, counted in the right number: not "skipped 1 bot messages skipped".
    assert err.getvalue().splitlines() == ["skipped 1 bot message", "skipped 1 join or leave"]
    assert Episode.objects.filter(project=project, source_ref__channel="general").count() == 4
