"""The 18F FOIA check: does a PRD built from the research alone recover the team's own
recommendations, each with a citation that supports it?

The research files (all but recommendations.md) are uploaded as notes into a throwaway
project, the pipeline and the PRD writer run, and each recommendation is scored by the method
written in tests/kg/real/foia_recommendations.json before any PRD was scored: a claim covers a
recommendation when it names all but one of its key-term groups (at least two) and cites a
quote that names at least one. Recommendations are split into dev and test by `split_of`.
The same method scores the top `TOP_REQUIREMENTS` ranked requirements alone: the requirements
section's claims citing one of them (artifacts.priorities).
Everything runs in a transaction that is rolled back; the graph is deleted afterwards.
"""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

from django.db import transaction

from artifacts.models import Claim, Section
from artifacts.services import generate_prd
from kg.commands import discard_project_graph, episode_ingest, read_uploaded_notes, record_episode
from kg.models import Organization, Project
from kg.realdata.datasets import FOIA
from kg.realdata.splits import Split, split_of
from kg.realdata.suite import register_part

_RESEARCH = (
    "research-plan.md",
    "research-synthesis-requesters.md",
    "research-synthesis-agencies.md",
    "usability-testing-synthesis.md",
    "research-update.md",
)


def _names(term: str, text: str) -> bool:
    return re.search(r"\b" + re.escape(term.lower()), text.lower()) is not None


def _groups_named(groups: list[list[str]], text: str) -> int:
    return sum(1 for group in groups if any(_names(term, text) for term in group))


def covers(recommendation: dict, claim_text: str, quotes: list[str]) -> bool:
    groups = recommendation["key_terms"]
    needed = max(len(groups) - 1, min(len(groups), 2))
    if _groups_named(groups, claim_text) < needed:
        return False
    return any(_groups_named(groups, quote) >= 1 for quote in quotes)


TOP_REQUIREMENTS = 10

Quoted = list[tuple[str, list[str]]]


def _prd_claims(datasets: Path) -> tuple[Quoted, Quoted]:
    """The PRD's claims with their quotes, and those of its top ranked requirements."""
    claims: Quoted = []
    top_claims: Quoted = []
    with transaction.atomic():
        org = Organization.objects.create(slug=f"eval-{uuid.uuid4().hex[:10]}", name="evaluation")
        project = Project.objects.create(
            organization=org, slug=f"{org.slug}-foia", name="FOIA portal", language="en"
        )
        try:
            for name in _RESEARCH:
                parsed = read_uploaded_notes(name, (datasets / FOIA / name).read_bytes())
                for item in parsed.items:
                    episode_ingest(record_episode(project, item, enqueue=False).pk)
            version = generate_prd(project)
            ranked = version.report.get("priorities", [])[:TOP_REQUIREMENTS]
            top = {p["node"] for p in ranked}
            for claim in Claim.objects.filter(version=version).prefetch_related("citations"):
                quoted = (claim.text, [c.quote for c in claim.citations.all()])
                claims.append(quoted)
                if claim.section == Section.REQUIREMENTS and top & set(claim.nodes):
                    top_claims.append(quoted)
        finally:
            discard_project_graph(project.graph_scope)
        transaction.set_rollback(True)
    return claims, top_claims


def prd_coverage(datasets: Path, annotations: Path, split: Split) -> dict:
    spec = json.loads((annotations / "foia_recommendations.json").read_text(encoding="utf-8"))
    chosen = [r for r in spec["recommendations"] if split_of(FOIA, r["id"]) == split]
    claims, top_claims = _prd_claims(datasets)
    covered = [r["id"] for r in chosen if any(covers(r, text, q) for text, q in claims)]
    top = [r["id"] for r in chosen if any(covers(r, text, q) for text, q in top_claims)]
    return {
        "top_requirements": TOP_REQUIREMENTS,
        "top_requirements_covered": len(top),
        "top_requirements_covered_ids": top,
        "recommendations": len(chosen),
        "covered": len(covered),
        "covered_ids": covered,
        "coverage": round(len(covered) / len(chosen), 3) if chosen else 0.0,
        "prd_claims": len(claims),
    }


def register() -> None:
    register_part("prd_coverage_18f", prd_coverage)
