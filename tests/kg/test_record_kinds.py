"""An import says what its records are: tickets from an issue tracker are read as bug reports.

A bug report names a part of the product as where the fault is, not as a capability asked
for; the kind is kept in each episode's source reference, so the pipeline, a rebuild and a
real model all read the ticket the same way.
"""

from __future__ import annotations

import io
import json
from typing import get_args

import pytest
from django.core.management import call_command

from kg.graph import store
from kg.ledger.importing import record_uploaded_notes
from kg.ledger.sources import ImportOptions, SourceError, read_source
from kg.ledger.sources.recording import record_source
from kg.llm.offline.extractor import extract_offline
from kg.llm.prompts import batch_extraction, extraction
from kg.llm.prompts.batch_extraction import BatchExtractionRequest, BatchMessage
from kg.llm.prompts.extraction_models import ExtractionRequest, Records
from kg.models import Episode, Project, RecordKind
from kg.pipeline.ingest import ingest_recorded_episodes
from tests.kg.pipeline_helpers import make_project
from tests.kg.source_files import csv_bytes

# An invented ticket with no template: the title and the body name parts of the product.
TICKET = (
    "Crash when printing from the address book\n\n"
    "Opening the address book and choosing Print closes the whole application."
)
# A ticket that also asks for something: that capability is a feature all the same.
ASKING = "The calendar loses events after the update. Please add an export to ICS."


def _labels(text: str, records: str) -> set[tuple[str, str]]:
    answer = extract_offline(
        ExtractionRequest(text=text, language="en", product="", records=records)
    )
    return {(n.type, n.label) for n in answer.nodes}


def test_the_extraction_vocabulary_is_the_ledgers():
    assert set(get_args(Records)) == {"", *RecordKind.values}


def test_a_ticket_names_its_broken_part_inside_the_pain_not_as_a_feature():
    as_notes, as_ticket = _labels(TICKET, ""), _labels(TICKET, "bug_report")
    pain = ("pain", "crash when printing from the address book")
    assert pain in as_notes and pain in as_ticket
    assert ("feature", "address book") in as_notes  # read as notes, a mention is a feature
    assert not {t for t, _ in as_ticket} & {"feature"}


def test_a_ticket_keeps_the_features_it_asks_for():
    features = {label for kind, label in _labels(ASKING, "bug_report") if kind == "feature"}
    assert features == {"export to ICS"}


# --- the import keeps what its records are ------------------------------------------------------


def test_an_unknown_kind_of_records_is_refused_at_the_boundary():
    with pytest.raises(SourceError, match="unknown kind of records 'emails'"):
        ImportOptions(records="emails")


def test_rows_of_a_ticket_export_remember_they_are_bug_reports():
    raw = csv_bytes(["id", "summary"], [["1", "Print dialog freezes"], ["2", "Sidebar is empty"]])
    options = ImportOptions(text_columns=("summary",), records="bug_report")
    read = read_source("tickets.csv", raw, options)
    assert [(i.source_ref["row"], i.source_ref["records"]) for i in read.items] == [
        (2, "bug_report"),
        (3, "bug_report"),
    ]
    assert read.items[0].source_ref["file"] == "tickets.csv"  # where it came from, as before
    plain = read_source("tickets.csv", raw, ImportOptions(text_columns=("summary",)))
    assert all("records" not in i.source_ref for i in plain.items)


def test_uploaded_notes_and_kg_ingest_lines_keep_the_kind(org_project, tmp_path):
    report = record_uploaded_notes(
        org_project, "tickets.md", TICKET.encode(), "ann", ImportOptions(records="bug_report")
    )
    assert [e.record_kind for e in report.episodes] == ["bug_report"]

    lines = tmp_path / "tickets.jsonl"
    lines.write_text(json.dumps({"text": ASKING, "author": "bob"}) + "\n", encoding="utf-8")
    call_command(
        "kg_ingest", str(lines), "--project", org_project.slug, "--records", "bug_report",
        stdout=io.StringIO(), stderr=io.StringIO(),
    )  # fmt: skip
    recorded = Episode.objects.get(project=org_project, content=ASKING)
    assert recorded.record_kind == "bug_report"
    assert Episode.objects.filter(project=org_project).count() == 2


def test_a_stored_kind_the_ledger_does_not_know_reads_as_unsaid(org_project):
    episode = Episode(project=org_project, content="x", source_ref={"records": "<script>"})
    assert episode.record_kind == ""


@pytest.mark.django_db
def test_the_pipeline_reads_an_imported_ticket_as_a_bug_report(graph):
    projects: dict[str, Project] = {}
    for records in ("", "bug_report"):
        project = make_project(f"tickets-{records or 'notes'}")
        raw = csv_bytes(["summary"], [[TICKET]])
        report = record_source(
            project, "tickets.csv", raw, options=ImportOptions(records=records), enqueue=False
        )
        assert ingest_recorded_episodes(report.episodes, sync=True) == []
        projects[records] = project

    def features(project: Project) -> list[str]:
        return [n.label for n in store.list_nodes(project.graph_scope, "feature")]

    assert "address book" in features(projects[""])
    assert features(projects["bug_report"]) == []
    pains = store.list_nodes(projects["bug_report"].graph_scope, "pain")
    assert [p.label for p in pains] == ["crash when printing from the address book"]


# --- what a real model is told ----------------------------------------------------------------


def test_the_model_is_told_a_message_is_a_bug_report_only_when_its_import_said_so():
    def user(records: str) -> str:
        request = ExtractionRequest(text=TICKET, language="en", product="", records=records)
        return extraction.build_messages(request)[-1]["content"]

    told = [line for line in user("bug_report").splitlines() if "bug report" in line]
    assert told == [
        "The message is a bug report from an issue tracker. A part of the product it names is "
        "where the fault is: name that part inside the pain, not as a feature. A feature is "
        "only one the report asks for."
    ]
    assert "bug report" not in user("")


def test_a_batch_tells_which_of_its_messages_are_bug_reports():
    request = BatchExtractionRequest(
        messages=[
            BatchMessage(id=1, text=TICKET, records="bug_report"),
            BatchMessage(id=2, text="We interviewed three dispatchers."),
        ]
    )
    user = batch_extraction.build_messages(request)[-1]["content"]
    first = user[user.index("--- message 1 ---") : user.index("--- message 2 ---")]
    second = user[user.index("--- message 2 ---") :]
    assert "(This message is a bug report from an issue tracker." in first
    assert "bug report" not in second


def test_an_unknown_kind_in_a_request_is_refused():
    with pytest.raises(ValueError):
        ExtractionRequest(text=TICKET, product="", records="emails")  # type: ignore[arg-type]
