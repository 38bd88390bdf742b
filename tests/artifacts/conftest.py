"""Fixtures for the artifacts tests: projects with members, and research written into the
ledger (episodes) and the real embedded graph (nodes, edges, contradictions via kg.graph.store).
"""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.contrib.auth import get_user_model

from kg.graph import ContradictionRecord, EdgeRecord, Evidence, NodeRecord, store
from kg.ledger.episodes import EpisodeInput, record_episode
from kg.models import Episode, Membership, Organization, Project
from kg.pipeline.confidence import confidence_from
from kg.pipeline.evidence import locate_quote
from kg.pipeline.revision import graph_changed


def iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def at(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


class Research:
    """Writes a project's research: episodes in SQL, nodes/edges with evidence in the graph."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.scope = project.graph_scope
        self.nodes: dict[int, NodeRecord] = {}
        self.edges: list[EdgeRecord] = []
        self._number = store.max_node_number(self.scope)

    def say(self, text: str, when: str, author: str = "pm", **ref) -> Episode:
        return record_episode(
            self.project,
            EpisodeInput(content=text, author=author, valid_at=at(when), source_ref=ref or None),
            enqueue=False,
        )

    def evidence(self, episode: Episode, quote: str) -> Evidence:
        span = locate_quote(quote, episode.content)
        assert span is not None, f"{quote!r} is not in episode #{episode.number}"
        return Evidence(
            episode_uid=str(episode.uid),
            episode_number=episode.number,
            quote=span.text,
            start=span.start,
            end=span.end,
            valid_at=iso(episode.valid_at),
            author=episode.author,
        )

    def node(
        self,
        node_type: str,
        label: str,
        *mentions: tuple[Episode, str],
        confidence: int | None = None,
        invalid_at: str | None = None,
        value: str = "",
        subject: str = "",
        stance: str = "",
    ) -> NodeRecord:
        self._number += 1
        evidence = [self.evidence(e, q) for e, q in mentions]
        record = NodeRecord(
            uid=str(uuid.uuid4()),
            number=self._number,
            type=node_type,
            label=label,
            key=label.lower(),
            confidence=confidence if confidence is not None else confidence_from(evidence),
            valid_at=min(e.valid_at for e in evidence),
            invalid_at=iso(at(invalid_at)) if invalid_at else None,
            value=value,
            subject=subject,
            stance=stance,
            evidence=evidence,
        )
        store.write_nodes(self.scope, [record])
        graph_changed(self.project)  # as every pipeline write does
        self.nodes[record.number] = record
        return record

    def edge(
        self,
        relation: str,
        source: NodeRecord,
        target: NodeRecord,
        episode: Episode,
        quote: str,
        invalid_at: str | None = None,
    ) -> EdgeRecord:
        evidence = self.evidence(episode, quote)
        record = EdgeRecord(
            uid=str(uuid.uuid4()),
            relation=relation,
            source=source.uid,
            target=target.uid,
            confidence=65,
            valid_at=evidence.valid_at,
            invalid_at=iso(at(invalid_at)) if invalid_at else None,
            evidence=[evidence],
        )
        store.write_edges(self.scope, [record])
        graph_changed(self.project)  # as every pipeline write does
        self.edges.append(record)
        return record

    def contradiction(
        self, a: NodeRecord, b: NodeRecord, subject: str, when: str
    ) -> ContradictionRecord:
        record = ContradictionRecord(
            uid=str(uuid.uuid4()),
            a=a.uid,
            b=b.uid,
            subject=subject,
            quote_a=a.evidence[0].quote,
            quote_b=b.evidence[0].quote,
            opened_at=iso(at(when)),
        )
        store.write_contradiction(self.scope, record)
        graph_changed(self.project)  # as every pipeline write does
        return record


def make_member(org: Organization, username: str):
    user = get_user_model().objects.create_user(username=username, password="pw-secret-123")
    Membership.objects.create(user=user, organization=org)
    return user


@pytest.fixture
def project(db) -> Project:
    org = Organization.objects.create(slug="acme", name="Acme")
    return Project.objects.create(organization=org, slug="couriers", name="Couriers app")


@pytest.fixture
def member(project):
    return make_member(project.organization, "alice")


@pytest.fixture
def outsider(db):
    other = Organization.objects.create(slug="globex", name="Globex")
    Project.objects.create(organization=other, slug="globex-app", name="Globex app")
    return make_member(other, "mallory")


@pytest.fixture
def couriers(project, graph) -> Research:
    """A small courier-app research: pains, a feature, a goal with a metric, a risk, a
    competitor, an alternative, an open contradiction and several research gaps."""
    r = Research(project)
    e1 = r.say(
        "Couriers app research. We target same-day grocery delivery in Moscow. "
        "Our couriers are gig workers on bikes.",
        "2026-03-01T09:00:00Z",
    )
    e2 = r.say(
        "Couriers say the app lags on weak internet, so they call the dispatcher instead.",
        "2026-03-03T10:00:00Z",
    )
    e3 = r.say(
        "Another courier: the app lags on weak internet in basements, and 3 of 10 orders get "
        "delayed because of it.",
        "2026-03-05T11:00:00Z",
    )
    e4 = r.say(
        "Dispatchers use WhatsApp groups to reassign orders. Offline mode would let couriers "
        "keep working without signal.",
        "2026-03-08T12:00:00Z",
    )
    e5 = r.say(
        "Goal: cut late deliveries to 5% by June. Late deliveries are 12% today.",
        "2026-03-10T09:30:00Z",
    )
    e6 = r.say(
        "Risk: Yandex Delivery may copy offline mode quickly. Yandex Delivery already has a "
        "courier app.",
        "2026-03-12T15:00:00Z",
    )
    e7 = r.say("Courier Ivan: price of the bike rental matters most to me.", "2026-03-14T10:00:00Z")
    e8 = r.say(
        "Courier Olga: the rental price does not matter, the speed of the app does.",
        "2026-03-18T10:00:00Z",
    )
    e9 = r.say("The top 100 couriers asked about tips in the app.", "2026-03-19T10:00:00Z")
    r.e = [None, e1, e2, e3, e4, e5, e6, e7, e8, e9]

    product = r.node("product", "Couriers app", (e1, "Couriers app research"))
    market = r.node(
        "market", "Same-day grocery delivery in Moscow", (e1, "same-day grocery delivery in Moscow")
    )
    segment = r.node(
        "segment", "Gig couriers on bikes", (e1, "Our couriers are gig workers on bikes")
    )
    lag = r.node(
        "pain",
        "App lags on weak internet",
        (e2, "the app lags on weak internet"),
        (e3, "the app lags on weak internet in basements"),
        (e8, "the speed of the app does"),
    )
    delayed = r.node("pain", "Orders get delayed", (e3, "3 of 10 orders get delayed"))
    whatsapp = r.node(
        "alternative", "WhatsApp groups", (e4, "Dispatchers use WhatsApp groups to reassign orders")
    )
    offline = r.node(
        "feature",
        "Offline mode",
        (e4, "Offline mode would let couriers keep working without signal"),
        (e6, "copy offline mode quickly"),
    )
    tips = r.node("feature", "Tips in the app", (e9, "asked about tips in the app"))
    goal = r.node(
        "goal", "Cut late deliveries to 5% by June", (e5, "cut late deliveries to 5% by June")
    )
    metric = r.node("metric", "Late deliveries", (e5, "Late deliveries are 12% today"), value="12%")
    risk = r.node(
        "risk",
        "Yandex Delivery may copy offline mode",
        (e6, "Yandex Delivery may copy offline mode quickly"),
    )
    yandex = r.node(
        "competitor", "Yandex Delivery", (e6, "Yandex Delivery already has a courier app")
    )
    price_yes = r.node(
        "insight",
        "Rental price matters most",
        (e7, "price of the bike rental matters most to me"),
        subject="price",
        stance="positive",
    )
    price_no = r.node(
        "insight",
        "Rental price does not matter",
        (e8, "the rental price does not matter"),
        subject="price",
        stance="negative",
    )
    # The label carries a number that no quote of the node holds: it must never be written.
    r.node("segment", "Top 250 couriers", (e9, "The top 100 couriers"))

    r.edge("targets_market", product, market, e1, "We target same-day grocery delivery in Moscow")
    r.edge("serves", product, segment, e1, "Our couriers are gig workers on bikes")
    r.edge("experiences", segment, lag, e2, "Couriers say the app lags on weak internet")
    r.edge("addresses", whatsapp, lag, e4, "Dispatchers use WhatsApp groups to reassign orders")
    r.edge(
        "solves", offline, lag, e4, "Offline mode would let couriers keep working without signal"
    )
    r.edge("measured_by", goal, metric, e5, "Late deliveries are 12% today")
    r.edge("threatens", risk, offline, e6, "Yandex Delivery may copy offline mode quickly")
    r.edge("competes_with", yandex, product, e6, "Yandex Delivery already has a courier app")
    r.contradiction(price_yes, price_no, "price", "2026-03-18T10:00:00Z")
    r.product, r.market, r.segment, r.lag, r.delayed = product, market, segment, lag, delayed
    r.whatsapp, r.offline, r.tips, r.goal, r.metric = whatsapp, offline, tips, goal, metric
    r.risk, r.yandex, r.price_yes, r.price_no = risk, yandex, price_yes, price_no
    return r
