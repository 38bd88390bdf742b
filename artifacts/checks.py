"""Write-time checks on the writer's claims. The system decides; the model only proposes.

A claim passes when:
- it cites at least one node, and every cited node is in the context and valid in it;
- every number in its text appears in a quote of a cited node;
- every node it cites is grounded in the quote the PRD cites for it (`names_grounded`). The
  nodes a claim cites are the nodes it names: the offline templates write exactly the labels of
  the nodes they cite, and the model is told to cite the nodes each sentence rests on;
- the sentence says no more than its sources: half its content words (the templates' own words
  aside) are in the labels and quotes of the nodes it cites, or it restates them in other words
  by the sentence encoder's bar (kg.pipeline.grounding.claim_supported);
- a claim citing two nodes joined by an edge states that relation, so it rests on the edge's own
  evidence: one quote of such an edge must ground both nodes, and the PRD cites that quote;
- a user story cites a segment that has a job and a feature that supports it, an acceptance
  criterion a feature and a pain it solves (`structure_reasons`), whoever wrote it.
  Quotes of the two nodes from elsewhere show each node, not the relation between them.

The quotes chosen for each node (its anchors) travel with the checked claim, so the citations
the PRD shows are the very quotes the check accepted. A relation's quote is shown once, under
the first of its nodes; the other node shows its own quote from the same message when that one
names it (a shorter quote to read), else the relation's quote too. A claim that rests only on
nodes below HYPOTHESIS_BELOW is kept as a hypothesis, never as a fact.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

from artifacts.prompts.prd_templates import EDGE_TEMPLATES, NODE_TEMPLATES, STORY_TEMPLATES
from kg.language import content_lemmas
from kg.language.lemmas import part_lemmas, said_lemmas
from kg.read_models import (
    ArtifactContext,
    ContextEdge,
    ContextNode,
    EvidenceView,
    claim_supported,
    normalise,
    numbers_in,
    numbers_missing,
    quantities_missing,
)

HYPOTHESIS_BELOW = 70
MAX_CLAIM_CHARS = 800


@lru_cache(maxsize=50_000)
def _name_lemmas(text: str) -> frozenset[str]:
    return part_lemmas(text)


@lru_cache(maxsize=50_000)
def _quote_lemmas(text: str) -> frozenset[str]:
    return said_lemmas(text)


def names_grounded(names: Iterable[str], quote: str) -> bool:
    """Whether a quote names a node, given the node's label and aliases.

    A name is grounded when at least half of its content lemmas, and at least one, are among
    the quote's content lemmas: content lemmas are the dictionary forms of the meaningful words
    (kg.language.content_lemmas — no function words, no bare numbers), so "the app lagged"
    grounds "App lags" and "Администраторы салонов" grounds "Администратор салона". Words
    joined by a hyphen count apart too ("B2B-рынок" names "B2B"). A name without a content
    lemma ("24/7") must appear in the quote as written, ignoring case. The node is grounded
    when its label or one of its aliases is. Lemma overlap finds a name its quote does not
    contain; it cannot tell that the quote's words mean something else.
    """
    quote_lemmas = _quote_lemmas(quote)
    for name in names:
        wanted = _name_lemmas(name)
        if wanted:
            shared = len(wanted & quote_lemmas)
            if shared >= 1 and 2 * shared >= len(wanted):
                return True
        else:
            plain = normalise(name).casefold()
            if plain and plain in normalise(quote).casefold():
                return True
    return False


@lru_cache(maxsize=1)
def template_words() -> frozenset[str]:
    """The content lemmas the offline writer's templates add around labels ("Requirement",
    "experiences the pain"): structure, not claims a quote must make."""
    texts = [
        re.sub(r"\{\w\}", " ", text)
        for templates in (
            *NODE_TEMPLATES.values(),
            *EDGE_TEMPLATES.values(),
            *STORY_TEMPLATES.values(),
        )
        for text in templates.values()
    ]
    return frozenset().union(*(content_lemmas(t) for t in texts))


def node_grounded(node: ContextNode, quote: str) -> bool:
    return names_grounded([node.label, *node.aliases], quote)


def evidence_order(evidence: Iterable[EvidenceView]) -> list[EvidenceView]:
    return sorted(evidence, key=lambda e: (e.date, e.episode_number, e.start))


@dataclass(frozen=True)
class Relation:
    """A context edge with the evidence the PRD can cite for it (episode, date, span)."""

    edge: ContextEdge
    evidence: tuple[EvidenceView, ...]


@dataclass(frozen=True)
class ContextIndex:
    """The context's nodes by number, and its edges by the pair of node numbers they join."""

    nodes: dict[int, ContextNode]
    as_of: str | None
    relations: dict[frozenset[int], tuple[Relation, ...]] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        context: ArtifactContext,
        edge_evidence: Mapping[str, Sequence[EvidenceView]] | None = None,
    ) -> ContextIndex:
        """`edge_evidence` by edge uid: the context carries only the edges' quote texts, and a
        citation needs the episode. An edge without evidence given cannot back a claim."""
        given = edge_evidence or {}
        relations: dict[frozenset[int], list[Relation]] = {}
        for edge in sorted(context.edges, key=lambda e: (e.source, e.relation, e.target)):
            if edge.source == edge.target:
                continue
            relation = Relation(edge, tuple(evidence_order(given.get(edge.uid, ()))))
            relations.setdefault(frozenset((edge.source, edge.target)), []).append(relation)
        return cls(
            nodes={n.number: n for n in context.nodes},
            as_of=context.as_of,
            relations={pair: tuple(found) for pair, found in relations.items()},
        )

    def valid(self, node: ContextNode) -> bool:
        """Valid at the moment the context describes (now, or its as_of)."""
        if node.invalid_at is None:
            return True
        return self.as_of is not None and node.invalid_at > self.as_of

    def between(self, a: int, b: int) -> tuple[Relation, ...]:
        return self.relations.get(frozenset((a, b)), ())


@dataclass(frozen=True)
class Draft:
    """A claim as the writer proposed it."""

    section: str
    text: str
    nodes: tuple[int, ...]


@dataclass(frozen=True)
class CheckedClaim:
    section: str
    text: str
    nodes: tuple[int, ...]  # deduplicated, in the writer's order
    kind: str  # fact | hypothesis
    # The quotes each node is grounded in: the PRD cites them first for that node.
    anchors: Mapping[int, tuple[EvidenceView, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class FailedClaim:
    draft: Draft
    reasons: tuple[str, ...]

    @property
    def reason(self) -> str:
        return "; ".join(self.reasons)


def uncovered_numbers(text: str, quotes: list[str]) -> list[str]:
    """Quantities in the text (number, scale and unit) that no single quote states."""
    return list(dict.fromkeys(q.written for q in quantities_missing(text, quotes)))


def _named(node: ContextNode) -> str:
    return f"node #{node.number} '{node.label}'"


def _relation_anchor(
    a: ContextNode, b: ContextNode, relations: tuple[Relation, ...]
) -> EvidenceView | str:
    """The first quote of an edge between a and b that names both, else why there is none."""
    best: tuple[int, Relation, EvidenceView] | None = None
    for relation in relations:
        for evidence in relation.evidence:
            hits = node_grounded(a, evidence.quote) + node_grounded(b, evidence.quote)
            if hits == 2:
                return evidence
            if best is None or hits > best[0]:
                best = (hits, relation, evidence)
    if best is None:
        edge = relations[0].edge
        return (
            f"the relation #{edge.source} {edge.relation} #{edge.target} has no quote to cite: "
            "write the two nodes in separate claims"
        )
    _, relation, evidence = best
    edge = relation.edge
    missing = [n for n in (a, b) if not node_grounded(n, evidence.quote)]
    where = f"the quote of its relation #{edge.source} {edge.relation} #{edge.target}"
    return "; ".join(f"{_named(n)} not in its cited quote ({where})" for n in missing)


def _own_anchor(node: ContextNode, text: str) -> EvidenceView | None:
    """The node's own quote that names it, holding most of the claim's numbers; else None."""
    grounded = [e for e in evidence_order(node.evidence) if node_grounded(node, e.quote)]
    if not grounded:
        return None
    wanted = numbers_in(text)

    def held(e: EvidenceView) -> int:
        return len(wanted) - len(numbers_missing(text, e.quote)) if wanted else 0

    return max(grounded, key=held)  # max keeps the earliest of equals


def _own_in_episode(node: ContextNode, relation_quote: EvidenceView) -> EvidenceView | None:
    """The node's own quote from the relation quote's message, when it names the node."""
    for e in evidence_order(node.evidence):
        if e.episode_uid == relation_quote.episode_uid and node_grounded(node, e.quote):
            return e
    return None


def ground(
    text: str, cited: list[ContextNode], index: ContextIndex
) -> tuple[dict[int, tuple[EvidenceView, ...]], list[str]]:
    """Each cited node's anchor quotes, and the reasons for the nodes that have none."""
    anchors: dict[int, list[EvidenceView]] = {}
    reasons: list[str] = []
    related: set[int] = set()
    for a, b in combinations(cited, 2):
        relations = index.between(a.number, b.number)
        if not relations:
            continue
        related |= {a.number, b.number}
        found = _relation_anchor(a, b, relations)
        if isinstance(found, str):
            reasons.append(found)
            continue
        if not any(found in shown for shown in anchors.values()):
            anchors.setdefault(a.number, []).append(found)
        for node in (a, b):
            if node.number not in anchors:
                anchors[node.number] = [_own_in_episode(node, found) or found]
    for node in cited:
        if node.number in anchors or node.number in related:
            continue  # a failed relation already says which of its nodes its quote lacks
        own = _own_anchor(node, text)
        if own is None:
            reasons.append(f"{_named(node)} not in its cited quote")
        else:
            anchors[node.number] = [own]
    return {n: tuple(found) for n, found in anchors.items()}, reasons


def _has(index: ContextIndex, relation: str, source: ContextNode, target: ContextNode) -> bool:
    return any(
        r.edge.relation == relation and r.edge.source == source.number and r.evidence
        for r in index.between(source.number, target.number)
    )


def structure_reasons(section: str, cited: list[ContextNode], index: ContextIndex) -> list[str]:
    """What a user story or an acceptance criterion lacks: a story cites a segment, a feature
    and a job, the segment having the job and the feature supporting it; a criterion cites a
    feature and a pain it solves. Other sections have no such rule."""
    of = {t: [n for n in cited if n.type == t] for t in ("segment", "feature", "job", "pain")}
    if section == "user_stories":
        grounded = any(
            _has(index, "has_job", s, j) and _has(index, "supports", f, j)
            for s in of["segment"]
            for f in of["feature"]
            for j in of["job"]
        )
        if not grounded:
            return [
                "a user story cites a segment that has the job and a feature that supports it "
                "(both relations in the research)"
            ]
    solved = any(_has(index, "solves", f, p) for f in of["feature"] for p in of["pain"])
    if section == "acceptance" and not solved:
        return ["an acceptance criterion cites a feature and a pain it solves"]
    return []


def check_claim(draft: Draft, index: ContextIndex) -> CheckedClaim | FailedClaim:
    reasons: list[str] = []
    text = " ".join(draft.text.split())
    nodes = tuple(dict.fromkeys(draft.nodes))
    if not text:
        reasons.append("the claim is empty")
    elif len(text) > MAX_CLAIM_CHARS:
        reasons.append(f"the claim is longer than {MAX_CLAIM_CHARS} characters; split it")
    if not nodes:
        reasons.append("the claim cites no node: every sentence must cite the nodes it rests on")
    cited: list[ContextNode] = []
    for number in nodes:
        node = index.nodes.get(number)
        if node is None:
            reasons.append(f"node #{number} is not in the context: cite only the listed numbers")
        elif not index.valid(node):
            reasons.append(f"node #{number} is no longer valid: do not cite it")
        else:
            cited.append(node)
    anchors: dict[int, tuple[EvidenceView, ...]] = {}
    if text and cited:
        anchors, ungrounded = ground(text, cited, index)
        # A relation's quote is cited too, so its numbers count as quoted.
        quotes = [e.quote for n in cited for e in n.evidence]
        quotes += [e.quote for found in anchors.values() for e in found]
        missing = uncovered_numbers(text, quotes)
        if missing:
            listed = ", ".join(missing)
            reasons.append(
                f"the number(s) {listed} appear in no quote of the cited nodes: write only "
                "numbers that the quotes contain, and no node numbers in the text"
            )
        reasons.extend(ungrounded)
        reasons.extend(structure_reasons(draft.section, cited, index))
        sources = [w for n in cited for w in (n.label, *n.aliases)]
        sources += [e.quote for found in anchors.values() for e in found]  # what the PRD cites
        if not ungrounded and not claim_supported(text, sources, ignore=template_words()):
            reasons.append(
                "the sentence says more than its quotes: write only what the cited quotes state"
            )
    if reasons:
        return FailedClaim(draft=draft, reasons=tuple(reasons))
    kind = "hypothesis" if all(n.confidence < HYPOTHESIS_BELOW for n in cited) else "fact"
    return CheckedClaim(section=draft.section, text=text, nodes=nodes, kind=kind, anchors=anchors)


def claim_key(section: str, text: str) -> tuple[str, str]:
    """Two claims with this key are the same claim (for deduplication)."""
    return section, normalise(text).lower()
