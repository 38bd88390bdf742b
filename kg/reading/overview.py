"""What the research holds now, at a glance (the chat's side panel), read in bounded work, and
the revision that says whether it changed since it was last read.

The overview shows the highest-priority valid nodes of each type (the graph orders and cuts
them), each type's count and the average confidence (the graph's aggregates), the first open
contradictions, the gaps of the nodes shown (a gap only when neither their own edges nor a
node said in the same messages answers it) and the org insights about them. Nothing here
reads every node of a project.

`research_revision` is what a poll compares: the graph's revision counter (bumped by every
write of the graph: pipeline, corrections, answers, rebuilds) with the ledger's latest
message and its count of messages waiting for or failed in the pipeline. Each is an indexed
lookup, so a poll that finds nothing changed costs a few index reads and no graph read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Max, Q

from kg.graph import store
from kg.models import Episode, EpisodeProcessing, ProcessingStatus, Project
from kg.ontology import NODE_TYPES
from kg.pipeline.revision import project_revision
from kg.reading.context import (
    GAP_RULES,
    ContextContradiction,
    ContextEdge,
    ContextNode,
    Gap,
    OrgInsightNote,
    collect_org_insights,
    contradiction_between,
    episodes_by_uid,
    node_view,
    research_gaps,
)

NODES_PER_TYPE = 12
CONTRADICTIONS_SHOWN = 10
# Nodes read beyond those shown to tell a real gap from one answered by a node not shown.
ANSWERERS = 200


@dataclass(frozen=True)
class OverviewGroup:
    type: str
    total: int  # valid nodes of the type; `nodes` are the first of them by priority
    nodes: list[ContextNode]


@dataclass
class ResearchOverview:
    groups: list[OverviewGroup] = field(default_factory=list)
    node_count: int = 0
    average_confidence: float = 0.0
    contradictions: list[ContextContradiction] = field(default_factory=list)
    open_contradictions: int = 0
    gaps: list[Gap] = field(default_factory=list)
    org_insights: list[OrgInsightNote] = field(default_factory=list)


def research_overview(
    project: Project,
    nodes_per_type: int = NODES_PER_TYPE,
    contradictions_shown: int = CONTRADICTIONS_SHOWN,
) -> ResearchOverview:
    scope = project.graph_scope
    overview = ResearchOverview()
    totals = store.node_totals_by_type(scope, NODE_TYPES)
    shown = []
    for node_type in NODE_TYPES:
        count, _ = totals[node_type]
        if count:
            nodes = store.top_nodes_of_type(scope, node_type, nodes_per_type)
            shown.extend(nodes)
            overview.groups.append(OverviewGroup(node_type, count, []))
    overview.node_count = sum(count for count, _ in totals.values())
    confidence = sum(total for _, total in totals.values())
    if overview.node_count:
        overview.average_confidence = round(confidence / overview.node_count, 1)
    episodes = episodes_by_uid(project, (e.episode_uid for n in shown for e in n.evidence))
    views = [node_view(n, episodes) for n in shown]
    for group in overview.groups:
        group.nodes.extend(v for v in views if v.type == group.type)
    overview.gaps = _gaps(project, views, _edges_of(scope, shown), episodes)
    overview.contradictions = [
        contradiction_between(record, a, b, project.language)
        for record, a, b in store.contradiction_page(scope, "open", 0, contradictions_shown)
    ]
    overview.open_contradictions = store.count_contradictions(scope, "open")
    overview.org_insights = collect_org_insights(project, shown)
    return overview


def _gaps(project: Project, views: list[ContextNode], edges, episodes) -> list[Gap]:
    """The gaps of the nodes shown. A question the shown nodes and the edges leave open is
    asked again of the nodes not shown that are said in the same messages as its subject (of
    the types that answer it, at most ANSWERERS): a gap is named only when none answers."""
    gaps = research_gaps(views, edges, project.language)
    if not gaps:
        return gaps
    rules = {rule.rule: rule for rule in GAP_RULES}
    asked = {g.node for g in gaps}
    types = {t for g in gaps for t in rules[g.rule].answer_types}
    found = store.nodes_said_with(
        project.graph_scope, [v.uid for v in views if v.number in asked], types, ANSWERERS
    )
    if not found:
        return gaps
    more = episodes_by_uid(
        project, {e.episode_uid for n in found for e in n.evidence} - set(episodes)
    )
    answerers = [node_view(n, episodes | more) for n in found]
    return research_gaps(views, edges, project.language, answerers)


def _edges_of(scope, nodes) -> list[ContextEdge]:
    """The valid edges at the nodes shown; an end not shown keeps number 0 (a gap asks only
    whether the node shown has such an edge, not what is at its other end)."""
    numbers = {n.uid: n.number for n in nodes}
    return [
        ContextEdge(
            uid=e.uid,
            relation=e.relation,
            source=numbers.get(e.source, 0),
            target=numbers.get(e.target, 0),
            confidence=e.confidence,
            valid_at=e.valid_at,
            invalid_at=e.invalid_at,
        )
        for e in store.edges_of_nodes(scope, numbers)
        if e.invalid_at is None
    ]


def research_revision(project: Project) -> str:
    """Changes whenever what the overview (or the messages waiting for the pipeline) shows
    can change: the graph's revision, the latest message, and how many messages wait for the
    pipeline or failed in it."""
    latest = Episode.objects.filter(project=project).aggregate(n=Max("number"))["n"] or 0
    waiting = EpisodeProcessing.objects.filter(
        episode__project=project,
        status__in=[ProcessingStatus.PENDING, ProcessingStatus.RUNNING, ProcessingStatus.FAILED],
    ).aggregate(
        unfinished=Count("pk", filter=~Q(status=ProcessingStatus.FAILED)),
        failed=Count("pk", filter=Q(status=ProcessingStatus.FAILED)),
    )
    return f"{project_revision(project)}.{latest}.{waiting['unfinished']}.{waiting['failed']}"
