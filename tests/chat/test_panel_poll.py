"""The chat's research panel: its poll compares a revision and reads nothing of the graph
until the research changed; the panel itself reads the first nodes of each type, not all."""

from __future__ import annotations

import re

from kg.graph import Evidence, store
from kg.ledger.episodes import EpisodeInput, record_episode
from kg.models import Episode
from kg.pipeline.revision import graph_changed
from kg.reading.overview import NODES_PER_TYPE
from tests.fixtures.graph_rows import graph_rows  # noqa: F401
from tests.kg.pipeline_helpers import node_record

PANEL = "/projects/couriers/panel/"
HTMX = {"HTTP_HX_REQUEST": "true"}


def _evidence(project) -> Evidence:
    """A quote of the project's first message."""
    episode = Episode.objects.get(project=project, number=1)
    return Evidence(
        episode_uid=str(episode.uid),
        episode_number=1,
        quote="q",
        start=0,
        end=1,
        valid_at="2026-01-01T00:00:00.000000Z",
    )


def test_a_poll_reads_the_panel_only_when_the_research_changed(
    browser_client,
    research,
    alice,
    graph_rows,  # noqa: F811
):
    _, project = alice
    first = browser_client.get(PANEL, **HTMX)
    etag = first["ETag"]
    assert first.status_code == 200 and "Pricing screen confuses" not in first.content.decode()

    graph_rows.reset()
    unchanged = browser_client.get(PANEL, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert graph_rows.statements == 0  # the revision said so: the graph was not asked

    # A worker writes a node and counts the change, as the pipeline does: no message moved.
    store.write_nodes(
        project.graph_scope,
        [
            node_record(
                7, "Pricing screen confuses", "pain", confidence=70, evidence=[_evidence(project)]
            )
        ],
    )
    graph_changed(project)
    changed = browser_client.get(PANEL, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert "Pricing screen confuses" in changed.content.decode()
    assert graph_rows.statements > 0

    # A new message waits for the pipeline: the panel says so.
    record_episode(project, EpisodeInput(content="Couriers want offline maps."), enqueue=False)
    waiting = browser_client.get(PANEL, HTTP_IF_NONE_MATCH=changed["ETag"], **HTMX)
    assert waiting.status_code == 200 and "Analysing 5 messages" in waiting.content.decode()


def test_the_panel_shows_the_first_nodes_of_a_type_and_counts_the_rest(
    browser_client,
    research,
    alice,
    graph_rows,  # noqa: F811
):
    _, project = alice
    extra = 60
    store.write_nodes(
        project.graph_scope,
        [
            node_record(n, f"Pain {n}", "pain", confidence=n, evidence=[_evidence(project)])
            for n in range(10, 10 + extra)
        ],
    )
    graph_changed(project)
    graph_rows.reset()
    html = browser_client.get(PANEL, **HTMX).content.decode()
    pains = re.search(r'<section class="node-group" data-type="pain">.*?</section>', html, re.S)
    assert pains
    shown = [int(n) for n in re.findall(r'id="node-(\d+)"', pains.group(0))]
    # The highest confidence first: #69 (69), #68 … and the seeded #2 (65) among them.
    assert len(shown) == NODES_PER_TYPE
    assert shown[:4] == [69, 68, 67, 66]
    total = extra + 1
    assert f'Pains <span class="muted">{total}</span>' in pains.group(0)
    assert f"and {total - NODES_PER_TYPE} more" in pains.group(0)
    assert "?type=pain&amp;valid=active" in pains.group(0)
    # The project's 66 nodes were counted by the graph, not read: the rows are the shown ones.
    assert graph_rows.rows < total
