"""The research view in the product: nodes by type with filters, the node page with its
evidence highlighted inside each message, and the message page marked at the stored offsets.
Real SQL and the embedded graph, written through kg.graph.store (tests/api/research.py)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from kg.graph import Evidence, NodeRecord, store
from kg.graph.records import graph_time
from kg.ledger.episodes import EpisodeInput, record_episode
from kg.models import Membership, Role
from tests.api.conftest import _fast_passwords, alice, bob, research  # noqa: F401

BASE = "/projects/couriers/research/"


@pytest.fixture
def reader(alice, research):  # noqa: F811 - the imported fixtures, requested
    """A viewer of Alice's organization: reading the research is every member's right."""
    _, project = alice
    user = get_user_model().objects.create_user(username="vic", password="pw-123456")
    Membership.objects.create(user=user, organization=project.organization, role=Role.VIEWER)
    client = Client()
    client.force_login(user)
    return client


def _ids(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'id="node-(\d+)"', html)]


def test_nodes_by_type_with_counts_and_filters(reader):
    html = reader.get(BASE).content.decode()
    assert _ids(html) == [1, 2, 3, 4, 5, 6]
    assert "6 nodes · 2 contradicted · 1 stale" in html
    assert re.search(r'data-type="insight"[^>]*>insight <span class="count">2</span>', html)
    assert _ids(reader.get(BASE + "?type=insight").content.decode()) == [3, 4]
    assert _ids(reader.get(BASE + "?status=contradicted").content.decode()) == [3, 4]
    assert _ids(reader.get(BASE + "?status=stale").content.decode()) == [5]
    assert _ids(reader.get(BASE + "?q=maps").content.decode()) == [5, 6]
    assert _ids(reader.get(BASE + "?valid=active&q=maps").content.decode()) == [6]


def test_node_page_shows_the_quote_highlighted_inside_its_message(reader, research):  # noqa: F811
    html = reader.get(BASE + "nodes/2/?episode=1").content.decode()
    assert "App lags on weak internet" in html
    assert 'id="node-confidence"' in html and "still valid" in html
    article = re.search(
        r'<article class="evidence cited" id="evidence-1">.*?</article>', html, re.S
    )
    assert article, "the cited message is not marked on the node page"
    # The whole message, with the quoted words in <mark> (one click from a citation).
    assert (
        "Couriers tell us <mark>the app lags on weak internet in basements</mark>."
        in article.group(0)
    )
    assert f"{BASE}messages/1/?node=2#quote" in article.group(0)


def test_node_page_lists_contradictions_and_validity(reader):
    html = reader.get(BASE + "nodes/3/").content.decode()
    assert "Contradictions (1 open)" in html
    assert "price does not matter to couriers" in html
    stale = reader.get(BASE + "nodes/5/").content.decode()
    assert "no longer valid" in stale


def test_message_page_marks_the_node_quotes_at_their_offsets_and_escapes_the_text(
    alice,  # noqa: F811
    reader,
):
    _, project = alice
    content = "<b>Bold</b> claim: couriers want offline maps & nothing else."
    episode = record_episode(project, EpisodeInput(content=content), enqueue=False)
    quote = "couriers want offline maps"
    start = content.index(quote)
    store.write_nodes(
        project.graph_scope,
        [
            NodeRecord(
                uid="offline-maps",
                number=7,
                type="feature",
                label="Offline maps",
                key="offline maps",
                valid_at=graph_time(episode.valid_at),
                evidence=[
                    Evidence(
                        episode_uid=str(episode.uid),
                        episode_number=episode.number,
                        quote=quote,
                        start=start,
                        end=start + len(quote),
                        valid_at=graph_time(episode.valid_at),
                    )
                ],
            )
        ],
    )
    html = reader.get(f"{BASE}messages/{episode.number}/?node=7").content.decode()
    assert "<b>Bold</b>" not in html
    assert (
        "&lt;b&gt;Bold&lt;/b&gt; claim: <mark>couriers want offline maps</mark> &amp; nothing"
        in html
    )
    assert "research.js" in html  # scrolls to the first mark


def test_another_organizations_research_is_not_found(research, bob):  # noqa: F811
    user, _ = bob
    client = Client()
    client.force_login(user)
    for url in (BASE, BASE + "nodes/1/", BASE + "messages/1/"):
        assert client.get(url).status_code == 404
    assert Client().get(BASE).status_code == 302  # to the login page
