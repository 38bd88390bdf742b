"""A small, hand-made research state: real episodes in SQL, nodes/edges/contradictions in the
real graph, written through kg.graph.store (no pipeline, so the numbers are known exactly)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.contrib.auth import get_user_model

from kg.graph import ContradictionRecord, EdgeRecord, EpisodeStub, Evidence, NodeRecord, store
from kg.graph.records import graph_time
from kg.ledger.episodes import EpisodeInput, record_episode
from kg.models import Episode, Membership, Organization, Project, Role
from kg.pipeline.confidence import refresh_confidence

MESSAGES = [
    "Couriers tell us the app lags on weak internet in basements.",
    "For couriers price is the main factor when they pick an app.",
    "Honestly, price does not matter to couriers at all.",
    "Couriers used paper maps before, now they use Yandex Maps.",
]


@dataclass
class Research:
    project: Project
    episodes: list[Episode]
    contradiction_uid: str


def member(username: str, org_slug: str, project_slug: str, language: str = "en"):
    """A user, an organization they belong to and a project in it."""
    org, _ = Organization.objects.get_or_create(slug=org_slug, defaults={"name": org_slug.title()})
    project, _ = Project.objects.get_or_create(
        slug=project_slug,
        defaults={"organization": org, "name": project_slug.title(), "language": language},
    )
    user = get_user_model().objects.create_user(username=username, password="pw-123456")
    Membership.objects.create(user=user, organization=org, role=Role.OWNER)
    return user, project


def _evidence(episode: Episode, quote: str) -> Evidence:
    start = episode.content.index(quote)
    return Evidence(
        episode_uid=str(episode.uid),
        episode_number=episode.number,
        quote=quote,
        start=start,
        end=start + len(quote),
        valid_at=graph_time(episode.valid_at),
        author=episode.author,
    )


def _node(uid, number, node_type, label, evidence, **extra) -> NodeRecord:
    return NodeRecord(
        uid=uid,
        number=number,
        type=node_type,
        label=label,
        key=label.lower(),
        confidence=65 if len({e.episode_uid for e in evidence}) == 1 else 80,
        valid_at=evidence[0].valid_at,
        evidence=evidence,
        **extra,
    )


def seed_research(project: Project, author: str = "Pat PM") -> Research:
    """#1 segment Couriers (3 sources), #2 pain (1), #3/#4 insights that contradict each other,
    #5 alternative "Paper maps" (closed: invalid_at set), #6 competitor; edges 1→2, 1→6."""
    scope = project.graph_scope
    episodes = [
        record_episode(project, EpisodeInput(content=text, author=author), enqueue=False)
        for text in MESSAGES
    ]
    for e in episodes:
        store.upsert_episode_stub(
            scope, EpisodeStub(uid=str(e.uid), number=e.number, valid_at=graph_time(e.valid_at))
        )
    e1, e2, e3, e4 = episodes
    p = project.slug
    nodes = [
        _node(
            f"{p}-n1",
            1,
            "segment",
            "Couriers",
            [_evidence(e1, "Couriers"), _evidence(e2, "couriers"), _evidence(e4, "Couriers")],
        ),
        _node(
            f"{p}-n2",
            2,
            "pain",
            "App lags on weak internet",
            [_evidence(e1, "the app lags on weak internet in basements")],
        ),
        _node(
            f"{p}-n3",
            3,
            "insight",
            "Price is the main factor",
            [_evidence(e2, "price is the main factor")],
            subject="price",
            stance="positive",
        ),
        _node(
            f"{p}-n4",
            4,
            "insight",
            "Price does not matter",
            [_evidence(e3, "price does not matter to couriers")],
            subject="price",
            stance="negative",
        ),
        _node(
            f"{p}-n5",
            5,
            "alternative",
            "Paper maps",
            [_evidence(e4, "paper maps")],
            invalid_at=graph_time(e4.valid_at),
        ),
        _node(f"{p}-n6", 6, "competitor", "Yandex Maps", [_evidence(e4, "Yandex Maps")]),
    ]
    store.write_nodes(scope, nodes)
    store.write_edges(
        scope,
        [
            EdgeRecord(
                uid=f"{p}-e1",
                relation="experiences",
                source=f"{p}-n1",
                target=f"{p}-n2",
                confidence=65,
                valid_at=graph_time(e1.valid_at),
                evidence=[_evidence(e1, "Couriers tell us the app lags on weak internet")],
            ),
            EdgeRecord(
                uid=f"{p}-e2",
                relation="uses",
                source=f"{p}-n1",
                target=f"{p}-n6",
                confidence=65,
                valid_at=graph_time(e4.valid_at),
                evidence=[_evidence(e4, "now they use Yandex Maps")],
            ),
        ],
    )
    uid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"groundwork-test:{p}:price"))
    store.write_contradiction(
        scope,
        ContradictionRecord(
            uid=uid,
            a=f"{p}-n3",
            b=f"{p}-n4",
            subject="price",
            quote_a="price is the main factor",
            quote_b="price does not matter to couriers",
            opened_at=graph_time(e3.valid_at),
        ),
    )
    refresh_confidence(scope, [n.uid for n in store.list_nodes(scope)])
    return Research(project=project, episodes=episodes, contradiction_uid=uid)
