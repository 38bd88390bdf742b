"""The API's upload takes research files: format by extension or named, CSV columns as
fields, and a report of the reader, what it read and what it skipped."""

from __future__ import annotations

import io

import docx
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from kg import read_models
from kg.models import Episode
from kg.pipeline.ingest import ingest_recorded_episodes
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


TITLE = "Interview notes with couriers in Berlin"
FINDING = "Couriers say the app lags on weak internet in basements."


def _titled_docx() -> bytes:
    document = docx.Document()
    document.add_heading(TITLE, level=0)  # Word's Title style, above Heading 1
    document.add_heading("Onboarding", level=1)
    document.add_paragraph(FINDING)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


TITLED = {
    "interviews.docx": _titled_docx(),
    "interviews.html": (
        f"<html><body><main><h1>{TITLE}</h1><h2>Onboarding</h2><p>{FINDING}</p></main>"
        "</body></html>"
    ).encode(),
    "interviews.md": f"# {TITLE}\n\n## Onboarding\n\n{FINDING}\n".encode(),
}


@pytest.mark.parametrize("name", list(TITLED))
def test_a_heading_with_no_text_under_it_is_no_episode_but_the_section_of_what_follows(
    api, alice, name
):
    _, project = alice
    response = api.post(
        UPLOADS, {"file": SimpleUploadedFile(name, TITLED[name])}, format="multipart"
    )
    assert response.status_code == 201, response.content
    [episode] = Episode.objects.filter(project=project)
    assert episode.content == FINDING
    assert episode.source_ref["section_path"] == [TITLE, "Onboarding"]
    assert episode.source_ref["section"] == "Onboarding"


def test_a_document_title_gives_the_research_no_feature(api, alice, graph):
    _, project = alice
    response = api.post(
        UPLOADS,
        {"file": SimpleUploadedFile("interviews.docx", TITLED["interviews.docx"])},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    assert ingest_recorded_episodes(list(Episode.objects.filter(project=project)), sync=True) == []
    nodes = read_models.list_nodes(project.graph_scope)
    labels = {n.label for n in nodes}
    assert not [label for label in labels if "interview notes" in label.lower()]
    assert any(n.type == "pain" and "lags on weak internet" in n.label for n in nodes)


def test_a_row_whose_date_is_not_a_date_is_kept_and_the_response_says_so(api, alice):
    _, project = alice
    raw = csv_bytes(
        ["answer", "submitted"],
        [["Paper maps are out of date", "2024-03-05"], ["I lose a day to paper", "2999-01-01"]],
    )
    response = api.post(
        UPLOADS,
        {
            "file": SimpleUploadedFile("survey.csv", raw),
            "text_columns": ["answer"],
            "date_column": "submitted",
        },
        format="multipart",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert [e["content"] for e in body["episodes"]] == [
        "Paper maps are out of date",
        "I lose a day to paper",
    ]
    assert body["errors"] == []
    [warning] = body["warnings"]
    assert warning.startswith("row 3: '2999-01-01' in submitted is refused: the time ")
    assert warning.endswith("; recorded without a date (dated when imported)")
    kept = Episode.objects.get(project=project, source_ref__row=3)
    assert kept.valid_at.year != 2999 and kept.source_ref["unread_date"] == "2999-01-01"
