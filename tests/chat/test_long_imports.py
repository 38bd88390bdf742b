"""A long import on the chat page: a large research file is recorded by a worker while the page
shows the episodes recorded and analysed (a JSON status for the project's members), then the
per-file report; a bad large file fails with its reason and records nothing."""

from __future__ import annotations

import json
import re
import time

import pytest
from celery.contrib.testing.worker import start_worker
from django.core.files.uploadedfile import SimpleUploadedFile

from config.celery import app
from kg.graph import store
from kg.ledger.sources import ImportOptions
from kg.ledger.sources.background import BACKGROUND_BYTES, queue_source_import, run_source_import
from kg.models import Episode, LLMCall, SourceImport, SourceImportStatus
from tests.kg.source_files import csv_bytes

ROWS = 16
PADDING = BACKGROUND_BYTES // ROWS + 1024  # an export's other columns: the file is large


def _survey(rows: int = ROWS) -> bytes:
    """A survey export: a short answer per row beside a long column nobody reads."""
    return csv_bytes(
        ["id", "answer", "who", "raw_payload"],
        [
            [str(n), f"Answer {n}: the route screen is slow", f"user{n}", "x" * PADDING]
            for n in range(1, rows + 1)
        ],
    )


def _extracted(body: dict) -> dict:
    """The scripted model: each message of a batch names its slow route screen as a pain."""
    prompt = body["messages"][1]["content"]
    blocks = re.findall(r"--- message (\d+) ---\nAnswer \d+: (the route screen is slow)", prompt)
    return {
        "items": [
            {
                "message": int(n),
                "nodes": [{"ref": "n1", "type": "pain", "label": quote, "quote": quote}],
                "relations": [],
            }
            for n, quote in blocks
        ]
    }


def _status(client, url: str) -> dict:
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    return json.loads(response.content)


@pytest.mark.worker
def test_a_long_survey_is_recorded_by_a_worker_and_the_page_shows_its_progress(
    browser_client, alice, embedded_server, graph, transactional_db, openai_mode
):
    _, project = alice
    openai_mode.responder = _extracted
    raw = _survey()
    assert len(raw) > BACKGROUND_BYTES

    response = browser_client.post(
        "/projects/couriers/upload/",
        {
            "notes": SimpleUploadedFile("survey.csv", raw, content_type="text/csv"),
            "text_columns": ["answer"],
            "author_column": "who",
        },
    )
    source_import = SourceImport.objects.get(project=project)
    assert response["Location"] == f"/projects/couriers/chat/?import={source_import.pk}"
    assert not Episode.objects.filter(project=project).exists()  # not in the request
    page = browser_client.get(response["Location"]).content.decode()
    url = f"/projects/couriers/imports/{source_import.pk}/"
    assert f'data-status-url="{url}"' in page
    assert "survey.csv: reading and recording…" in page
    assert "groundwork/import_progress.js" in page
    queued = _status(browser_client, url)
    assert (queued["status"], queued["recorded"], queued["finished"]) == ("queued", 0, False)

    seen: list[tuple[str, int, int]] = []
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        deadline = time.monotonic() + 120
        status = queued
        while not status["finished"] and time.monotonic() < deadline:
            time.sleep(0.2)
            status = _status(browser_client, url)
            seen.append((status["status"], status["recorded"], status["processed"]))

    assert status["finished"] and status["status"] == "recorded"
    assert (status["recorded"], status["processed"], status["failed"]) == (ROWS, ROWS, 0)
    processed = [p for s, r, p in seen if s == "recorded"]
    assert processed == sorted(processed)  # progress only goes forward
    assert status["report"]["episodes"] == ROWS and status["report"]["units"] == ROWS
    episodes = list(Episode.objects.filter(project=project).order_by("number"))
    assert [(e.source_ref["row"], e.author) for e in episodes[:2]] == [(2, "user1"), (3, "user2")]
    assert LLMCall.objects.filter(project=project, operation="batch_extraction").count() == 2
    pains = store.list_nodes(project.graph_scope, "pain")
    assert len(pains) == 1 and len(pains[0].evidence) == ROWS
    assert SourceImport.objects.get(pk=source_import.pk).raw in (b"", memoryview(b""))

    done = browser_client.get(response["Location"]).content.decode()
    box = re.search(r'<div class="notice" id="source-import"[^>]*>(.*?)</div>', done, re.S)
    assert "data-status-url" not in box.group(0)
    assert "survey.csv: 16 episodes from 16 rows." in box.group(1)
    assert "All 16 analysed." in box.group(1)


def test_the_status_of_an_import_is_for_the_projects_members(browser_client, alice, bob, client):
    _, project = alice
    source_import = queue_source_import(
        project, "survey.csv", _survey(2), options=ImportOptions(text_columns=("answer",))
    )
    url = f"/projects/couriers/imports/{source_import.pk}/"
    assert _status(browser_client, url)["file"] == "survey.csv"
    assert (
        browser_client.get(f"/projects/couriers/imports/{source_import.pk + 1}/").status_code == 404
    )
    bob_user, _ = bob
    client.force_login(bob_user)
    assert client.get(url).status_code == 404  # another organization's import does not exist
    assert client.get(f"/projects/warehouse/imports/{source_import.pk}/").status_code == 404
    client.logout()
    assert client.get(url).status_code == 302  # to the sign-in page
    # An address with someone else's import number shows no box at all.
    client.force_login(bob_user)
    page = client.get(f"/projects/warehouse/chat/?import={source_import.pk}").content.decode()
    assert 'id="source-import"' not in page


def test_a_large_file_with_a_missing_column_fails_with_its_reason_and_records_nothing(
    browser_client, alice
):
    _, project = alice
    source_import = queue_source_import(
        project, "survey.csv", _survey(3), options=ImportOptions(text_columns=("comment",))
    )

    assert run_source_import(source_import.pk) == SourceImportStatus.FAILED
    assert run_source_import(source_import.pk) == SourceImportStatus.FAILED  # a redelivery

    assert not Episode.objects.filter(project=project).exists()
    stored = SourceImport.objects.get(pk=source_import.pk)
    assert "survey.csv has no column 'comment'" in stored.error and bytes(stored.raw) == b""
    status = _status(browser_client, f"/projects/couriers/imports/{source_import.pk}/")
    assert status["finished"] and status["status"] == "failed" and status["report"] is None
    page = browser_client.get(f"/projects/couriers/chat/?import={source_import.pk}")
    assert "survey.csv was not added: survey.csv has no column &#x27;comment&#x27;" in (
        page.content.decode()
    )


def test_an_import_delivered_twice_is_recorded_once(browser_client, alice):
    _, project = alice
    source_import = queue_source_import(
        project, "survey.csv", _survey(3), options=ImportOptions(text_columns=("answer",))
    )

    assert run_source_import(source_import.pk) == SourceImportStatus.RECORDED
    assert run_source_import(source_import.pk) == SourceImportStatus.RECORDED

    assert Episode.objects.filter(project=project).count() == 3
    status = _status(browser_client, f"/projects/couriers/imports/{source_import.pk}/")
    assert (status["recorded"], status["processed"], status["finished"]) == (3, 0, False)
    assert status["report"]["duplicate_count"] == 0
    page = browser_client.get(f"/projects/couriers/chat/?import={source_import.pk}")
    assert "survey.csv: 3 episodes recorded, 0 analysed" in page.content.decode()


def test_a_worker_keeps_what_the_records_of_a_large_file_are(alice):
    _, project = alice
    options = ImportOptions(text_columns=("answer",), records="bug_report")
    source_import = queue_source_import(project, "tickets.csv", _survey(2), options=options)

    assert run_source_import(source_import.pk) == SourceImportStatus.RECORDED

    kinds = [e.record_kind for e in Episode.objects.filter(project=project)]
    assert kinds == ["bug_report", "bug_report"]
