"""Answers take effect: the statement an answer keeps stays valid, the other is superseded by it
with the answer as evidence, and the regenerated PRD says what was decided, citing the answer.

Real SQL, the real embedded graph; the research is the hand-made one of the API tests.
"""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from artifacts.models import Citation, ClaimKind, Section
from artifacts.rendering import load_document, render_html
from artifacts.services import generate_prd
from kg.graph import NodeRecord, store
from kg.models import Episode
from kg.models.integration import IndexedNode
from kg.pipeline.contradictions import answer_quote, kept_by_answer
from kg.web.api.services import (
    ContradictionAlreadyResolved,
    NotOneOfTheTwo,
    contradiction,
    resolve_contradiction,
)
from tests.api.research import member, seed_research


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def research(db, graph):
    user, project = member("alice", "acme", "couriers")
    return user, seed_research(project)


def _statement(number: int, label: str, stance: str) -> NodeRecord:
    return NodeRecord(
        uid=f"n{number}",
        number=number,
        type="insight",
        label=label,
        key=label.lower(),
        valid_at="2026-01-01T00:00:00Z",
        subject="price",
        stance=stance,
    )


MAIN = _statement(3, "Price is the main factor", "positive")
NOT_MUCH = _statement(4, "Price does not matter", "negative")


@pytest.mark.parametrize(
    ("answer", "kept"),
    [
        ("#4 holds: we checked with forty couriers", 4),  # named by number
        ("No, price is the main factor for them.", 3),  # its words, despite the "No"
        ("We re-asked: price does not matter.", 4),
        ("Couriers never compare prices any more.", 4),  # a negation: the negative stance
        ("Price matters most to new couriers.", 3),  # none: the positive one
        ("Цена для курьеров не важна.", 4),
    ],
)
def test_the_answer_decides_which_statement_holds(answer, kept):
    assert kept_by_answer(answer, MAIN, NOT_MUCH).number == kept


def test_a_long_answer_is_quoted_from_its_start_at_a_word():
    answer = "Price is the main factor. " + "We asked again and again. " * 30
    quote = answer_quote(answer)
    assert answer.startswith(quote)
    assert len(quote) <= 300 and not quote.endswith(" ")
    assert answer_quote("Short.") == "Short."


def test_the_kept_statement_supersedes_the_other_with_the_answer_as_evidence(research):
    user, seeded = research
    project = seeded.project
    scope = project.graph_scope
    episode = resolve_contradiction(
        project,
        seeded.contradiction_uid,
        "We re-asked twelve couriers: price is what they compare first.",
        "Alice",
        keep=3,
        enqueue=False,
    )
    assert episode.source_ref == {
        "resolves": seeded.contradiction_uid,
        "keeps": f"{project.slug}-n3",
    }
    main, not_much = store.nodes_by_uids(scope, [f"{project.slug}-n3", f"{project.slug}-n4"])
    assert main.invalid_at is None
    assert not_much.invalid_at == store.list_contradictions(scope)[0].resolved_at
    [superseded] = [s for s in store.list_supersessions(scope) if s.old == not_much.uid]
    assert superseded.new == main.uid
    assert superseded.episode_number == episode.number
    assert superseded.episode_uid == str(episode.uid)
    assert superseded.quote == episode.content
    assert superseded.relation == f"answer in message #{episode.number}"
    # The candidate index knows the superseded statement is no longer active.
    assert not IndexedNode.objects.get(project=project, uid=not_much.uid).active
    view = contradiction(project, seeded.contradiction_uid)
    assert (view.status, view.kept, view.superseded, view.answer_message) == (
        "resolved",
        3,
        4,
        episode.number,
    )
    with pytest.raises(ContradictionAlreadyResolved):
        resolve_contradiction(project, seeded.contradiction_uid, "again", "Alice", keep=4)


def test_keep_must_be_one_of_the_two_and_nothing_is_written_otherwise(research):
    _, seeded = research
    project = seeded.project
    before = Episode.objects.filter(project=project).count()
    with pytest.raises(NotOneOfTheTwo):
        resolve_contradiction(project, seeded.contradiction_uid, "It is #1", "Alice", keep=1)
    assert Episode.objects.filter(project=project).count() == before
    assert contradiction(project, seeded.contradiction_uid).status == "open"
    assert all(
        n.invalid_at is None
        for n in store.nodes_by_uids(
            project.graph_scope,
            [
                f"{project.slug}-n3",
                f"{project.slug}-n4",
            ],
        )
    )


def test_api_answer_with_keep_and_the_superseded_node(research):
    user, seeded = research
    project = seeded.project
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    base = f"/api/projects/{project.slug}/"
    url = base + f"contradictions/{seeded.contradiction_uid}/resolve/"
    refused = client.post(url, {"answer": "yes", "keep": 6}, format="json")
    assert refused.status_code == 409  # a node number, but not one of the two
    assert "keep" in refused.json()["errors"]
    response = client.post(
        url, {"answer": "Price is the main factor after all.", "keep": 4}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()["contradiction"]
    assert (body["kept"], body["superseded"]) == (4, 3)
    assert client.get(base + "nodes/3/").json()["invalid_at"]
    assert client.get(base + "nodes/4/").json()["invalid_at"] is None


def test_the_regenerated_prd_says_what_was_decided_and_cites_the_answer(research):
    _, seeded = research
    project = seeded.project
    before = generate_prd(project)
    assert not before.claims.filter(section=Section.DECISIONS).exists()
    assert before.claims.filter(kind=ClaimKind.CONTRADICTION).exists()

    answer = "We re-asked twelve couriers: price does not matter, speed does."
    episode = resolve_contradiction(
        project, seeded.contradiction_uid, answer, "Alice", keep=4, enqueue=False
    )
    after = generate_prd(project)
    assert after.number == before.number + 1
    [decision] = after.claims.filter(section=Section.DECISIONS)
    assert decision.kind == ClaimKind.DECISION
    assert (
        decision.text == "“Price does not matter” holds; “Price is the main factor” no longer does."
    )
    assert decision.nodes == [4]
    [citation] = Citation.objects.filter(claim=decision)
    assert (citation.node_number, citation.episode_number) == (4, episode.number)
    assert citation.quote == answer
    assert episode.content[citation.start : citation.end] == answer
    # The open question is gone, and the superseded statement is cited nowhere any more.
    assert not after.claims.filter(kind=ClaimKind.CONTRADICTION).exists()
    assert not Citation.objects.filter(claim__version=after, node_number=3).exists()
    # Rendered: the Decisions section, its claim and the answer's words linked to its message.
    page = str(render_html(load_document(after)))
    assert 'id="section-decisions"' in page
    assert "“Price does not matter” holds" in page
    assert f"#{episode.number}" in page and "speed does" in page
    assert "## Decisions" in after.markdown


def test_the_research_pages_show_the_answer_with_the_kept_statement(research, client):
    user, seeded = research
    project = seeded.project
    answer = "We re-asked twelve couriers: price does not matter, speed does."
    episode = resolve_contradiction(
        project, seeded.contradiction_uid, answer, "Alice", keep=4, enqueue=False
    )
    client.force_login(user)
    node = client.get(f"/projects/{project.slug}/research/nodes/4/", {"episode": episode.number})
    page = node.content.decode()
    assert f'id="evidence-{episode.number}"' in page
    assert f"<mark>{answer}</mark>" in page.replace("&#x27;", "'")
    # Confidence is not raised by the decision: it counts the sources of the research.
    assert store.node_by_number(project.graph_scope, 4).confidence == 65
    message = client.get(
        f"/projects/{project.slug}/research/messages/{episode.number}/", {"node": 4}
    ).content.decode()
    assert f"<mark>{answer}</mark>" in message
    superseded = client.get(f"/projects/{project.slug}/research/nodes/3/").content.decode()
    assert 'id="node-superseded-by"' in superseded
    assert f"answer in message #{episode.number}" in superseded


def test_kg_rebuild_replays_the_decision(db, graph):
    from kg.ledger.episodes import EpisodeInput, record_episode
    from kg.operations.rebuild import rebuild_project_graph
    from kg.pipeline.ingest import episode_ingest
    from tests.kg.pipeline_helpers import make_project

    project = make_project("rebuild-answer")
    scope = project.graph_scope
    for text in (
        "For couriers price is the main factor when they pick an app.",
        "Honestly, price does not matter to couriers at all.",
    ):
        episode_ingest(record_episode(project, EpisodeInput(content=text), enqueue=False).pk)
    [opened] = store.list_contradictions(scope)
    main = next(n for n in store.list_nodes(scope) if n.label == "price is the main factor")
    answer = resolve_contradiction(
        project, opened.uid, "Price is the main factor, we checked.", "Alice", enqueue=False
    )
    episode_ingest(answer.pk)

    def decided() -> tuple:
        [c] = store.list_contradictions(scope)
        nodes = {n.uid: n for n in store.list_nodes(scope)}
        lost = nodes[c.superseded]
        supersessions = [(s.old, s.new, s.episode_number) for s in store.list_supersessions(scope)]
        return c.status, c.kept, c.superseded, c.answer_number, lost.invalid_at, supersessions

    before = decided()
    assert before[:2] == ("resolved", main.uid)
    assert rebuild_project_graph(project) == 3
    assert decided() == before
