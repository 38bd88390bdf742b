"""A file's episodes are written in bulk: numbered in file order after the project's last,
each with its processing row, duplicates found by hash (across chunks and against what the
project holds), the ledger as immutable as ever, and handed to the batch path."""

from __future__ import annotations

import io
import re
import threading
import time

import pytest
from django.db import DatabaseError, connection, transaction

from kg.graph import store
from kg.ledger.episodes import BULK_CHUNK, EpisodeInput, record_episode
from kg.ledger.sources import ImportOptions
from kg.ledger.sources.recording import record_source
from kg.models import Episode, EpisodeKind, EpisodeProcessing, LLMCall, ProcessingStatus
from kg.models.episodes import ImmutableEpisodeError, content_sha256
from tests.kg.pipeline_helpers import make_project
from tests.kg.source_files import csv_bytes

ROWS = BULK_CHUNK * 2 + 37  # three INSERTs, the last one partial
COLUMNS = ImportOptions(text_columns=("answer",), author_column="who")


def _survey(rows: int, repeat: dict[int, int] | None = None) -> bytes:
    """A survey whose answers are distinct except `repeat` (row index -> copied index)."""
    answers = [f"Answer {n}: the route screen is slow on {n % 7} stops" for n in range(rows)]
    for index, copied in (repeat or {}).items():
        answers[index] = answers[copied]
    return csv_bytes(
        ["id", "answer", "who"], [[str(n), a, f"user{n % 5}"] for n, a in enumerate(answers)]
    )


@pytest.mark.django_db
def test_a_large_survey_is_recorded_in_bulk_in_file_order():
    project = make_project("bulk-survey")
    earlier = record_episode(
        project,
        EpisodeInput(content="Answer 3: the route screen is slow on 3 stops"),
        enqueue=False,
    )
    # Row 11 repeats row 10 (same chunk); row 700 repeats row 20 (a later chunk).
    raw = _survey(ROWS, repeat={10: 9, 700: 20})

    report = record_source(project, "survey.csv", raw, options=COLUMNS, enqueue=False)

    made = list(Episode.objects.filter(project=project).order_by("number"))
    assert len(report.episodes) == ROWS - 3 == len(made) - 1
    assert [e.number for e in made] == list(range(1, ROWS - 1))  # no gap, no shared number
    rows = [e.source_ref["row"] for e in made[1:]]
    assert rows == sorted(rows) and rows[0] == 2 and rows[-1] == ROWS + 1
    assert {e.kind for e in made[1:]} == {EpisodeKind.IMPORT}
    # Episode 6 is row 7 (the file's index 5; index 3 was already recorded as #1).
    assert (made[5].source_ref["row"], made[5].author) == (7, "user0")
    assert made[5].content_sha256 == content_sha256(made[5].content)
    assert [d.message for d in report.duplicates] == [
        f"row 5: duplicate of message #{earlier.number}",
        "row 12: duplicate of message #10",  # row 11 (index 9): #2 onwards, less index 3
        "row 702: duplicate of message #20",  # row 22 (index 20), in the first chunk
    ]
    pending = EpisodeProcessing.objects.filter(episode__project=project)
    assert pending.filter(status=ProcessingStatus.PENDING).count() == ROWS - 2

    again = record_source(project, "survey.csv", raw, options=COLUMNS, enqueue=False)
    assert again.episodes == [] and len(again.duplicates) == ROWS
    # Written in bulk, still the ledger: no update or delete, by the model or by SQL.
    with pytest.raises(ImmutableEpisodeError):
        Episode.objects.filter(pk=made[1].pk).update(content="changed")
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE kg_episode SET content = 'changed' WHERE id = %s", [made[1].pk])
    assert Episode.objects.get(pk=made[1].pk).content == made[1].content


@pytest.mark.django_db
def test_a_bad_row_in_a_later_chunk_leaves_nothing_recorded():
    project = make_project("bulk-bad")
    items = [EpisodeInput(content=f"Message {n}", kind=EpisodeKind.IMPORT) for n in range(ROWS)]
    items[BULK_CHUNK + 3] = EpisodeInput(content="bad \x00 byte", kind=EpisodeKind.IMPORT)
    from kg.ledger.episodes import EpisodeRejected, record_new_episodes

    with pytest.raises(EpisodeRejected, match="NUL character at character 5"):
        record_new_episodes(project, items, enqueue=False)
    assert not Episode.objects.filter(project=project).exists()
    assert not EpisodeProcessing.objects.filter(episode__project=project).exists()


def test_a_writer_holding_the_next_number_is_waited_for_not_shared(transactional_db):
    """A chat message takes number 1 while the file is being recorded: the file's chunk
    numbered from 1 waits for it and takes the numbers after (on PostgreSQL through the unique
    constraint and a retry of the chunk, on SQLite by waiting for the writer's lock)."""
    project = make_project("bulk-race")
    holding, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def chat_writer() -> None:
        try:
            with transaction.atomic():
                record_episode(project, EpisodeInput(content="Typed meanwhile"), enqueue=False)
                holding.set()
                release.wait(10)
        except BaseException as exc:  # reported below
            errors.append(exc)
            holding.set()
        finally:
            connection.close()

    result: dict = {}

    def file_writer() -> None:
        try:
            result["report"] = record_source(
                project, "survey.csv", _survey(BULK_CHUNK + 5), options=COLUMNS, enqueue=False
            )
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    chat = threading.Thread(target=chat_writer)
    chat.start()
    assert holding.wait(10)
    recording = threading.Thread(target=file_writer)
    recording.start()
    time.sleep(0.5)  # the file's writer is now waiting on the chat message's number or lock
    release.set()
    chat.join(30)
    recording.join(60)

    assert errors == []
    numbers = dict(Episode.objects.filter(project=project).values_list("number", "content"))
    assert numbers[1] == "Typed meanwhile"
    assert sorted(numbers) == list(range(1, BULK_CHUNK + 7))
    assert [e.number for e in result["report"].episodes] == list(range(2, BULK_CHUNK + 7))


def _extracted(body: dict) -> dict:
    """The scripted model: for each message of a batch, its route screen as a pain."""
    prompt = body["messages"][1]["content"]
    blocks = re.findall(r"--- message (\d+) ---\nAnswer (\d+): (the route screen is slow)", prompt)
    return {
        "items": [
            {
                "message": int(n),
                "nodes": [{"ref": "n1", "type": "pain", "label": quote, "quote": quote}],
                "relations": [],
            }
            for n, _, quote in blocks
        ]
    }


@pytest.mark.django_db
def test_kg_ingest_of_a_survey_extracts_eight_rows_per_model_call(
    tmp_path, graph, openai_mode, capsys
):
    from django.core.management import call_command

    from kg.models import Project

    openai_mode.responder = _extracted
    path = tmp_path / "survey.csv"
    path.write_bytes(_survey(40))
    call_command(
        "kg_ingest", str(path), "--project", "survey", "--create", "--org", "acme", "--sync",
        "--text-column", "answer", "--author-column", "who",
        stdout=io.StringIO(), stderr=io.StringIO(),
    )  # fmt: skip

    project = Project.objects.get(slug="survey")
    assert openai_mode.calls == 5  # 40 rows, eight per call
    assert set(LLMCall.objects.filter(project=project).values_list("operation", flat=True)) == {
        "batch_extraction"
    }
    statuses = EpisodeProcessing.objects.filter(episode__project=project)
    assert statuses.filter(status=ProcessingStatus.DONE).count() == 40
    pains = store.list_nodes(project.graph_scope, "pain")
    assert len(pains) == 1 and len(pains[0].evidence) == 40
    bars = capsys.readouterr().err
    assert "recording [" in bars and "pipeline [##############################] 40/40" in bars
