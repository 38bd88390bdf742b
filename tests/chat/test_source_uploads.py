"""Research files uploaded on the chat page: the limits and column pickers in the form, the
CSV columns sent with the file, and the per-file report shown once after the upload."""

from __future__ import annotations

import re

from django.core.files.uploadedfile import SimpleUploadedFile

from kg.models import Episode
from tests.kg.source_files import csv_bytes, pdf_bytes


def _html(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


def test_the_form_states_the_limits_and_offers_column_pickers(browser_client):
    page = _html(browser_client.get("/projects/couriers/chat/"))
    limits = re.search(r'id="source-limits">([^<]+)<', page).group(1)
    assert limits == (
        "Research files: up to 25 MB, 1,000 pages, 20,000 rows or 20,000 Slack messages per file."
    )
    for picker in (
        'id="text-columns" class="column-checks"',
        'name="author_column"',
        'name="date_column"',
    ):
        assert picker in page
    assert '<option value="slack">slack</option>' in page
    assert "groundwork/upload.js" in page


def test_a_survey_upload_records_rows_and_reports_what_was_skipped(browser_client, alice):
    _, project = alice
    survey = csv_bytes(
        ["id", "answer", "who"],
        [["1", "Paper maps are out of date", "Ann"], ["2", "", "Bob"], ["3", "<b>Slow</b>", "Cy"]],
    )
    response = browser_client.post(
        "/projects/couriers/upload/",
        {
            "notes": SimpleUploadedFile("survey.csv", survey, content_type="text/csv"),
            "text_columns": ["answer"],
            "author_column": "who",
        },
    )
    assert response["Location"] == "/projects/couriers/chat/"
    rows = Episode.objects.filter(project=project).order_by("number")
    assert [(e.source_ref["row"], e.author, e.content) for e in rows] == [
        (2, "Ann", "Paper maps are out of date"),
        (4, "Cy", "<b>Slow</b>"),
    ]
    page = _html(browser_client.get(response["Location"]))
    report = re.search(r'<div class="notice" id="upload-report">(.*?)</div>', page, re.S).group(1)
    assert "survey.csv: 2 episodes from 3 rows; 1 skipped." in report
    assert "<li>row 3: no text in answer</li>" in report
    assert 'id="upload-report"' not in _html(browser_client.get("/projects/couriers/chat/"))


def test_a_row_whose_date_is_not_a_date_is_kept_and_the_report_says_so(browser_client, alice):
    _, project = alice
    survey = csv_bytes(
        ["answer", "submitted"],
        [["Paper maps are out of date", "2024-03-05"], ["I lose a day to paper", "not a date"]],
    )
    response = browser_client.post(
        "/projects/couriers/upload/",
        {
            "notes": SimpleUploadedFile("survey.csv", survey, content_type="text/csv"),
            "text_columns": ["answer"],
            "date_column": "submitted",
        },
    )
    assert response["Location"] == "/projects/couriers/chat/"
    kept = Episode.objects.get(project=project, source_ref__row=3)
    assert kept.content == "I lose a day to paper"
    page = _html(browser_client.get(response["Location"]))
    report = re.search(r'<div class="notice" id="upload-report">(.*?)</div>', page, re.S).group(1)
    assert "survey.csv: 2 episodes from 2 rows; 1 with a warning." in report
    assert (
        "<li>row 3: &#x27;not a date&#x27; in submitted is not a date (use ISO-8601, e.g. "
        "2024-03-05 or 2024-03-05T14:30:00Z); recorded without a date (dated when imported)</li>"
    ) in report


def test_a_bad_research_file_is_refused_with_its_reason(browser_client, alice):
    _, project = alice
    scan = SimpleUploadedFile("scan.pdf", pdf_bytes([[]], image_pages=(1,)))
    refused = browser_client.post("/projects/couriers/upload/", {"notes": scan})
    assert refused["Location"] == "/projects/couriers/chat/"
    page = _html(browser_client.get(refused["Location"]))
    assert "scan.pdf has no text layer" in page
    survey = SimpleUploadedFile("survey.csv", csv_bytes(["id", "answer"], [["1", "x"]]))
    browser_client.post(
        "/projects/couriers/upload/", {"notes": survey, "text_columns": ["comment"]}
    )
    assert "survey.csv has no column &#x27;comment&#x27;" in _html(
        browser_client.get("/projects/couriers/chat/")
    )
    assert not Episode.objects.filter(project=project).exists()


def test_the_form_asks_what_the_records_are_and_keeps_the_answer(browser_client, alice):
    _, project = alice
    page = _html(browser_client.get("/projects/couriers/chat/"))
    assert '<option value="bug_report">Bug reports (tickets)</option>' in page
    tickets = csv_bytes(["summary"], [["Print dialog freezes"]])
    response = browser_client.post(
        "/projects/couriers/upload/",
        {
            "notes": SimpleUploadedFile("tickets.csv", tickets, content_type="text/csv"),
            "records": "bug_report",
        },
    )
    assert response["Location"] == "/projects/couriers/chat/"
    assert Episode.objects.get(project=project).record_kind == "bug_report"

    refused = browser_client.post(
        "/projects/couriers/upload/",
        {"notes": SimpleUploadedFile("t.csv", tickets), "records": "<b>emails</b>"},
    )
    assert refused["Location"] == "/projects/couriers/chat/"
    page = _html(browser_client.get(refused["Location"]))
    assert "unknown kind of records &#x27;&lt;b&gt;emails&lt;/b&gt;&#x27;" in page
    assert Episode.objects.filter(project=project).count() == 1


def test_a_file_sent_again_is_reported_as_already_recorded_not_as_added(browser_client, alice):
    _, project = alice
    notes = b"# Day 1\n\nCouriers hate paper maps.\n"
    first = browser_client.post(
        "/projects/couriers/upload/", {"notes": SimpleUploadedFile("day1.md", notes)}
    )
    page = _html(browser_client.get(first["Location"]))
    assert '<p class="notice success" role="status" id="upload-notice">' in page
    assert "1 part of day1.md added as evidence." in page

    again = browser_client.post(
        "/projects/couriers/upload/", {"notes": SimpleUploadedFile("day1.md", notes)}
    )
    page = _html(browser_client.get(again["Location"]))
    notice = page.split('id="upload-notice">')[1].split("</p>")[0]
    assert page.split('id="upload-notice">')[0].endswith('<p class="notice warning" role="status" ')
    assert notice.startswith("Nothing added: day1.md is already recorded")
    assert "duplicate of message #1" in notice
    assert "added as evidence" not in page and "0 part" not in page
    assert '<div class="notice warning" id="upload-report">' in page
    assert Episode.objects.filter(project=project).count() == 1
