"""The evidence appendix is bounded: at most three quotes of a node, from distinct sources (the
ones its claims cite first), then "and N more quotes" linking to the node's page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from artifacts.rendering import load_document, render_html, to_json
from artifacts.services import APPENDIX_QUOTES_PER_NODE, generate_prd
from kg.models import Organization, Project
from tests.artifacts.conftest import Research

pytestmark = pytest.mark.django_db


@pytest.fixture
def crowded(graph, db) -> Research:
    """A pain said in fourteen messages by three people (one message says it twice) and in an
    uploaded file; a segment said once."""
    org = Organization.objects.create(slug="maps", name="Maps")
    project = Project.objects.create(organization=org, slug="routes", name="Routes app")
    r = Research(project)
    authors = ["Nina"] * 6 + ["Oleg"] * 5 + ["Pavel"] * 3
    mentions = []
    for day, author in enumerate(authors, start=1):
        text = f"Interview {day}: the maps load slowly on the road, day {day} again."
        if day == 4:
            text += " Honestly the maps load slowly everywhere."
        episode = r.say(text, f"2026-04-{day:02d}T09:00:00Z", author=author)
        mentions.append((episode, "the maps load slowly on the road"))
        if day == 4:
            mentions.append((episode, "the maps load slowly everywhere"))
    upload = r.say(
        "Survey notes: the maps load slowly on the road for most couriers.",
        "2026-04-20T09:00:00Z",
        author="",
        file="survey.docx",
    )
    mentions.append((upload, "the maps load slowly on the road"))
    r.slow = r.node("pain", "Maps load slowly", *mentions)
    first = r.say("Our users are couriers on bikes.", "2026-04-01T08:00:00Z", author="Nina")
    r.couriers = r.node("segment", "Couriers on bikes", (first, "couriers on bikes"))
    return r


def test_a_node_of_many_quotes_shows_three_from_distinct_sources_and_counts_the_rest(crowded):
    r = crowded
    version = generate_prd(r.project)
    doc = to_json(load_document(version))

    cited = {n for s in doc["sections"] for c in s["claims"] for n in c["nodes"]}
    assert r.slow.number in cited
    shown = [
        (m["message_number"], m["author"], m["file"], q["quote"])
        for m in doc["appendix"]
        for q in m["quotes"]
        if r.slow.number in {n["node"] for n in q["nodes"]}
    ]
    assert len(shown) == APPENDIX_QUOTES_PER_NODE == 3
    assert len({number for number, *_ in shown}) == 3  # three messages
    assert len({(author, file) for _, author, file, _ in shown}) == 3  # three sources
    # The quote the claims cite for the node is among them.
    body = {
        (c["message_number"], c["quote"])
        for s in doc["sections"]
        for claim in s["claims"]
        for c in claim["citations"]
        if c["node"] == r.slow.number
    }
    assert body and body <= {(number, quote) for number, _, _, quote in shown}

    more = len(r.slow.evidence) - 3
    assert more == 13
    assert doc["appendix_more"] == [{"node": r.slow.number, "node_type": "pain", "more": more}]
    appendix_md = version.markdown.split("## Evidence appendix")[1]
    assert f"pain #{r.slow.number} Maps load slowly: and {more} more quotes on its page" in (
        appendix_md
    )
    assert appendix_md.count("the maps load slowly") == 3

    html = render_html(load_document(version))
    appendix_html = html.split('class="appendix"')[1].split('class="footnotes"')[0]
    page = reverse("research:node", args=[r.project.slug, r.slow.number])
    assert f'href="{page}" data-node="{r.slow.number}" data-more="{more}"' in appendix_html
    # The segment said once is shown whole: nothing more of it.
    assert f'data-node="{r.couriers.number}" data-more' not in appendix_html
    assert version.report["appendix_more"] == {str(r.slow.number): more}


def test_a_citation_names_three_other_messages_and_counts_the_rest(crowded):
    """The body's citation of the node says which other messages confirm it: three named, the
    rest counted and linked to the node's page; the API's JSON keeps every number."""
    r = crowded
    version = generate_prd(r.project)
    doc = to_json(load_document(version))
    [citation, *_] = [
        c
        for s in doc["sections"]
        for claim in s["claims"]
        for c in claim["citations"]
        if c["node"] == r.slow.number
    ]
    others = citation["confirmed_in"]
    assert len(others) == 15 - 1  # every other message of the node
    named = ", ".join(f"#{n}" for n in others[:3])
    assert f"confirmed in messages {named} and {len(others) - 3} more" in version.markdown
    html = render_html(load_document(version))
    page = reverse("research:node", args=[r.project.slug, r.slow.number])
    assert f'<a href="{page}" data-more="{len(others) - 3}"> and {len(others) - 3} more</a>' in html
