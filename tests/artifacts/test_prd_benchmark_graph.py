"""The PRD generation benchmark's synthetic graph gives every section of the PRD something to
say, so its timings are those of a whole PRD: ranked requirements, user stories, acceptance
criteria, a non-goal, open questions, every claim traced and within the claim budget."""

from __future__ import annotations

import pytest

from artifacts.models import Section
from artifacts.services import generate_prd
from benchmarks.prd_generation import TARGETS, build_project, untraced_claims
from kg.pipeline.revision import graph_changed

pytestmark = pytest.mark.django_db


def test_the_benchmark_graph_fills_every_section_and_every_claim_is_traced(graph):
    project, shape = build_project(300)
    graph_changed(project)

    version = generate_prd(project, review=False)

    assert shape["nodes"] == 303
    sections = set(version.claims.values_list("section", flat=True))
    for section in (
        Section.PROBLEM,
        Section.REQUIREMENTS,
        Section.USER_STORIES,
        Section.ACCEPTANCE,
        Section.NON_GOALS,
        Section.OPEN_QUESTIONS,
        Section.APPENDIX,
    ):
        assert section in sections, section
    assert version.report["priorities"] and version.report["priorities"][0]["rank"] == 1
    assert version.report["counts"]["claims"] <= TARGETS["claims"]
    assert untraced_claims(version) == []
