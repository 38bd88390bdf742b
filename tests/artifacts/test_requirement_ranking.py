"""Ranking requirements by principle: a pain stated in the same sentence is answered, a quote
saying something fails makes the pain severe, and the requirements section shows the best
scored of its whole candidate pool, not the recommended ones first."""

from __future__ import annotations

import pytest

from artifacts.models import Section
from artifacts.prd_selection import select_context
from artifacts.priorities import prioritise, severe
from artifacts.services import generate_prd
from kg.models import Organization, Project
from tests.artifacts.conftest import Research
from tests.artifacts.invariants import assert_evidence_traced, writer_claims

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "quote,felt",
    [
        ("Requesters did not receive an email confirmation", True),
        ("Users were unable to define the milestones", True),
        ("Couriers lose orders in the basement", True),
        ("Курьеры не могут загрузить фото", True),
        ("Requesters liked the officer's name on the page", False),
        ("We recommend a status page", False),
    ],
)
def test_severity_is_read_from_the_quote_words(quote, felt):
    assert severe(quote) is felt


@pytest.fixture
def portal(graph, db) -> Research:
    """Notes without authors: two recommendations linked to nothing, and a sentence stating a
    pain (nothing arrives) and what to build (a confirmation email) at once."""
    org = Organization.objects.create(slug="portal-org", name="Portal")
    project = Project.objects.create(organization=org, slug="portal", name="Portal")
    r = Research(project)
    e1 = r.say("Recommendation: add a print button.", "2026-04-01T09:00:00Z", author="")
    e2 = r.say("Recommendation: add a dark theme.", "2026-04-02T09:00:00Z", author="")
    e3 = r.say(
        "Requesters did not receive an email confirmation after they submitted.",
        "2026-03-01T09:00:00Z",
        author="",
    )
    r.print = r.node("feature", "Print button", (e1, "Recommendation: add a print button"))
    r.theme = r.node("feature", "Dark theme", (e2, "Recommendation: add a dark theme"))
    r.email = r.node(
        "feature", "Email confirmation", (e3, "receive an email confirmation after they submitted")
    )
    r.missing = r.node(
        "pain", "No confirmation arrives", (e3, "did not receive an email confirmation")
    )
    r.requesters = r.node("segment", "Requesters", (e3, "Requesters"))
    return r


def test_a_pain_in_the_same_sentence_is_answered_and_its_severity_counts(portal):
    r = portal
    context = select_context(r.project).context
    ranked = {p.node: p for p in prioritise(context.nodes, context.edges, recommended=set())}

    email = ranked[r.email.number]
    assert [p.number for p in email.pains] == [r.missing.number]
    # "Requesters" is a different span: not the same sentence's words as the feature's quote.
    assert email.segments == ()
    assert email.severe is True
    assert email.impact == 1 + 1 + 1
    assert ranked[r.print.number].pains == () and ranked[r.print.number].severe is False


def test_the_requirements_section_shows_the_best_scored_of_its_pool(portal, settings):
    """With room for one requirement, the email confirmation (a severe pain it answers) is
    shown, not a recommendation that answers nothing, although recommendations used to be
    picked first."""
    r = portal
    settings.PRD_SECTION_BUDGET = 1
    version = generate_prd(r.project)

    priorities = version.report["priorities"]
    assert [p["node"] for p in priorities] == [r.email.number]
    assert priorities[0]["score"] == round(1 * 3 * r.email.confidence / 100, 2)
    requirements = [c for c in writer_claims(version) if c.section == Section.REQUIREMENTS]
    assert [c.nodes for c in requirements] == [[r.email.number]]
    assert "its quotes say something fails or cannot be done" in version.markdown
    assert_evidence_traced(version)
