"""End to end: two conversations go through the real pipeline; the shared pain is promoted."""

from __future__ import annotations

import io
import json

from django.core.management import call_command

from kg.ledger.episodes import EpisodeInput, record_episode
from kg.pipeline.ingest import episode_ingest
from orgmemory.models import OrgInsight
from orgmemory.services import insights_for_user, promote_for_org


def test_pipeline_ingest_then_promotion(world):
    conversations = {
        world.couriers: "Couriers say the app lags on weak internet in basements.",
        world.warehouse: "Warehouse pickers complain that the app is slow when internet is weak.",
        world.rival: "Drivers say the app lags on weak internet in basements.",
    }
    for project, text in conversations.items():
        episode = record_episode(project, EpisodeInput(content=text), enqueue=False)
        episode_ingest(episode.pk)

    report = promote_for_org(world.acme)

    assert len(report.created) == 1
    insight = OrgInsight.objects.get(pk=report.created[0])
    assert insight.node_type == "pain"
    [view] = insights_for_user(world.member, world.acme)
    quotes = {s.project_slug: [e.quote for e in s.evidence] for s in view.sources}
    assert quotes == {
        "couriers": ["Couriers say the app lags on weak internet in basements"],
        "warehouse": ["Warehouse pickers complain that the app is slow when internet is weak"],
    }
    assert all(e.episode_number == 1 for s in view.sources for e in s.evidence)
    # The segments (couriers, warehouse pickers) differ: nothing else is shared.
    assert OrgInsight.objects.filter(organization=world.acme).count() == 1
    assert promote_for_org(world.globex).created == []


def _say(project, text: str) -> None:
    episode = record_episode(project, EpisodeInput(content=text), enqueue=False)
    episode_ingest(episode.pk)


def test_the_same_finding_in_other_words_is_promoted(world):
    _say(world.couriers, "The app freezes when the mobile signal is weak in basements.")
    _say(world.warehouse, "The app freezes when the mobile signal is weak in underground parking.")

    report = promote_for_org(world.acme)

    [created] = report.created
    insight = OrgInsight.objects.get(pk=created)
    labels = {s.project.slug: s.node_label for s in insight.sources.all()}
    assert labels == {
        "couriers": "app freezes when the mobile signal is weak in basements",
        "warehouse": "app freezes when the mobile signal is weak in underground parking",
    }


def test_the_same_file_in_two_projects_is_one_source(world):
    notes = "Couriers say the app lags on weak internet in basements."
    _say(world.couriers, notes)
    _say(world.warehouse, notes)

    assert promote_for_org(world.acme).created == []

    _say(world.warehouse, "Warehouse pickers complain that the app is slow when internet is weak.")

    # Couriers still holds nothing but a copy of what warehouse holds: not found there on its own.
    assert promote_for_org(world.acme).created == []


def _import(project, path) -> None:
    call_command(
        "kg_ingest", str(path), "--project", project.slug, "--sync",
        stdout=io.StringIO(), stderr=io.StringIO(),
    )  # fmt: skip


def test_an_export_imported_into_two_projects_is_not_found_independently(world, tmp_path, client):
    export = tmp_path / "feedback.jsonl"
    texts = [
        "Couriers say the app lags on weak internet in basements.",
        "Drivers say the app lags on weak internet in basements.",
    ]
    export.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts), encoding="utf-8")
    _import(world.couriers, export)
    _import(world.warehouse, export)

    # Two messages behind the finding in each project, the same two: one source, no insight.
    assert promote_for_org(world.acme).created == []
    client.force_login(world.member)
    page = client.get("/orgs/acme/insights/").content.decode()
    assert "No insight is shared by two projects yet." in page

    _say(world.warehouse, "Warehouse pickers complain that the app is slow when internet is weak.")
    assert promote_for_org(world.acme).created == []  # couriers' evidence is still the copy

    _say(world.couriers, "Riders say the app lags on weak internet in basements.")
    [created] = promote_for_org(world.acme).created
    insight = OrgInsight.objects.get(pk=created)
    assert {s.project.slug for s in insight.sources.all()} == {"couriers", "warehouse"}
    page = client.get("/orgs/acme/insights/").content.decode()
    assert "each in messages of its own" in page
    assert "Riders say the app lags on weak internet in basements" in page
