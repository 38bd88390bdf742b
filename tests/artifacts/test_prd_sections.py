"""The sections a PM expects, each sentence grounded: a problem statement paragraph, target
users with their top pains, user stories only where edges ground all three parts, acceptance
criteria from the pains a requirement removes, and non-goals from what answers decided."""

from __future__ import annotations

import pytest

from artifacts.models import Citation, Claim, ClaimKind, Section
from artifacts.rendering import load_document, render_html
from artifacts.services import generate_prd
from kg.graph import store
from kg.models import Organization, Project
from kg.pipeline.contradictions import resolve_with_answer
from tests.artifacts.conftest import Research
from tests.artifacts.invariants import assert_evidence_traced, writer_claims

pytestmark = pytest.mark.django_db


@pytest.fixture
def salon(graph, db) -> Research:
    org = Organization.objects.create(slug="beauty", name="Beauty")
    project = Project.objects.create(organization=org, slug="salon", name="Salon app")
    r = Research(project)
    e1 = r.say("Salon owners need to fill empty slots in the evening.", "2026-05-01T09:00:00Z")
    e2 = r.say("A waitlist helps fill empty slots when clients cancel.", "2026-05-02T09:00:00Z")
    e3 = r.say(
        "Salon owners lose money on late cancellations; a waitlist would solve late cancellations.",
        "2026-05-03T09:00:00Z",
    )
    e4 = r.say("Loyalty points came up once.", "2026-05-04T09:00:00Z")
    e5 = r.say("We should build a client mobile app.", "2026-05-05T09:00:00Z")
    e6 = r.say("Clients book through Instagram and need no app.", "2026-05-06T09:00:00Z")
    r.owners = r.node("segment", "Salon owners", (e1, "Salon owners"), (e3, "Salon owners"))
    r.slots = r.node("job", "Fill empty slots", (e1, "fill empty slots in the evening"))
    r.waitlist = r.node("feature", "Waitlist", (e2, "A waitlist"), (e3, "a waitlist"))
    r.late = r.node("pain", "Late cancellations", (e3, "lose money on late cancellations"))
    r.loyalty = r.node("feature", "Loyalty points", (e4, "Loyalty points came up once"))
    r.app = r.node("feature", "Client mobile app", (e5, "build a client mobile app"))
    r.instagram = r.node(
        "insight", "Clients book through Instagram", (e6, "Clients book through Instagram")
    )
    r.edge("has_job", r.owners, r.slots, e1, "Salon owners need to fill empty slots")
    r.edge("supports", r.waitlist, r.slots, e2, "A waitlist helps fill empty slots")
    r.edge("experiences", r.owners, r.late, e3, "Salon owners lose money on late cancellations")
    r.edge("solves", r.waitlist, r.late, e3, "a waitlist would solve late cancellations")
    dispute = r.contradiction(r.app, r.instagram, "client app", "2026-05-06T09:00:00Z")
    r.answer = resolve_with_answer(
        project,
        dispute.uid,
        "No app for now: clients book through Instagram.",
        "pm",
        keep=r.instagram.number,
        enqueue=False,
    )
    return r


def _texts(version, section: str) -> list[str]:
    return [c.text for c in version.claims.filter(section=section).order_by("order")]


def test_user_stories_only_where_edges_ground_segment_feature_and_job(salon):
    version = generate_prd(salon.project)

    stories = Claim.objects.filter(version=version, section=Section.USER_STORIES)
    assert [s.text for s in stories] == [
        "As Salon owners, I want Waitlist, so that Fill empty slots."
    ]
    [story] = stories
    assert story.nodes == [salon.owners.number, salon.waitlist.number, salon.slots.number]
    quotes = {c.quote for c in story.citations.all()}
    # The two relations' own words: the segment has the job, the feature supports it.
    assert "Salon owners need to fill empty slots" in quotes
    assert "A waitlist helps fill empty slots" in quotes
    # A requirement no edge links to a job gets no story.
    assert not any("Loyalty points" in s.text for s in stories)


def test_acceptance_criteria_come_from_the_pains_a_requirement_solves(salon):
    version = generate_prd(salon.project)

    criteria = Claim.objects.filter(version=version, section=Section.ACCEPTANCE)
    assert [c.text for c in criteria] == [
        "Waitlist is accepted when Late cancellations no longer happens."
    ]
    [criterion] = criteria
    assert criterion.nodes == [salon.waitlist.number, salon.late.number]
    pain_quotes = [c.quote for c in criterion.citations.all() if c.node_number == salon.late.number]
    assert pain_quotes and all("late cancellations" in q for q in pain_quotes)


def test_target_users_with_their_top_pains(salon):
    version = generate_prd(salon.project)

    users = _texts(version, Section.SEGMENTS)
    assert "Segment Salon owners experiences the pain: Late cancellations." in users


def test_non_goals_are_what_answers_decided_against_with_the_answer_cited(salon):
    version = generate_prd(salon.project)

    [non_goal] = Claim.objects.filter(version=version, section=Section.NON_GOALS)
    assert non_goal.kind == ClaimKind.DECISION
    assert non_goal.text == (
        "Not a goal: “Client mobile app” — decided against; “Clients book through Instagram” "
        "holds instead."
    )
    [citation] = Citation.objects.filter(claim=non_goal)
    assert citation.episode_number == salon.answer.number
    assert citation.quote in salon.answer.content
    # The superseded requirement is not stated as one.
    assert not any("Client mobile app" in t for t in _texts(version, Section.REQUIREMENTS))
    assert "## Non-goals" in version.markdown
    # Ranked without it: one person wrote both messages about the waitlist; impact counts its
    # pain and job, and +1 as the pain's quote says money is lost.
    assert "Priority 1: score 6.4 = reach 2 × impact 4 × confidence 0.8." in version.markdown
    assert "Why this rank: 1 person in 2 messages, newest 3 May" in version.markdown


def test_no_non_goal_while_nothing_was_decided_against(couriers):
    version = generate_prd(couriers.project)
    assert not Claim.objects.filter(version=version, section=Section.NON_GOALS).exists()
    assert "## Non-goals\n\n_Nothing has been decided against yet._" in version.markdown


def test_the_problem_statement_is_one_paragraph_of_cited_sentences(couriers):
    version = generate_prd(couriers.project)

    problem = _texts(version, Section.PROBLEM)
    assert 2 <= len(problem) <= 5
    block = version.markdown.split("## Problem statement\n\n")[1].split("\n\n")[0]
    assert "\n" not in block and not block.startswith("- ")
    for sentence in problem:
        start = block.index(sentence)
        assert block[start + len(sentence) :].lstrip().startswith("*(")  # its citation follows
    html = render_html(load_document(version))
    paragraph = html.split('<p class="claims paragraph">')[1].split("</p>")[0]
    assert paragraph.count('class="claim claim-') == len(problem)


def test_every_section_a_pm_expects_with_every_sentence_traced(salon):
    version = generate_prd(salon.project)

    headings = [line[3:] for line in version.markdown.splitlines() if line.startswith("## ")]
    for expected in (
        "Problem statement",
        "Target users and their top pains",
        "Goals and success metrics",
        "Non-goals",
        "Requirements",
        "User stories",
        "Acceptance criteria",
        "Risks",
        "Open questions",
        "Evidence appendix",
    ):
        assert expected in headings
    assert_evidence_traced(version)
    body = version.claims.exclude(section=Section.APPENDIX)
    assert body.count() <= 150
    for claim in writer_claims(version):
        assert claim.citations.exists(), claim.text
    # The graph still holds the superseded feature, closed by the answer.
    [app] = store.nodes_by_uids(salon.project.graph_scope, [salon.app.uid])
    assert app.invalid_at is not None


def test_a_model_writer_is_asked_for_the_same_sections(salon):
    from artifacts.prd_selection import select_context
    from artifacts.prompts.prd_writer import build_messages
    from artifacts.services import writer_request

    selection = select_context(salon.project)
    request = writer_request(salon.project, selection.context, selection.edge_evidence)

    keys = [s.key for s in request.sections]
    assert keys[-4:] == ["requirements", "user_stories", "acceptance", "risks"]
    prompt = build_messages(request)[1]["content"]
    assert '- user_stories: User stories — user stories "As <segment>, I want <feature>' in prompt
    assert "- acceptance: Acceptance criteria — acceptance criteria" in prompt
    # The decision's superseded feature is no longer valid: the writer is not given it.
    assert salon.app.number not in {n.number for n in request.nodes}
