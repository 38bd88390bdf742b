"""A PRD a person reads: a length budget per section, priority order, the pointer to the rest,
and regeneration answered from the graph revision."""

from __future__ import annotations

import pytest

from artifacts.models import ArtifactVersion, Section, VersionStatus
from artifacts.rendering import load_document, render_html, to_json
from artifacts.services import generate_prd, parse_as_of
from kg.models import LLMCall
from kg.pipeline.revision import graph_changed, project_revision
from tests.artifacts.conftest import Research
from tests.artifacts.invariants import assert_evidence_traced, writer_claims

pytestmark = pytest.mark.django_db

# label, confidence, dates of the episodes that say it
PAINS = [
    ("Checkout fails on the second step", 90, ["2026-03-01"]),
    ("Invoices arrive without a number", 80, ["2026-03-02", "2026-03-03"]),
    ("Search ignores misspelled names", 80, ["2026-03-04"]),
    ("Exports drop the last column", 70, ["2026-03-05"]),
    ("Reminders come after the deadline", 70, ["2026-03-06"]),
    ("Photos upload sideways", 60, ["2026-03-07"]),
    ("Receipts show the wrong currency", 50, ["2026-03-08"]),
    ("Login forgets the chosen language", 40, ["2026-03-09"]),
]
# Confidence first; equal confidence: more distinct episodes first (invoices before search),
# then the newer node first (reminders before exports).
PRIORITY = [
    "Checkout fails on the second step",
    "Invoices arrive without a number",
    "Search ignores misspelled names",
    "Reminders come after the deadline",
    "Exports drop the last column",
    "Photos upload sideways",
    "Receipts show the wrong currency",
    "Login forgets the chosen language",
]


@pytest.fixture
def pains(project, graph) -> Research:
    r = Research(project)
    for label, confidence, dates in PAINS:
        mentions = [
            (r.say(f"Interview note: {label}, every week.", f"{d}T10:00:00Z"), label) for d in dates
        ]
        r.node("pain", label, *mentions, confidence=confidence)
    return r


def _section(version: ArtifactVersion, section: str) -> list[str]:
    return [c.text for c in writer_claims(version) if c.section == section]


def test_each_section_keeps_to_the_budget_and_points_to_the_rest(pains, settings):
    settings.PRD_SECTION_BUDGET = 5

    version = generate_prd(pains.project)

    shown = _section(version, Section.PAINS)
    assert shown == [f"Pain: {label}." for label in PRIORITY[:5]]
    for section in {c.section for c in writer_claims(version)}:
        assert len(_section(version, section)) <= 5
    assert version.report["more"]["sections"][Section.PAINS] == {"pain": 3}
    assert version.report["counts"]["claims"] == len(writer_claims(version))
    # Only the top of the type was read from the graph, yet the totals are the project's.
    assert version.report["context"]["nodes"] == 5
    assert version.report["context"]["project_nodes"] == 8
    assert_evidence_traced(version)

    assert "_and 3 more pains in the research view_" in version.markdown
    html = str(render_html(load_document(version)))
    assert '<p class="more">and <a href="/projects/couriers/research/?type=pain"' in html
    assert 'data-count="3">3 more pains</a> in the research view</p>' in html
    doc = to_json(load_document(version))
    assert doc["more"][Section.PAINS] == {"pain": 3}


def test_the_pointer_counts_what_the_section_does_not_show(pains, settings):
    settings.PRD_SECTION_BUDGET = 2

    version = generate_prd(pains.project)

    assert _section(version, Section.PAINS) == [f"Pain: {label}." for label in PRIORITY[:2]]
    assert version.report["more"]["sections"][Section.PAINS] == {"pain": 6}
    assert "_and 6 more pains in the research view_" in version.markdown


def test_nothing_left_out_means_no_pointer(pains, settings):
    settings.PRD_SECTION_BUDGET = 12

    version = generate_prd(pains.project)

    assert _section(version, Section.PAINS) == [f"Pain: {label}." for label in PRIORITY]
    assert Section.PAINS not in version.report["more"]["sections"]
    assert "more pains" not in version.markdown


def test_a_russian_pointer_declines_its_noun(project, graph, settings):
    settings.PRD_SECTION_BUDGET = 1
    project.language = "ru"
    project.save()
    r = Research(project)
    for i, label in enumerate(["Приложение тормозит", "Курьеры теряют заказы", "Нет связи"]):
        e = r.say(f"Интервью: {label.lower()} каждый день.", f"2026-03-0{i + 1}T10:00:00Z")
        r.node("pain", label, (e, label.lower()), confidence=90 - i)

    version = generate_prd(project)

    assert version.report["more"]["sections"][Section.PAINS] == {"pain": 2}
    assert "_и ещё 2 боли — в исследовании_" in version.markdown


def test_unchanged_regeneration_reads_no_graph_and_calls_no_model(pains, monkeypatch):
    first = generate_prd(pains.project)
    calls = LLMCall.objects.count()

    def no_graph(*args, **kwargs):
        raise AssertionError("the graph was read for an unchanged regeneration")

    monkeypatch.setattr("artifacts.services.select_context", no_graph)
    again = generate_prd(pains.project)

    assert again.pk == first.pk
    assert LLMCall.objects.count() == calls
    assert ArtifactVersion.objects.complete().count() == 1


def test_a_change_in_the_graph_makes_a_new_version(pains):
    first = generate_prd(pains.project)
    e = pains.say("Interview note: the map freezes at night, every week.", "2026-03-20T10:00:00Z")
    pains.node("pain", "Map freezes at night", (e, "the map freezes at night"), confidence=95)

    second = generate_prd(pains.project)

    assert second.pk != first.pk
    assert (first.number, second.number) == (1, 2)
    assert second.revision_key != first.revision_key
    assert _section(second, Section.PAINS)[0] == "Pain: Map freezes at night."


def test_a_revision_without_a_visible_change_reuses_and_remembers_it(pains, monkeypatch):
    first = generate_prd(pains.project)
    before = project_revision(pains.project)
    graph_changed(pains.project)  # e.g. an episode that added nothing the PRD shows
    assert project_revision(pains.project) == before + 1

    again = generate_prd(pains.project)  # reads the graph: same content, same version
    assert again.pk == first.pk
    reused = ArtifactVersion.objects.get(status=VersionStatus.REUSED)
    assert reused.same_as_id == first.pk and reused.revision_key != first.revision_key

    monkeypatch.setattr("artifacts.services.select_context", pytest.fail)
    assert generate_prd(pains.project).pk == first.pk  # now answered from the revision


def test_generation_parameters_are_part_of_the_key(pains, settings):
    first = generate_prd(pains.project)
    then = generate_prd(pains.project, as_of=parse_as_of("2026-03-04"))
    assert then.pk != first.pk
    assert "Reminders come after the deadline" not in then.markdown  # said on 6 March

    settings.PRD_SECTION_BUDGET = 3
    smaller = generate_prd(pains.project)
    assert smaller.pk not in (first.pk, then.pk)
    assert len(_section(smaller, Section.PAINS)) == 3


def test_recommended_features_are_found_past_many_more_mentioned_ones(project, graph, settings):
    # Budget 2: the first read holds the 8 most mentioned features, none recommended; the
    # section reads further and still shows the two recommendations, older and single-sourced.
    settings.PRD_SECTION_BUDGET = 2
    r = Research(project)
    for i, label in enumerate(("Recommendation: show the fare", "We should offer a receipt")):
        r.node("feature", label, (r.say(f"{label}.", f"2026-01-0{i + 1}T10:00:00Z"), label))
    for i in range(10):
        label = f"map layer {i}"
        dates = ["2026-02-01", "2026-02-02", "2026-02-03"]
        mentions = [(r.say(f"People open the {label}.", f"{d}T1{i}:00:00Z"), label) for d in dates]
        r.node("feature", label, *mentions, confidence=85)

    shown = _section(generate_prd(project), Section.REQUIREMENTS)

    assert sorted(shown) == [
        "Requirement: Recommendation: show the fare.",
        "Requirement: We should offer a receipt.",
    ], shown
