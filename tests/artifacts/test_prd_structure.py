"""What a PM reads in the PRD: open contradictions asked, never stated; the evidence appendix
by message; requirements ranked by a score shown with its reasons."""

from __future__ import annotations

import pytest

from artifacts.models import ClaimKind, Section
from artifacts.rendering import load_document, render_html, to_json
from artifacts.services import generate_prd
from kg.models import Organization, Project
from tests.artifacts.conftest import Research
from tests.artifacts.invariants import assert_evidence_traced, writer_claims

pytestmark = pytest.mark.django_db


@pytest.fixture
def speed_dispute(couriers):
    """Couriers value speed, and another courier says speed does not matter: still open."""
    r = couriers
    e10 = r.say(
        "Courier Anna: speed is the main factor when I pick an app.", "2026-03-20T10:00:00Z"
    )
    e11 = r.say("Courier Pavel: speed does not matter to me at all.", "2026-03-21T10:00:00Z")
    r.speed_main = r.node(
        "insight",
        "Speed is the main factor",
        (e10, "speed is the main factor"),
        subject="speed",
        stance="positive",
    )
    r.speed_none = r.node(
        "insight",
        "Speed does not matter",
        (e11, "speed does not matter to me"),
        subject="speed",
        stance="negative",
    )
    r.edge("values", r.segment, r.speed_main, e10, "Courier Anna: speed is the main factor")
    r.contradiction(r.speed_main, r.speed_none, "speed", "2026-03-21T10:00:00Z")
    return r


def test_an_open_contradiction_is_asked_and_never_stated_as_a_fact(speed_dispute):
    r = speed_dispute
    version = generate_prd(r.project)

    disputed = {r.speed_main.number, r.speed_none.number, r.price_yes.number, r.price_no.number}
    for claim in writer_claims(version):
        assert not set(claim.nodes) & disputed, claim.text
        assert "speed is the main factor" not in claim.text.lower()
        assert "does not matter" not in claim.text.lower()
    questions = version.claims.filter(section=Section.OPEN_QUESTIONS, kind=ClaimKind.CONTRADICTION)
    asked = {tuple(q.nodes) for q in questions}
    assert (r.speed_main.number, r.speed_none.number) in asked
    assert (r.price_yes.number, r.price_no.number) in asked
    body = version.markdown.split("## Open questions")[0]
    assert "Speed is the main factor" not in body
    assert "Speed does not matter" not in body
    assert "Rental price" not in body
    assert_evidence_traced(version)
    # The segment is still written, without the disputed value.
    texts = [c.text for c in writer_claims(version)]
    assert any("Gig couriers on bikes" in t for t in texts)


def test_a_model_claim_stating_a_disputed_side_is_dropped(speed_dispute):
    """Whatever writes the claims, the system removes a stated side of an open dispute."""
    from artifacts.checks import CheckedClaim
    from artifacts.services import _Outcome, _undisputed

    claim = CheckedClaim(
        section=Section.SEGMENTS,
        text="Segment Gig couriers on bikes values: Speed is the main factor.",
        nodes=(speed_dispute.segment.number, speed_dispute.speed_main.number),
        kind=ClaimKind.FACT,
    )
    other = CheckedClaim(
        section=Section.SEGMENTS,
        text="Target segment: Gig couriers on bikes.",
        nodes=(speed_dispute.segment.number,),
        kind=ClaimKind.FACT,
    )
    outcome = _Outcome(claims=[claim, other])
    kept = _undisputed(outcome, frozenset({speed_dispute.speed_main.number}))
    assert kept == [other]
    assert outcome.dropped[0]["text"] == claim.text
    assert "open contradiction" in outcome.dropped[0]["reason"]


def test_no_gap_is_asked_that_a_node_of_the_research_answers(graph, db):
    """Owners' pains exist but the extractor linked none to the segment: the PRD does not
    claim the research says nothing about their problems."""
    org = Organization.objects.create(slug="shops", name="Shops")
    project = Project.objects.create(organization=org, slug="stock", name="Stock app")
    r = Research(project)
    e1 = r.say("We spoke to shop owners in Kazan.", "2026-04-01T09:00:00Z")
    e2 = r.say("Shop owners lose stock records every month.", "2026-04-02T09:00:00Z")
    owners = r.node("segment", "Shop owners", (e1, "shop owners in Kazan"))
    r.node("pain", "Shop owners lose stock records", (e2, "Shop owners lose stock records"))

    version = generate_prd(project)

    questions = [q.text for q in version.claims.filter(section=Section.OPEN_QUESTIONS)]
    assert "What problems do Shop owners have? Nothing in the research says yet." not in questions
    # What the research truly lacks is still asked.
    assert "What makes Shop owners look for a solution?" in questions
    assert owners.number in {n for q in version.claims.filter(kind=ClaimKind.GAP) for n in q.nodes}


def test_the_appendix_lists_each_quote_once_by_message(graph, db):
    """One sentence grounds three nodes cited by three claims: the appendix shows it once,
    under its message, naming the three nodes."""
    org = Organization.objects.create(slug="maps", name="Maps")
    project = Project.objects.create(organization=org, slug="routes", name="Routes app")
    r = Research(project)
    sentence = "Couriers hate slow maps and lost orders"
    e1 = r.say(f"Interview 1. {sentence}, they told us.", "2026-04-01T09:00:00Z", author="Nina")
    e2 = r.say("Slow maps again: the maps take a minute to load.", "2026-04-02T09:00:00Z")
    couriers = r.node("segment", "Couriers", (e1, sentence))
    maps = r.node("pain", "Slow maps", (e1, sentence), (e2, "Slow maps again"))
    lost = r.node("pain", "Lost orders", (e1, sentence))

    version = generate_prd(project)
    doc = to_json(load_document(version))

    cited = {n for s in doc["sections"] for c in s["claims"] for n in c["nodes"]}
    assert {couriers.number, maps.number, lost.number} <= cited
    assert [m["message_number"] for m in doc["appendix"]] == [e1.number, e2.number]
    first = doc["appendix"][0]
    assert first["author"] == "Nina"
    assert [q["quote"] for q in first["quotes"]] == [sentence]
    assert [n["node"] for n in first["quotes"][0]["nodes"]] == sorted(
        [couriers.number, maps.number, lost.number]
    )
    appendix = version.markdown.split("## Evidence appendix")[1]
    assert appendix.count(sentence) == 1
    assert appendix.count("Slow maps again") == 1
    html = render_html(load_document(version))
    appendix_html = html.split('class="appendix"')[1].split('class="footnotes"')[0]
    assert appendix_html.count(sentence) == 1
    assert html.count(f'id="node-{maps.number}"') == 1


@pytest.fixture
def bookings(graph, db) -> Research:
    """Reminders: three people, two pains, two segments. A widget: recommended once by one
    person, linked to nothing."""
    org = Organization.objects.create(slug="salons", name="Salons")
    project = Project.objects.create(organization=org, slug="bookings", name="Bookings app")
    r = Research(project)
    e1 = r.say("We recommend a booking widget on the salon site.", "2026-04-01T09:00:00Z", "pm")
    e2 = r.say(
        "Salon owners lose bookings; SMS reminders would help.", "2026-04-02T09:00:00Z", "ann"
    )
    e3 = r.say(
        "Receptionists forget to call clients; SMS reminders fix that.",
        "2026-04-03T09:00:00Z",
        "bob",
    )
    e4 = r.say("Ann again: SMS reminders, please.", "2026-04-04T09:00:00Z", "ann")
    e5 = r.say("Carl: SMS reminders are what we need.", "2026-04-05T09:00:00Z", "carl")
    r.widget = r.node("feature", "Booking widget", (e1, "We recommend a booking widget"))
    r.reminders = r.node(
        "feature",
        "SMS reminders",
        (e2, "SMS reminders would help"),
        (e3, "SMS reminders fix that"),
        (e4, "SMS reminders, please"),
        (e5, "SMS reminders are what we need"),
    )
    r.owners = r.node("segment", "Salon owners", (e2, "Salon owners lose bookings"))
    r.desk = r.node("segment", "Receptionists", (e3, "Receptionists forget to call clients"))
    r.lost = r.node("pain", "Lost bookings", (e2, "lose bookings"))
    r.calls = r.node("pain", "Forgotten calls to clients", (e3, "forget to call clients"))
    r.edge(
        "solves", r.reminders, r.lost, e2, "Salon owners lose bookings; SMS reminders would help"
    )
    r.edge("solves", r.reminders, r.calls, e3, "forget to call clients; SMS reminders fix that")
    r.edge("experiences", r.owners, r.lost, e2, "Salon owners lose bookings")
    r.edge("experiences", r.desk, r.calls, e3, "Receptionists forget to call clients")
    return r


def test_requirements_are_ranked_by_a_score_shown_with_its_reasons(bookings):
    r = bookings
    version = generate_prd(r.project)

    priorities = version.report["priorities"]
    assert [p["node"] for p in priorities] == [r.reminders.number, r.widget.number]
    top, second = priorities
    # People are authors, not messages: ann wrote twice.
    assert (top["people"], top["sources"]) == (3, 4)
    assert {s["number"] for s in top["segments"]} == {r.owners.number, r.desk.number}
    assert {p["number"] for p in top["pains"]} == {r.lost.number, r.calls.number}
    # Impact: its two pains, and +1 as their quotes say something is lost or forgotten.
    assert top["severe"] is True
    assert (top["reach"], top["impact"]) == (3 + 2, 1 + 2 + 1)
    assert top["score"] == round(5 * 4 * r.reminders.confidence / 100, 2)
    assert top["latest"] == "2026-04-05"
    assert second["recommended"] is True and second["reach"] == 1 and second["impact"] == 2
    assert second["score"] == round(1 * 2 * r.widget.confidence / 100, 2)

    # The section follows the score: the reminders' claims come before the widget's, although
    # the widget is the one the research recommends.
    requirements = [c for c in writer_claims(version) if c.section == Section.REQUIREMENTS]
    requirements.sort(key=lambda c: c.order)
    first_widget = next(i for i, c in enumerate(requirements) if r.widget.number in c.nodes)
    assert all(r.reminders.number in c.nodes for c in requirements[:first_widget])
    assert first_widget > 0
    assert_evidence_traced(version)

    section = version.markdown.split("## Requirements")[1].split("## ")[0]
    assert "score = reach × impact × confidence" in section
    assert f"Priority 1: score {top['score']:g} = reach 5 × impact 4" in section
    assert "its quotes say something fails or cannot be done" in section
    assert "Why this rank: 3 people in 4 messages, newest 5 April" in section
    assert f"serves Salon owners (#{r.owners.number}), Receptionists (#{r.desk.number})" in section
    assert "Priority 2:" in section and "the research recommends it" in section
    assert section.index("Priority 1:") < section.index("Priority 2:")
    html = render_html(load_document(version))
    assert 'class="priority" title="Requirements are ranked by score' in html
    assert f'data-node="{r.reminders.number}" data-rank="1"' in html
    doc = to_json(load_document(version))
    assert [p["rank"] for p in doc["priorities"]] == [1, 2]
    assert doc["priorities"][0]["why"].startswith("Priority 1: score")


def test_a_requirement_from_notes_without_an_author_says_so(graph, db):
    org = Organization.objects.create(slug="notes", name="Notes")
    project = Project.objects.create(organization=org, slug="portal", name="Portal")
    r = Research(project)
    e1 = r.say("Recommendation: add a status page.", "2026-04-01T09:00:00Z", author="")
    r.node("feature", "Status page", (e1, "Recommendation: add a status page"))

    version = generate_prd(project)

    assert version.report["priorities"][0]["people"] == 0
    assert "Why this rank: 1 message (no author named), newest 1 April" in version.markdown
    assert "0 people" not in version.markdown
