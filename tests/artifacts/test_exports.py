"""Exports: the PRD as DOCX with its citations as footnotes, and the ranked requirements as a
CSV a Jira-style import reads."""

from __future__ import annotations

import csv
import io

import pytest
from docx import Document as DocxDocument
from docx.opc.constants import RELATIONSHIP_TYPE

from artifacts.exports import REQUIREMENT_COLUMNS, requirements_csv
from artifacts.rendering import load_document
from artifacts.services import generate_prd
from tests.artifacts.conftest import make_member
from tests.artifacts.test_prd_structure import bookings  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _footnotes(document) -> dict[int, str]:
    [part] = [
        rel.target_part
        for rel in document.part.rels.values()
        if rel.reltype == RELATIONSHIP_TYPE.FOOTNOTES
    ]
    from lxml import etree

    root = etree.fromstring(part.blob)
    return {
        int(note.get(f"{W}id")): "".join(t.text or "" for t in note.iter(f"{W}t")).strip()
        for note in root.iter(f"{W}footnote")
        if int(note.get(f"{W}id")) > 0
    }


def test_the_docx_opens_and_holds_every_citation_as_a_footnote(client, member, couriers):
    version = generate_prd(couriers.project)
    client.force_login(member)

    response = client.get("/projects/couriers/prd/1.docx")

    assert response.status_code == 200
    assert response["Content-Type"].endswith("wordprocessingml.document")
    assert 'filename="couriers-prd-v1.docx"' in response["Content-Disposition"]
    document = DocxDocument(io.BytesIO(response.content))
    text = "\n".join(p.text for p in document.paragraphs)
    assert "Problem statement" in text and "Open questions" in text
    assert "Problem: App lags on weak internet." in text
    notes = _footnotes(document)
    references = [int(r.get(f"{W}id")) for r in document.element.body.iter(f"{W}footnoteReference")]
    assert sorted(references) == sorted(notes) and len(notes) > 10
    doc = load_document(version)
    problem = next(s for s in doc.sections if s.key == "problem")
    lag = next(c for c in problem.claims if c.text == "Problem: App lags on weak internet.")
    # Its footnote holds the node, the message and the quote, as the Markdown shows them.
    assert any(
        f"pain #{couriers.lag.number}" in note and '"the app lags on weak internet"' in note
        for note in notes.values()
    ), notes
    assert lag.citations


def test_the_requirements_csv_imports_into_a_jira_style_schema(client, bookings):  # noqa: F811
    generate_prd(bookings.project)
    client.force_login(make_member(bookings.project.organization, "bea"))

    response = client.get("/projects/bookings/prd/1-requirements.csv")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert list(rows[0]) == list(REQUIREMENT_COLUMNS)
    assert [r["Summary"] for r in rows] == ["SMS reminders", "Booking widget"]
    top = rows[0]
    assert (top["Issue Type"], top["Priority"], top["Rank"]) == ("Story", "Highest", "1")
    assert float(top["Score"]) > float(rows[1]["Score"])
    assert top["Labels"].split() == ["Salon-owners", "Receptionists"]
    assert top["Description"].startswith("Priority 1: score")
    assert 'SMS reminders would help" (message #2, 2 April)' in top["Description"]
    assert top["Node"] == str(bookings.reminders.number)


def test_a_cell_a_spreadsheet_would_run_as_a_formula_is_quoted(bookings):  # noqa: F811
    bookings.node(
        "feature",
        "=HYPERLINK(1)",
        (bookings.say("=HYPERLINK(1)", "2026-04-09T09:00:00Z"), "=HYPERLINK(1)"),
    )
    version = generate_prd(bookings.project)

    rows = list(csv.DictReader(io.StringIO(requirements_csv(load_document(version)))))
    summaries = [r["Summary"] for r in rows]
    assert "'=HYPERLINK(1)" in summaries
    assert "=HYPERLINK(1)" not in summaries


def test_exports_need_membership(client, couriers, outsider):
    generate_prd(couriers.project)
    client.force_login(outsider)
    assert client.get("/projects/couriers/prd/1.docx").status_code == 404
    assert client.get("/projects/couriers/prd/1-requirements.csv").status_code == 404
    client.logout()
    assert client.get("/projects/couriers/prd/1.docx").status_code == 302
