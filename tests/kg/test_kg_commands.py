"""The commands users script: kg_ingest, kg_export, kg_rebuild, kg_check — including bad input."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from kg.ledger.episodes import IMPORT_TASK_STRIDE
from kg.ledger.importing import MAX_UPLOAD_BYTES, record_uploaded_notes
from kg.models import Episode, EpisodeKind, EpisodeProcessing, Organization, Project
from kg.tenancy import get_or_create_project, product_name

pytestmark = pytest.mark.django_db


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_jsonl_with_bad_lines_reports_them_and_ingests_the_rest(tmp_path, graph):
    lines = [
        json.dumps({"author": "pm", "at": "2026-03-01T10:00:00Z", "text": "Our market is B2B."}),
        "{not json",
        json.dumps({"author": "pm", "at": "yesterday", "text": "Couriers hate paper maps."}),
        json.dumps({"author": "pm", "at": "2026-03-02T10:00:00Z", "text": "   "}),
        json.dumps(
            {"author": "pm", "at": "2026-03-03T10:00:00Z", "text": "Couriers hate paper maps."}
        ),
        json.dumps(["a list"]),
    ]
    path = tmp_path / "notes.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    out, err = run(
        "kg_ingest", "--project", "couriers", "--create", "--org", "acme", "--sync", str(path)
    )

    assert "2 episodes recorded" in out
    assert "line 2: not valid JSON" in err
    assert "line 3: 'at' is not ISO-8601" in err
    assert "line 4: the message is empty" in err
    assert "line 6: expected an object" in err
    project = Project.objects.get(slug="couriers")
    assert project.organization.slug == "acme" and project.language == "en"
    episodes = list(Episode.objects.filter(project=project))
    assert [e.number for e in episodes] == [1, 2]
    assert episodes[0].source_ref == {"file": "notes.jsonl", "line": 1}
    assert {p.status for p in EpisodeProcessing.objects.filter(episode__project=project)} == {
        "done"
    }


def test_plain_text_creates_a_russian_project(tmp_path, graph):
    path = tmp_path / "notes.txt"
    path.write_text(
        "Наш рынок — B2B.\n\nКурьеры жалуются, что приложение тормозит.\n", encoding="utf-8"
    )
    out, _ = run("kg_ingest", "--project", "kurery", "--create", "--sync", str(path))
    project = Project.objects.get(slug="kurery")
    assert project.language == "ru"
    # Notes are read as an upload reads them: short paragraphs share one chunk.
    [episode] = Episode.objects.filter(project=project)
    assert episode.content == "Наш рынок — B2B.\n\nКурьеры жалуются, что приложение тормозит."
    exported = json.loads(run("kg_export", "--project", "kurery")[0])
    assert [e["number"] for e in exported["episodes"]] == [1]
    assert exported["nodes"] and all(n["evidence"] for n in exported["nodes"])


def test_a_file_with_no_valid_utf8_line_is_a_clear_error(tmp_path):
    path = tmp_path / "broken.txt"
    path.write_bytes("\nsecond \xff line\n".encode("latin-1"))
    with pytest.raises(CommandError, match="not valid UTF-8 .*line 2"):
        run("kg_ingest", "--project", "x", "--create", str(path))
    assert not Episode.objects.exists()


def test_unknown_project_is_a_clear_error(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello\n", encoding="utf-8")
    with pytest.raises(CommandError, match="project 'nope' does not exist"):
        run("kg_ingest", "--project", "nope", str(path))
    with pytest.raises(CommandError, match="does not exist"):
        run("kg_export", "--project", "nope")
    with pytest.raises(CommandError, match="does not exist"):
        run("kg_rebuild", "--project", "nope")
    with pytest.raises(CommandError, match="does not exist"):
        run("kg_check", "--project", "nope")


def test_a_one_megabyte_message_is_kept_and_processed(tmp_path, graph):
    sentence = "Couriers say the app lags on weak internet in basements. "
    big = sentence * (1_048_576 // len(sentence) + 1)
    path = tmp_path / "big.jsonl"
    path.write_text(json.dumps({"author": "pm", "at": "2026-03-01T10:00:00Z", "text": big}) + "\n")
    run("kg_ingest", "--project", "big", "--create", "--sync", str(path))
    [episode] = Episode.objects.filter(project__slug="big")
    assert len(episode.content) > 1_048_576
    assert episode.processing.status == "done"


def test_export_and_rebuild_round_trip(tmp_path, graph):
    path = tmp_path / "notes.jsonl"
    texts = [
        "Our market is B2B.",
        "Couriers hate paper maps.",
        "Dispatchers use Excel to plan routes.",
    ]
    path.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts), encoding="utf-8")
    run("kg_ingest", "--project", "trip", "--create", "--sync", str(path))
    before = json.loads(run("kg_export", "--project", "trip")[0])
    out, _ = run("kg_rebuild", "--project", "trip")
    assert "rebuilt trip from 3 episodes" in out
    assert json.loads(run("kg_export", "--project", "trip")[0]) == before
    assert before["ontology"]["relations"] and before["nodes"]


def test_kg_check_finds_lost_evidence_and_a_rebuild_restores_it(tmp_path, graph):
    from kg.graph.store import project_graph
    from kg.tenancy import find_project

    path = tmp_path / "notes.jsonl"
    texts = ["Couriers hate paper maps.", "Couriers lose orders in the rain."]
    path.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts), encoding="utf-8")
    run("kg_ingest", "--project", "chk", "--create", "--sync", str(path))
    out, _ = run("kg_check", "--project", "chk")
    assert "every node holds the evidence of its mentions" in out
    # A node that lost its evidence items keeps its links to the episodes that mentioned it.
    scope = find_project("chk").graph_scope
    [row] = project_graph(scope, None).run(
        "MATCH (n:Entity {project: $project})-[:MENTIONED_IN]->(:Episode) WITH n, count(*) AS c "
        "WHERE c = 2 MATCH (x:EvidenceItem {node: n.uid}) DELETE x "
        "RETURN DISTINCT n.number AS number",
        project=scope.project,
    )
    out = io.StringIO()
    with pytest.raises(CommandError, match="chk: 1 node lacks evidence"):
        call_command("kg_check", "--project", "chk", stdout=out)
    assert f"node #{row['number']} " in out.getvalue() and "lacks episodes #1, #2" in out.getvalue()
    run("kg_rebuild", "--project", "chk")
    assert "every node holds" in run("kg_check", "--project", "chk")[0]


def test_kg_evaluate_scores_a_conversation_and_keeps_nothing(graph):
    from tests.kg.pipeline_helpers import UNSEEN

    out, _ = run("kg_evaluate", "--gold", str(UNSEEN[0]), "--json")
    report = json.loads(out)
    assert report["files"] == [UNSEEN[0].name]
    assert set(report["nodes"]["all"]) >= {"precision", "recall", "f1"}
    assert report["nodes"]["all"]["recall"] > 0.5
    assert report["invalidation_accuracy"] == 1.0
    assert report["contradiction_accuracy"] == 1.0
    assert not Organization.objects.filter(slug__startswith="eval-").exists()


def test_create_does_not_make_the_slug_the_product(tmp_path, graph):
    # "reviews" is a word of the messages: taken for the product's name, it became a product
    # node and Evernote a competitor of it.
    path = tmp_path / "notes.txt"
    path.write_text(
        "We switched from Evernote after reading reviews.\n"
        "Competitors like Evernote get bad reviews from teams.\n",
        encoding="utf-8",
    )

    run("kg_ingest", "--project", "reviews", "--create", "--sync", str(path))

    project = Project.objects.get(slug="reviews")
    assert project.name == ""
    assert product_name(project) == ""
    exported = json.loads(run("kg_export", "--project", "reviews")[0])
    assert "Evernote" in {n["label"] for n in exported["nodes"] if n["type"] == "competitor"}
    assert [n for n in exported["nodes"] if n["type"] == "product"] == []
    assert not any(e["relation"] == "competes_with" for e in exported["edges"])


def test_create_takes_the_product_name_when_given(tmp_path, graph):
    path = tmp_path / "notes.txt"
    path.write_text("Couriers hate paper maps.\n", encoding="utf-8")

    run("kg_ingest", "--project", "maps", "--create", "--name", " Route  Kit ", str(path))

    project = Project.objects.get(slug="maps")
    assert project.name == "Route Kit"
    assert product_name(project) == "Route Kit"


def test_a_name_that_only_repeats_the_slug_is_no_product_name(db):
    org = Organization.objects.create(slug="acme", name="Acme")
    assert product_name(Project(organization=org, slug="reviews", name="Reviews")) == ""
    assert product_name(Project(organization=org, slug="demo", name="Demo product")) == (
        "Demo product"
    )


NOTES = """# Interview notes, March

## Onboarding

Oleg, courier: the app lags on weak internet in basements.
He calls the dispatcher every time the route disappears.

Maria, dispatcher: we plan routes in Excel every morning.

## Survey

40% of orders are late during the evening peak.
"""


def _recorded(project: Project) -> list[tuple[str, str, dict]]:
    episodes = Episode.objects.filter(project=project).order_by("number")
    return [(e.content, e.kind, e.source_ref) for e in episodes]


def test_kg_ingest_reads_notes_as_an_upload_reads_them(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text(NOTES, encoding="utf-8")

    out, _ = run("kg_ingest", "--project", "cli", "--create", "--org", "acme", str(path))

    uploaded = get_or_create_project("acme", "page", "en")
    record_uploaded_notes(uploaded, "notes.md", NOTES.encode(), "")
    cli = _recorded(Project.objects.get(slug="cli"))
    assert cli == _recorded(uploaded)
    assert "2 episodes recorded in cli" in out
    # Paragraph chunks cited by section; the headings are no episodes of their own.
    assert [(content[:5], kind) for content, kind, _ in cli] == [
        ("Oleg,", EpisodeKind.FILE_CHUNK),
        ("40% o", EpisodeKind.FILE_CHUNK),
    ]
    assert [ref["section_path"] for _, _, ref in cli] == [
        ["Interview notes, March", "Onboarding"],
        ["Interview notes, March", "Survey"],
    ]


def test_kg_ingest_records_notes_larger_than_an_upload_in_chunks(tmp_path):
    # One paragraph of 6 MB on a single line (a transcript saved without line breaks): too
    # long for one message, and over the upload's limit, so the command is the way in.
    paragraph = " ".join(
        f"Courier {i} says the app lags on weak internet in basements." for i in range(100_000)
    )
    path = tmp_path / "transcript.md"
    path.write_text(f"# Interviews\n\n{paragraph}\n", encoding="utf-8")
    assert path.stat().st_size > MAX_UPLOAD_BYTES

    out, err = run("kg_ingest", "--project", "long", "--create", "--org", "acme", str(path))

    episodes = list(Episode.objects.filter(project__slug="long").order_by("number"))
    assert len(episodes) > 1000 and err == ""
    assert f"{len(episodes):,} episodes recorded in long" in out
    assert {e.source_ref["section"] for e in episodes} == {"Interviews"}
    assert all(len(e.content) <= 4000 for e in episodes)
    assert " ".join(e.content for e in episodes) == paragraph  # every word, once, in order


def test_kg_ingest_of_a_file_with_nothing_readable_fails_and_creates_nothing(tmp_path):
    path = tmp_path / "export.jsonl"
    path.write_text('{not json\n["a list"]\n', encoding="utf-8")

    with pytest.raises(CommandError) as refused:
        run("kg_ingest", "--project", "empty", "--create", str(path))

    assert str(refused.value) == (
        "nothing in export.jsonl could be read: line 1: not valid JSON (Expecting property name "
        "enclosed in double quotes); line 2: expected an object with author, at, text"
    )
    assert not Project.objects.filter(slug="empty").exists()
    assert not Episode.objects.exists()


def test_kg_ingest_queues_one_task_per_run_of_imported_messages(
    tmp_path, django_capture_on_commit_callbacks
):
    path = tmp_path / "export.jsonl"
    texts = [f"Florists in town {i} lose orders written on paper." for i in range(70)]
    path.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts), encoding="utf-8")

    with django_capture_on_commit_callbacks() as queued:
        run("kg_ingest", "--project", "florists", "--create", str(path))

    episodes = list(Episode.objects.filter(project__slug="florists").order_by("number"))
    assert len(episodes) == 70 and IMPORT_TASK_STRIDE == 32
    # One task for the last message of each run of 32: the 32nd, the 64th and the 70th.
    assert [q.args for q in queued] == [(episodes[i].pk,) for i in (31, 63, 69)]


def test_create_refuses_a_name_the_organization_already_has(tmp_path, db):
    org = Organization.objects.create(slug="acme", name="Acme")
    Project.objects.create(organization=org, slug="courier-app", name="Courier App")
    path = tmp_path / "notes.txt"
    path.write_text("Couriers hate paper maps.\n", encoding="utf-8")

    with pytest.raises(CommandError, match='already has a project named "Courier App"'):
        run(
            "kg_ingest",
            "--project",
            "couriers-2",
            "--org",
            "acme",
            "--create",
            "--name",
            " courier   APP ",
            str(path),
        )

    assert list(Project.objects.values_list("slug", flat=True)) == ["courier-app"]
    assert not Episode.objects.exists()
