"""Admin test data: episodes in the ledger and a graph written through kg.graph.store.

The offline extractor is not there yet, so the graph is written directly (nodes, edges,
a contradiction, a supersession) with evidence offsets computed from the real episode text,
plus the ResolutionDecision rows the pipeline would have logged.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pytest

from kg.graph import (
    ContradictionRecord,
    EdgeRecord,
    EpisodeStub,
    Evidence,
    NodeRecord,
    SupersessionRecord,
    store,
)
from kg.graph.records import graph_time
from kg.ledger.episodes import EpisodeInput, record_episode
from kg.models import Episode, EpisodeKind, Project, ResolutionDecision

MARCH = dt.datetime(2026, 3, 15, 10, 0, tzinfo=dt.UTC)


def add_episode(project: Project, content: str, day: int = 0, **extra) -> Episode:
    episode = record_episode(
        project,
        EpisodeInput(content=content, valid_at=MARCH + dt.timedelta(days=day), **extra),
        enqueue=False,
    )
    store.upsert_episode_stub(
        project.graph_scope,
        EpisodeStub(
            uid=str(episode.uid), number=episode.number, valid_at=graph_time(episode.valid_at)
        ),
    )
    return episode


def evidence(episode: Episode, quote: str) -> Evidence:
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


def node(
    number: int, node_type: str, label: str, proofs: list[Evidence], confidence: int, **extra
) -> NodeRecord:
    return NodeRecord(
        uid=f"node-{number}",
        number=number,
        type=node_type,
        label=label,
        key=label.lower(),
        confidence=confidence,
        valid_at=min(p.valid_at for p in proofs),
        evidence=proofs,
        **extra,
    )


@dataclass
class TrailData:
    project: Project
    e1: Episode
    e2: Episode
    e3: Episode
    lag: NodeRecord  # pain, two episodes, fuzzy-merged
    couriers: NodeRecord
    paper_maps: NodeRecord
    us: NodeRecord  # market, superseded by eu
    eu: NodeRecord
    price_matters: NodeRecord  # open contradiction with price_irrelevant
    price_irrelevant: NodeRecord


@pytest.fixture
def trail(org_project, graph) -> TrailData:
    project = org_project
    scope = project.graph_scope
    e1 = add_episode(
        project,
        "Our couriers say the app lags on weak internet in basements.\n"
        "They use paper maps instead. Price is the main factor for them.",
        author="Anna (PM)",
        source_ref={"conversation": 1, "message": 47},
    )
    e2 = add_episode(
        project,
        "Interview 3: the app lags on weak internet, so drivers call dispatch. "
        "We target the US market. Honestly, price does not matter.",
        day=5,
        kind=EpisodeKind.FILE_CHUNK,
        author="Interview notes",
        source_ref={"file": "interviews.pdf", "page": 3},
    )
    e3 = add_episode(project, "From now on we target the EU market.", day=10, author="Anna (PM)")

    lag = node(
        1,
        "pain",
        "App lags on weak internet",
        [
            evidence(e1, "the app lags on weak internet in basements"),
            evidence(e2, "the app lags on weak internet"),
        ],
        80,
        aliases=["lags offline"],
        alias_keys=["lags offline"],
    )
    couriers = node(2, "segment", "Couriers", [evidence(e1, "Our couriers")], 90)
    paper_maps = node(3, "alternative", "Paper maps", [evidence(e1, "paper maps")], 65)
    us = node(
        4,
        "market",
        "US market",
        [evidence(e2, "We target the US market")],
        65,
        invalid_at=graph_time(e3.valid_at),
    )
    eu = node(5, "market", "EU market", [evidence(e3, "we target the EU market")], 65)
    price_matters = node(
        6,
        "pain",
        "Price is the main factor",
        [evidence(e1, "Price is the main factor")],
        50,
        subject="price",
        stance="positive",
    )
    price_irrelevant = node(
        7,
        "pain",
        "Price does not matter",
        [evidence(e2, "price does not matter")],
        40,
        subject="price",
        stance="negative",
    )
    nodes = [lag, couriers, paper_maps, us, eu, price_matters, price_irrelevant]
    store.write_nodes(scope, nodes)
    store.write_edges(
        scope,
        [
            EdgeRecord(
                uid="edge-experiences",
                relation="experiences",
                source=couriers.uid,
                target=lag.uid,
                confidence=65,
                valid_at=graph_time(e1.valid_at),
                evidence=[evidence(e1, "Our couriers say the app lags on weak internet")],
            ),
            EdgeRecord(
                uid="edge-addresses",
                relation="addresses",
                source=paper_maps.uid,
                target=lag.uid,
                confidence=65,
                valid_at=graph_time(e1.valid_at),
                evidence=[evidence(e1, "They use paper maps instead")],
            ),
        ],
    )
    store.write_contradiction(
        scope,
        ContradictionRecord(
            uid="contradiction-price",
            a=price_matters.uid,
            b=price_irrelevant.uid,
            subject="price",
            quote_a="Price is the main factor",
            quote_b="price does not matter",
            opened_at=graph_time(e2.valid_at),
        ),
    )
    store.write_supersession(
        scope,
        SupersessionRecord(
            old=us.uid, new=eu.uid, relation="targets_market", at=graph_time(e3.valid_at)
        ),
    )
    for episode, node_type, label, method, score, compared, target in [
        (e1, "pain", "the app lags on weak internet", "new", None, "", lag),
        (e2, "pain", "app lags on weak internet", "fuzzy", 93.5, lag.label, lag),
        (e1, "segment", "couriers", "new", None, "", couriers),
    ]:
        ResolutionDecision.objects.create(
            project=project,
            episode=episode,
            node_type=node_type,
            candidate_label=label,
            method=method,
            score=score,
            compared_label=compared,
            node_uid=target.uid,
            node_number=target.number,
        )
    return TrailData(
        project, e1, e2, e3, lag, couriers, paper_maps, us, eu, price_matters, price_irrelevant
    )
