"""The API's upload takes research files: format by extension or named, CSV columns as
fields, and a report of the reader, what it read and what it skipped."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

from kg.models import Episode
from tests.kg.source_files import csv_bytes, pdf_bytes

UPLOADS = "/api/projects/couriers/uploads/"


def test_a_pdf_upload_reports_its_pages_and_keeps_them(api, alice):
    _, project = alice
    raw = pdf_bytes([["Maps are out of date."], []], image_pages=(2,))
    response = api.post(
        UPLOADS, {"file": SimpleUploadedFile("interviews.pdf", raw)}, format="multipart"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["format"], body["units"], body["unit"]) == ("pdf", 2, "page")
    assert body["errors"] == ["page 2: no text, only images (a scan?)"]
    assert [e["source_ref"]["page"] for e in body["episodes"]] == [1]
    assert Episode.objects.get(project=project).content == "Maps are out of date."


def test_a_survey_with_its_columns_and_a_named_format(api, alice):
    _, project = alice
    raw = csv_bytes(["q1", "q2", "when"], [["Slow sync", "Dark mode", "2024-03-05"]], "\t")
    response = api.post(
        UPLOADS,
        {
            "file": SimpleUploadedFile("export.txt", raw),
            "format": "tsv",
            "text_columns": ["q1", "q2"],
            "date_column": "when",
        },
        format="multipart",
    )
    assert response.status_code == 201, response.content
    episode = Episode.objects.get(project=project)
    assert episode.content == "q1: Slow sync\nq2: Dark mode"
    assert episode.valid_at.date().isoformat() == "2024-03-05"
    assert episode.source_ref["row"] == 2

    missing = api.post(
        UPLOADS,
        {"file": SimpleUploadedFile("export.tsv", raw), "text_columns": ["answer"]},
        format="multipart",
    )
    assert missing.status_code == 400
    assert "no column 'answer'" in missing.content.decode()
    unknown = api.post(
        UPLOADS, {"file": SimpleUploadedFile("a.csv", raw), "format": "xls"}, format="multipart"
    )
    assert unknown.status_code == 400
    assert Episode.objects.filter(project=project).count() == 1


def test_an_upload_says_its_records_are_bug_reports(api, alice):
    _, project = alice
    raw = csv_bytes(["summary"], [["Print dialog freezes"]])
    response = api.post(
        UPLOADS,
        {"file": SimpleUploadedFile("tickets.csv", raw), "records": "bug_report"},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    assert Episode.objects.get(project=project).record_kind == "bug_report"

    unknown = api.post(
        UPLOADS,
        {"file": SimpleUploadedFile("more.csv", raw), "records": "emails"},
        format="multipart",
    )
    assert unknown.status_code == 400
    assert unknown.json()["errors"] == {"records": ['"emails" is not a valid choice.']}
    assert Episode.objects.filter(project=project).count() == 1
