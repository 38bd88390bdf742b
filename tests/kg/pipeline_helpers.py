"""Helpers for pipeline tests: load a gold/unseen conversation into a project and run it."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from kg.graph import NodeRecord
from kg.ledger.episodes import EpisodeInput, record_episode
from kg.models import Episode, Organization, Project
from kg.pipeline.ingest import episode_ingest
from kg.pipeline.resolve import node_key

TESTS_KG = Path(__file__).parent
UNSEEN = sorted((TESTS_KG / "unseen").glob("*.json"))
GOLD = sorted((TESTS_KG / "gold").glob("*.json"))


def node_record(
    number: int,
    label: str,
    node_type: str = "pain",
    valid_at: str = "2026-01-01T00:00:00.000000Z",
    **extra,
) -> NodeRecord:
    """A node as the graph holds it (uid "u<number>", its key made from its label)."""
    return NodeRecord(
        uid=f"u{number}",
        number=number,
        type=node_type,
        label=label,
        key=node_key(label),
        valid_at=valid_at,
        **extra,
    )


def load_conversation(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def at(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))


def make_project(
    slug: str, language: str = "en", name: str = "Product", org: str = "acme"
) -> Project:
    organization, _ = Organization.objects.get_or_create(slug=org, defaults={"name": org})
    return Project.objects.create(
        organization=organization, slug=slug, name=name, language=language
    )


def record_messages(project: Project, messages: list[dict]) -> list[Episode]:
    return [
        record_episode(
            project,
            EpisodeInput(content=m["text"], author=m.get("author", ""), valid_at=at(m["at"])),
            enqueue=False,
        )
        for m in messages
    ]


def ingest_conversation(path: Path, slug: str) -> tuple[Project, dict, list[Episode]]:
    conversation = load_conversation(path)
    project = make_project(slug, conversation["language"], conversation["product"])
    episodes = record_messages(project, conversation["messages"])
    for episode in episodes:
        episode_ingest(episode.pk)
    return project, conversation, episodes
