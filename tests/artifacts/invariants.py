"""The evidence-trail invariants every PRD version must satisfy, checked from the stored rows."""

from __future__ import annotations

from itertools import combinations

from artifacts.checks import names_grounded
from artifacts.models import ArtifactVersion, Claim, ClaimKind, Section
from artifacts.sections import WRITER_SECTIONS
from kg.graph import store
from kg.graph.records import graph_time
from kg.models import Episode
from kg.pipeline.evidence import quantities_missing
from kg.reading.context import artifact_context


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
        missing = quantities_missing(claim.text, quotes)
        assert not missing, f"{missing} in {claim.text!r} are in no cited quote {quotes}"
    for claim in version.claims.prefetch_related("citations"):
        for c in claim.citations.all():
            episode = episodes[c.episode_uid]
            assert episode.number == c.episode_number
            assert c.quote in episode.content
            assert episode.content[c.start : c.end] == c.quote


def assert_open_questions_complete(version: ArtifactVersion, as_of=None) -> None:
    """Open questions come from the context's gaps and contradictions, contradictions first, as
    many as the budget allows; the report counts the rest. When the PRD read every node of the
    project (a small one), every gap and contradiction is listed or counted."""
    context = artifact_context(version.artifact.project, "prd", as_of)
    expected = {(gap.question, "gap", (gap.node,)) for gap in context.gaps} | {
        (c.question, "contradiction", (c.a, c.b)) for c in context.contradictions
    }
    listed = [
        (q.text, q.kind, tuple(q.nodes))
        for q in version.claims.filter(section=Section.OPEN_QUESTIONS).order_by("order")
    ]
    assert set(listed) <= expected
    assert len(set(listed)) == len(listed)
    kinds = [kind for _, kind, _ in listed]
    assert kinds == sorted(kinds, key=lambda k: k != "contradiction")
    budget = version.report["budget"]
    assert len(listed) <= budget
    read = version.report["context"]
    if read["nodes"] == read["project_nodes"]:
        assert len(listed) == min(len(expected), budget)
        assert version.report["more"]["open_questions"] == len(expected) - len(listed)


def assert_claims_name_their_nodes(version: ArtifactVersion) -> None:
    """The first quote shown for each node a claim cites names the node; a claim citing both
    ends of an edge (valid at the version's moment) shows one of that edge's quotes, and that
    quote names both."""
    scope = version.artifact.project.graph_scope
    moment = graph_time(version.as_of) if version.as_of else None
    nodes = {n.number: n for n in store.list_nodes(scope)}
    number_of = {n.uid: n.number for n in nodes.values()}
    spans: dict[frozenset[int], set[tuple[int, int, int]]] = {}
    for edge in store.list_edges(scope):
        if edge.valid_as_of(moment):
            pair = frozenset((number_of[edge.source], number_of[edge.target]))
            spans.setdefault(pair, set()).update(
                (e.episode_number, e.start, e.end)
                for e in edge.evidence
                if moment is None or e.valid_at <= moment
            )

    def names(number: int, quote: str) -> bool:
        node = nodes[number]
        return names_grounded([node.label, *node.aliases], quote)

    for claim in writer_claims(version):
        citations = list(claim.citations.all())
        for number in claim.nodes:
            first = next(c for c in citations if c.node_number == number)
            assert names(number, first.quote), (
                f"{claim.text!r}: node #{number} is not named in {first.quote!r}"
            )
        for a, b in combinations(claim.nodes, 2):
            if frozenset((a, b)) not in spans:
                continue
            assert any(
                (c.episode_number, c.start, c.end) in spans[frozenset((a, b))]
                and names(a, c.quote)
                and names(b, c.quote)
                for c in citations
            ), f"{claim.text!r} relates #{a} and #{b} without citing their relation's quote"
