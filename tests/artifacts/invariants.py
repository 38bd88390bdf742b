"""The evidence-trail invariants every PRD version must satisfy, checked from the stored rows."""

from __future__ import annotations

from artifacts.models import ArtifactVersion, Claim, ClaimKind, Section
from artifacts.sections import WRITER_SECTIONS
from kg.context import artifact_context
from kg.models import Episode
from kg.pipeline.evidence import numbers_in, numbers_missing


def writer_claims(version: ArtifactVersion) -> list[Claim]:
    return list(version.claims.filter(section__in=WRITER_SECTIONS).prefetch_related("citations"))


def assert_evidence_traced(version: ArtifactVersion) -> None:
    episodes = {str(e.uid): e for e in Episode.objects.filter(project=version.artifact.project)}
    claims = writer_claims(version)
    for claim in claims:
        citations = list(claim.citations.all())
        assert citations, f"claim without citation: {claim.text!r}"
        assert claim.kind in (ClaimKind.FACT, ClaimKind.HYPOTHESIS)
        quotes = [c.quote for c in citations]
        for number in numbers_in(claim.text):
            assert any(not numbers_missing(number, q) for q in quotes), (
                f"{number} in {claim.text!r} is in no cited quote {quotes}"
            )
    for claim in version.claims.prefetch_related("citations"):
        for c in claim.citations.all():
            episode = episodes[c.episode_uid]
            assert episode.number == c.episode_number
            assert c.quote in episode.content
            assert episode.content[c.start : c.end] == c.quote


def assert_open_questions_complete(version: ArtifactVersion, as_of=None) -> None:
    context = artifact_context(version.artifact.project, "prd", as_of)
    questions = {
        (q.text, q.kind, tuple(q.nodes))
        for q in version.claims.filter(section=Section.OPEN_QUESTIONS)
    }
    for gap in context.gaps:
        assert (gap.question, "gap", (gap.node,)) in questions
    for c in context.contradictions:
        assert (c.question, "contradiction", (c.a, c.b)) in questions
    assert len(questions) == len(context.gaps) + len(context.contradictions)
