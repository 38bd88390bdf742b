"""What a PRD shows: per section, the items a person should read first, within a length budget.

A project of ten thousand nodes would otherwise give a PRD of ten thousand claims. Each writer
section shows at most `section_budget()` claims (settings.PRD_SECTION_BUDGET, about a dozen),
chosen by priority — confidence, then corroboration (how many distinct episodes support the
node), then recency (the newer node first), then the older number — and says how many more of
its node types the research holds ("and 140 more pains in the research view").

The selection happens in the graph query (kg.graph.store.top_nodes_of_type: ORDER BY … LIMIT),
so generating a PRD reads a bounded number of nodes, their edges and the open contradictions,
never the whole project. Totals come from one count query.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.conf import settings

from artifacts.checks import CheckedClaim, ContextIndex
from artifacts.decisions import Decision, decided_as_of, decisions
from artifacts.models import Section
from artifacts.priorities import Priority, prioritise
from artifacts.prompts.prd_writer import NODE_SECTION
from artifacts.sections import PROBLEM_SENTENCES, WRITER_SECTIONS
from kg import read_models
from kg.models import Project
from kg.read_models import (
    ArtifactContext,
    ContextNode,
    EdgeRecord,
    EvidenceView,
    GraphScope,
    NodeRecord,
    collect_org_insights,
    confidence_from,
    contradiction_view,
    edge_view,
    episodes_by_uid,
    evidence_view,
    graph_time,
    node_view,
    open_at,
    research_gaps,
)

DEFAULT_SECTION_BUDGET = 12
# A requirement the research itself recommends or requests ("Recommendation: …", "we
# recommend …", "agencies should …") is what the research asks to build: in the requirements
# section it comes before items that are only mentioned, however often they are mentioned.
# The section reads this many times its budget from the graph to find them, and twice as many
# each time a full read holds fewer recommended items than the budget (many much-mentioned
# items can outrank every recommendation), up to RECOMMENDED_POOL_MAX times the budget.
RECOMMENDED = re.compile(
    r"\brecommendations?\s*:|\b(?:we|i)\s+(?:would\s+)?(?:recommend|suggest|propose)\b"
    r"|\b(?:should|must|ought\s+to)\b|\brecommended\b"
    r"|(?<!\w)(?:рекомендуем|рекомендация|следует|должн[аыо]?)(?!\w)",
    re.IGNORECASE,
)
RECOMMENDED_SECTIONS = frozenset({"requirements"})
RECOMMENDED_POOL = 4
RECOMMENDED_POOL_MAX = 16

# The node types each writer section speaks for (the problem section summarises top pains too,
# but the pains section is where they are counted).
SECTION_TYPES: dict[str, tuple[str, ...]] = {
    section: tuple(t for t, s in NODE_SECTION.items() if s == section)
    for section in WRITER_SECTIONS
}


def section_budget() -> int:
    """Claims shown per section (and open questions shown): settings.PRD_SECTION_BUDGET."""
    value = int(getattr(settings, "PRD_SECTION_BUDGET", DEFAULT_SECTION_BUDGET))
    if value < 1:
        raise ValueError(f"PRD_SECTION_BUDGET must be at least 1, not {value}")
    return value


def by_priority(nodes: Iterable[ContextNode]) -> list[ContextNode]:
    """Highest confidence first, then most distinct episodes, then newest, then lowest number."""
    ordered = sorted(nodes, key=lambda n: n.number)
    # Stable and reversed together: ties keep the ascending number order of the first sort.
    return sorted(
        ordered, key=lambda n: (n.confidence, len(n.episode_numbers), n.valid_at), reverse=True
    )


def _record_priority(nodes: Iterable[NodeRecord]) -> list[NodeRecord]:
    """The same order for graph records (what the Cypher ORDER BY gives)."""
    ordered = sorted(nodes, key=lambda n: n.number)
    return sorted(
        ordered, key=lambda n: (n.confidence, len(n.episode_uids), n.valid_at), reverse=True
    )


def recommended(node: NodeRecord | ContextNode) -> bool:
    """The research recommends or requests this item: a quote of it says so."""
    return any(RECOMMENDED.search(e.quote) for e in node.evidence)


def _section_priority(section: str, nodes: Iterable[NodeRecord]) -> list[NodeRecord]:
    """Priority order; in the requirements section what the research recommends comes first."""
    ordered = _record_priority(nodes)
    if section not in RECOMMENDED_SECTIONS:
        return ordered
    return sorted(ordered, key=lambda n: not recommended(n))  # stable: priority within each


def _section_pool(
    scope: GraphScope,
    section: str,
    node_type: str,
    budget: int,
    moment: str | None,
    disputes: dict[str, int],
) -> list[NodeRecord]:
    """The top nodes of a type for a section, as they stood at `moment`; for the requirements
    section enough of them to hold a budget of recommended items, within a bounded read."""
    if section not in RECOMMENDED_SECTIONS:
        top = read_models.top_nodes_of_type(scope, node_type, budget, moment)
        return [n for n in (_cut(r, moment, disputes) for r in top) if n.evidence]
    read = budget * RECOMMENDED_POOL
    while True:
        top = read_models.top_nodes_of_type(scope, node_type, read, moment)
        pool = [n for n in (_cut(r, moment, disputes) for r in top) if n.evidence]
        enough = sum(1 for n in pool if recommended(n)) >= budget
        if enough or len(top) < read or read >= budget * RECOMMENDED_POOL_MAX:
            return pool
        read *= 2


def _keep_best_scored(
    nodes: list[ContextNode],
    edges: list[EdgeRecord],
    pool: set[str],
    budget: int,
    disputes: dict[str, int],
) -> set[str]:
    """The uids of `pool` (the requirements section's candidates) that leave the context:
    all but the `budget` best by their priority score (artifacts.priorities), computed on the
    whole context read so far."""
    if len(pool) <= budget:
        return set()
    numbers = {n.uid: n.number for n in nodes}
    among = [edge_view(e, numbers) for e in edges if e.source in numbers and e.target in numbers]
    ranked = prioritise(
        nodes,
        among,
        recommended={n.number for n in nodes if recommended(n)},
        left_out={n.number for n in nodes if n.uid in disputes},
    )
    by_number = {n.number: n.uid for n in nodes}
    best = [by_number[p.node] for p in ranked if by_number[p.node] in pool][:budget]
    return pool - set(best)


@dataclass
class Selection:
    """The bounded context a PRD is written from, and what it leaves out."""

    context: ArtifactContext
    edge_evidence: dict[str, list[EvidenceView]]
    totals: dict[str, int]  # valid nodes per type in the whole project
    hidden_questions: int  # open contradictions and gaps of the shown nodes not listed
    budget: int
    decisions: list[Decision] = field(default_factory=list)  # answered contradictions
    # Context nodes on either side of a contradiction still open (listed or not): the PRD
    # asks about them under open questions and states neither side as a fact.
    disputed: frozenset[int] = frozenset()
    priorities: list[Priority] = field(default_factory=list)  # requirements, best first

    def fingerprint(self) -> dict:
        """What the selection adds to the content hash beyond the context itself."""
        return {
            "totals": dict(sorted(self.totals.items())),
            "hidden_questions": self.hidden_questions,
            "budget": self.budget,
            "decisions": [d.fingerprint() for d in self.decisions],
            "disputed": sorted(self.disputed),
            "priorities": [p.as_report() for p in self.priorities],
        }


def _cut(
    node: NodeRecord, moment: str | None, disputes: dict[str, int] | None = None
) -> NodeRecord:
    """The node as it stood at `moment`: the evidence known then, and the confidence that
    evidence gave (one message at that date is a single source, whatever came later)."""
    if moment is None:
        return node
    evidence = [e for e in node.evidence if e.valid_at <= moment]
    confidence = confidence_from(evidence, (disputes or {}).get(node.uid, 0))
    return node.model_copy(update={"evidence": evidence, "confidence": confidence})


def _cut_edge(edge: EdgeRecord, moment: str | None) -> EdgeRecord:
    if moment is None:
        return edge
    evidence = [e for e in edge.evidence if e.valid_at <= moment]
    return edge.model_copy(update={"evidence": evidence, "confidence": confidence_from(evidence)})


def select_context(
    project: Project, as_of: dt.datetime | None = None, budget: int | None = None
) -> Selection:
    """Read the top nodes of every PRD section from the graph, with what a PRD needs of them:
    their evidence, the edges among them, the gaps about them, the open contradictions (within
    the budget) and the org insights that concern them."""
    budget = section_budget() if budget is None else budget
    scope = project.graph_scope
    moment = graph_time(as_of) if as_of else None
    language = project.language

    every_contradiction = read_models.list_contradictions(scope)
    contradictions = [c for c in every_contradiction if open_at(c, moment)]
    disputes: dict[str, int] = {}
    for c in contradictions:  # each open at the moment (or now)
        for uid in (c.a, c.b):
            disputes[uid] = disputes.get(uid, 0) + 1

    chosen: dict[str, NodeRecord] = {}
    # The requirements section's whole pool comes into the context to be scored; all but its
    # best `budget` by score leave again once the scores are known (see _keep_best_scored).
    scored_pool: set[str] = set()
    for section in WRITER_SECTIONS:
        found: list[NodeRecord] = []
        for node_type in SECTION_TYPES[section]:
            found += _section_pool(scope, section, node_type, budget, moment, disputes)
        if section in RECOMMENDED_SECTIONS:
            scored_pool |= {n.uid for n in found}
            chosen.update((n.uid, n) for n in found)
            continue
        for node in _section_priority(section, found)[:budget]:
            chosen[node.uid] = node
    by_type = read_models.node_totals_by_type(scope, NODE_SECTION, moment)
    totals = {t: count for t, (count, _) in by_type.items()}

    # Newest disagreements first; the ones shown bring their two nodes into the context.
    contradictions.sort(key=lambda c: (c.opened_at, c.uid), reverse=True)
    missing = {u for c in contradictions[:budget] for u in (c.a, c.b)} - set(chosen)
    if missing:
        for node in read_models.nodes_by_uids(scope, sorted(missing)):
            node = _cut(node, moment, disputes)
            if node.valid_as_of(moment) and node.evidence:
                chosen[node.uid] = node
    # What answers decided (newest first): the statement kept comes into the context, to be
    # cited with the answer; the superseded one is only named.
    decided = decided_as_of(every_contradiction, moment)[:budget]
    decided_nodes = {}
    if decided:
        wanted = sorted({u for c in decided for u in (c.kept, c.superseded)})
        decided_nodes = {n.uid: n for n in read_models.nodes_by_uids(scope, wanted)}
        for c in decided:
            node = decided_nodes.get(c.kept)
            if node is not None and node.uid not in chosen:
                node = _cut(node, moment, disputes)
                if node.valid_as_of(moment) and node.evidence:
                    chosen[node.uid] = node

    records = sorted(chosen.values(), key=lambda n: n.number)
    episodes = episodes_by_uid(project, (e.episode_uid for n in records for e in n.evidence))
    nodes = [node_view(n, episodes) for n in records]
    by_uid = {n.uid: n for n in nodes}

    edges = [
        _cut_edge(e, moment)
        for e in read_models.edges_of_nodes(scope, list(by_uid))
        if e.valid_as_of(moment)
    ]
    needed = {u for c in contradictions[:budget] for u in (c.a, c.b)}
    needed |= {c.kept for c in decided}
    dropped = _keep_best_scored(nodes, edges, scored_pool - needed, budget, disputes)
    if dropped:
        records = [n for n in records if n.uid not in dropped]
        nodes = [n for n in nodes if n.uid not in dropped]
        by_uid = {n.uid: n for n in nodes}
        # Only the kept nodes' edges: the far ends of the dropped ones are never read.
        edges = [e for e in edges if e.source in by_uid or e.target in by_uid]
    # The far ends of edges leaving the selection: needed only to know whether a shown node
    # really lacks a link (a gap), so they must be valid nodes with evidence themselves.
    far = sorted({u for e in edges for u in (e.source, e.target)} - set(by_uid))
    neighbours: dict[str, int] = {}
    if far:
        for node in read_models.nodes_by_uids(scope, far):
            if node.valid_as_of(moment) and _cut(node, moment).evidence:
                neighbours[node.uid] = node.number
    numbers = {uid: n.number for uid, n in by_uid.items()} | neighbours
    linking = [edge_view(e, numbers) for e in edges if e.source in numbers and e.target in numbers]
    inner = [e for e in edges if e.source in by_uid and e.target in by_uid]
    context_edges = [edge_view(e, numbers) for e in inner]
    kept_evidence = {
        e.uid: [f for f in e.evidence if moment is None or f.valid_at <= moment] for e in inner
    }
    edge_episodes = episodes_by_uid(
        project, (f.episode_uid for found in kept_evidence.values() for f in found)
    )
    edge_evidence = {
        uid: [evidence_view(f, edge_episodes) for f in found]
        for uid, found in kept_evidence.items()
    }

    shown_contradictions = [
        contradiction_view(c, by_uid, language)
        for c in contradictions[:budget]
        if c.a in by_uid and c.b in by_uid
    ]
    gaps = research_gaps(by_priority(nodes), linking, language)
    room = max(budget - len(shown_contradictions), 0)
    hidden_questions = len(contradictions) - len(shown_contradictions) + max(len(gaps) - room, 0)

    counted = sum(totals.values())
    average = sum(total for _, total in by_type.values()) / counted if counted else 0.0
    org_insights = collect_org_insights(project, records) if moment is None else []
    context = ArtifactContext(
        project=project.slug,
        kind="prd",
        language=language,
        as_of=moment,
        nodes=nodes,
        edges=context_edges,
        gaps=gaps[:room],
        contradictions=shown_contradictions,
        average_confidence=round(average, 1),
        org_insights=org_insights,
    )
    kept = [c for c in decided if c.kept in by_uid]
    disputed = frozenset(by_uid[uid].number for uid in disputes if uid in by_uid)
    priorities = prioritise(
        nodes,
        context_edges,
        recommended={n.number for n in nodes if recommended(n)},
        left_out=disputed,
    )
    return Selection(
        context=context,
        edge_evidence=edge_evidence,
        totals=totals,
        hidden_questions=hidden_questions,
        budget=budget,
        decisions=decisions(project, kept, decided_nodes),
        disputed=disputed,
        priorities=priorities,
    )


# --- after the writer: the budget per section and what is left out ----------------------------


def _claim_rank(claim: CheckedClaim, index: ContextIndex, rank: dict[int, int]) -> int:
    """A claim ranks as its best cited node of its own section's types (else any node)."""
    own = SECTION_TYPES.get(claim.section, ())
    cited = [n for n in claim.nodes if n in index.nodes]
    mine = [n for n in cited if index.nodes[n].type in own] or cited
    return min((rank[n] for n in mine), default=len(rank))


def within_budget(
    claims: Sequence[CheckedClaim],
    index: ContextIndex,
    budget: int,
    priorities: Sequence[Priority] = (),
) -> tuple[list[CheckedClaim], list[CheckedClaim]]:
    """Sections in document order, each by priority (the writer's order among equals), cut at
    the budget. In the requirements section, requirements go by their score (`priorities`,
    artifacts.priorities); without scores, what the research recommends comes first, as when
    the section's nodes were chosen. Returns (kept, cut)."""
    ordered = by_priority(index.nodes.values())
    rank = {n.number: i for i, n in enumerate(ordered)}
    asked_first = sorted(ordered, key=lambda n: not recommended(n))  # stable: priority within
    if priorities:
        scored = {p.node: p.rank for p in priorities}
        asked_first = sorted(asked_first, key=lambda n: scored.get(n.number, len(scored) + 1))
    asked_rank = {n.number: i for i, n in enumerate(asked_first)}
    kept: list[CheckedClaim] = []
    cut: list[CheckedClaim] = []
    for section in WRITER_SECTIONS:
        mine = [c for c in claims if c.section == section]
        order = asked_rank if section in RECOMMENDED_SECTIONS else rank
        mine.sort(key=lambda c: _claim_rank(c, index, order))
        limit = min(budget, PROBLEM_SENTENCES) if section == Section.PROBLEM else budget
        kept += mine[:limit]
        cut += mine[limit:]
    return kept, cut


@dataclass
class LeftOut:
    """Per writer section: how many nodes of each of its types the PRD does not show."""

    sections: dict[str, dict[str, int]] = field(default_factory=dict)
    open_questions: int = 0

    def as_report(self) -> dict:
        return {"sections": self.sections, "open_questions": self.open_questions}


def left_out(
    selection: Selection, index: ContextIndex, kept: Sequence[CheckedClaim], questions: int
) -> LeftOut:
    """Totals minus the nodes of the section's types that a kept claim of the section cites.

    `questions` is how many open questions the PRD lists; the rest of the open contradictions
    and of the gaps about shown nodes are counted as left out."""
    result = LeftOut()
    for section in WRITER_SECTIONS:
        shown: dict[str, set[int]] = {}
        for claim in kept:
            if claim.section != section:
                continue
            for number in claim.nodes:
                node = index.nodes.get(number)
                if node is not None and node.type in SECTION_TYPES[section]:
                    shown.setdefault(node.type, set()).add(number)
        more = {
            t: selection.totals.get(t, 0) - len(shown.get(t, ())) for t in SECTION_TYPES[section]
        }
        more = {t: n for t, n in more.items() if n > 0}
        if more:
            result.sections[section] = more
    listed = len(selection.context.gaps) + len(selection.context.contradictions)
    result.open_questions = selection.hidden_questions + max(listed - questions, 0)
    return result
