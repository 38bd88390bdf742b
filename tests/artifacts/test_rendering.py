"""The renderer writes every citation; user-written text is escaped in HTML and Markdown."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from artifacts.checks import ContextIndex, Draft, FailedClaim, check_claim
from artifacts.rendering import format_date, load_document, render_html
from artifacts.services import generate_prd
from kg.reading.context import ArtifactContext, ContextNode, EvidenceView
from tests.artifacts.conftest import Research

pytestmark = pytest.mark.django_db


@pytest.fixture
def hostile(project, graph) -> Research:
    r = Research(project)
    e1 = r.say(
        'The courier typed <script>alert("x")</script> into the feedback form, and the app '
        "lags on weak internet.",
        "2026-03-05T10:00:00Z",
    )
    e2 = r.say("Again: the app lags on weak internet.", "2026-03-08T10:00:00Z")
    r.pain = r.node(
        "pain",
        '<script>alert("label")</script> App lags',
        (e1, 'typed <script>alert("x")</script> into the feedback form'),
        (e2, "the app lags on weak internet"),
    )
    return r


def test_html_escapes_quotes_and_labels(hostile):
    version = generate_prd(hostile.project)

    html = str(render_html(load_document(version)))

    assert "<script>" not in html
    assert "&lt;script&gt;alert(&quot;label&quot;)&lt;/script&gt; App lags" in html
    assert "typed &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; into the feedback form" in html


def test_markdown_escapes_markup(hostile):
    version = generate_prd(hostile.project)

    assert "<script>" not in version.markdown
    assert '\\<script\\>alert("label")\\</script\\> App lags' in version.markdown


def test_citation_markers_link_to_chat_messages_with_tooltips(hostile):
    version = generate_prd(hostile.project)

    html = str(render_html(load_document(version)))

    markers = re.findall(r'<sup class="cite"><a [^>]*>\[\d+\]</a></sup>', html)
    assert markers
    first = markers[0]
    # One click to the node's evidence at the cited message, where the quote is highlighted.
    assert 'href="/projects/couriers/research/nodes/1/?episode=1#evidence-1"' in first
    assert 'data-episode="1"' in first and 'data-node="1"' in first
    title = re.search(r'title="([^"]*)"', first).group(1)
    assert title.startswith("pain #1 · &lt;script&gt;")
    assert "confidence 80 · 5 March · &quot;typed &lt;script&gt;" in title
    # Footnotes repeat the citation in full, with the confirming messages as links.
    assert '<li id="fn-1">' in html
    assert (
        'confirmed in message <a href="/projects/couriers/research/messages/2/?node=1#quote"'
        in html
    )


def test_dates_show_the_year_only_outside_the_document_year():
    moment = dt.datetime(2025, 3, 5, 10, tzinfo=dt.UTC)
    assert format_date(moment, "en", 2025) == "5 March"
    assert format_date(moment, "en", 2026) == "5 March 2025"
    assert format_date(moment, "ru", 2025) == "5 марта"


def _context(invalid_at: str | None, as_of: str | None) -> ArtifactContext:
    node = ContextNode(
        uid="n1",
        number=7,
        type="pain",
        label="App lags",
        confidence=82,
        valid_at="2026-03-01T00:00:00.000000Z",
        invalid_at=invalid_at,
        evidence=[
            EvidenceView(
                episode_uid="e1",
                episode_number=3,
                date="2026-03-01T00:00:00.000000Z",
                quote="the app lags for 10 seconds",
                start=0,
                end=27,
            )
        ],
    )
    return ArtifactContext(
        project="p",
        kind="prd",
        language="en",
        as_of=as_of,
        nodes=[node],
        edges=[],
        gaps=[],
        contradictions=[],
        average_confidence=82,
    )


def test_checks_refuse_closed_nodes_and_unquoted_numbers():
    closed = ContextIndex.of(_context("2026-03-10T00:00:00.000000Z", None))
    result = check_claim(Draft("pains", "The app lags.", (7,)), closed)
    assert isinstance(result, FailedClaim)
    assert result.reasons == ("node #7 is no longer valid: do not cite it",)

    # As of a moment before it closed, the same node is valid.
    earlier = ContextIndex.of(_context("2026-03-10T00:00:00.000000Z", "2026-03-05T00:00:00Z"))
    assert check_claim(Draft("pains", "The app lags.", (7,)), earlier).kind == "fact"

    open_index = ContextIndex.of(_context(None, None))
    ok = check_claim(Draft("pains", "The app lags for 10 seconds.", (7,)), open_index)
    assert ok.kind == "fact"
    bad = check_claim(Draft("pains", "The app lags for 12 seconds (#7).", (7,)), open_index)
    assert isinstance(bad, FailedClaim)
    assert "12, 7" in bad.reason
