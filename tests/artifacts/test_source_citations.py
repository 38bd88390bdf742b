"""A PRD from research files: a PDF of interviews, a Word transcript and a survey export go
through the real pipeline (offline engine), and the PRD's citations say the page, the
section and the row each quote came from."""

from __future__ import annotations

import io
import re

import docx
import pytest

from artifacts.services import generate_prd
from kg.ledger.sources import ImportOptions
from kg.ledger.sources.recording import record_source
from kg.models import Organization, Project
from kg.pipeline.ingest import episode_ingest
from tests.artifacts.invariants import assert_evidence_traced
from tests.kg.source_files import csv_bytes, pdf_bytes

pytestmark = pytest.mark.django_db


def _transcript() -> bytes:
    document = docx.Document()
    document.add_heading("Interview 4", level=1)
    document.add_paragraph("Technicians say nothing about the weather.")
    document.add_page_break()
    document.add_page_break()
    document.add_heading("Onboarding", level=2)
    document.add_paragraph(
        "Technicians complain that uploading photos from a job takes forever on 3G."
    )
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_prd_citations_show_page_section_and_row(graph):
    org = Organization.objects.create(slug="fieldkit", name="FieldKit")
    project = Project.objects.create(organization=org, slug="fieldkit", name="FieldKit")
    pdf = pdf_bytes(
        [
            ["Visit notes, week 1."],
            ["Office managers still rely on paper job sheets to schedule visits."],
        ]
    )
    survey = csv_bytes(
        ["id", "answer"],
        [[str(n), "All good"] for n in range(1, 211)]
        + [["211", "Writing a report after the visit takes 20 minutes per job."]],
    )
    reports = [
        record_source(project, "visits.pdf", pdf, enqueue=False),
        record_source(project, "transcript-04.docx", _transcript(), enqueue=False),
        record_source(
            project,
            "survey.csv",
            survey,
            options=ImportOptions(text_columns=("answer",)),
            enqueue=False,
        ),
    ]
    for report in reports:
        for episode in report.episodes:
            episode_ingest(episode.pk)

    version = generate_prd(project)

    assert_evidence_traced(version)
    text = version.markdown
    sources = set(re.findall(r"\(((?:visits\.pdf|transcript-04\.docx|survey\.csv)[^)]*)\)", text))
    assert "visits.pdf, p. 2" in sources, text
    assert "transcript-04.docx, §Onboarding, p. 3" in sources, text
    assert "survey.csv, row 212" in sources, text
    cited = {c.file: c.page for claim in version.claims.all() for c in claim.citations.all()}
    assert cited["survey.csv"] == "row 212"
