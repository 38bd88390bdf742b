"""Organization memory services: promotion across projects, visibility, project context.

Promotion (DESIGN §3 step 8): for each promoted node type, the active nodes of every project
of one organization are clustered with the same ladder the pipeline uses inside a project
(kg.pipeline.resolve: exact key/alias → rapidfuzz above MERGE_AT → the same meaning by the
sentence encoder → model confirmation only in the uncertain band); a node is compared with the
other projects' nodes that share a word with it and those nearest in meaning. A cluster that
two or more projects found independently (each in messages of its own, told by their
content: see independent_projects) is an OrgInsight, with one InsightSource per supporting
project node. When fewer than two projects still hold a valid supporting node (so found), the
insight is demoted (inactive), its sources are kept.

Existing insights seed the clustering with their still-valid source nodes, so an insight keeps
its identity from run to run and a new project's node joins it rather than forming a twin.
Model answers are recorded and replayed by the gateway, so a second run with the same graph
asks nothing new and changes nothing (promotion is idempotent).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import itertools
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import redis
from django.db import transaction
from django.db.models import Count, Prefetch, Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from pydantic import BaseModel, Field, computed_field

from kg import read_models
from kg.commands import (
    Mention,
    NodeBlocks,
    lock_redis,
    named_lock,
    namespaced_key,
    node_key,
    queue_task,
    resolve_candidate,
)
from kg.llm import LLMOutputError, call_llm
from kg.llm.prompts import resolution
from kg.models import Organization, Project
from kg.read_models import NodeRecord, NodeReference, OrgInsightNote
from kg.tenancy import OrgNotFound, is_member, projects_for_user
from orgmemory.models import InsightSource, InsightStatus, OrgInsight

logger = logging.getLogger("groundwork.orgmemory")

PROMOTED_TYPES: tuple[str, ...] = (
    "pain",
    "job",
    "insight",
    "segment",
    "competitor",
    "alternative",
    "feature",
    "trigger",
    "risk",
    "goal",
)
MIN_PROJECTS = 2

# Org confidence, deterministic (never from the model):
#   base       70 for two projects, +5 for each further project
#   node bonus (average of each project's strongest supporting node's confidence − 65) / 2.5,
#              rounded, between 0 and 10: single mentions (65) add 0, corroborated (80) add 6,
#              well corroborated (90) add 10
#   ceiling    95: cross-project agreement is strong evidence, never certainty
BASE_TWO_PROJECTS = 70
PER_EXTRA_PROJECT = 5
NODE_BASELINE = 65
NODE_BONUS_STEP = 2.5
NODE_BONUS_MAX = 10
CEILING = 95

LOCK_TIMEOUT_SECONDS = 600
# Debounce: a burst of episodes (an import) queues one promotion per organization, not one per
# episode. The flag is cleared when the task starts, so later changes queue a fresh run.
PROMOTION_DELAY_SECONDS = 15
PENDING_TTL_SECONDS = 600


# ---------------------------------------------------------------------------------------------
# Promotion


class PromotionReport(BaseModel):
    organization: str
    created: list[int] = Field(default_factory=list)
    updated: list[int] = Field(default_factory=list)
    deactivated: list[int] = Field(default_factory=list)
    reactivated: list[int] = Field(default_factory=list)
    unchanged: int = 0
    confirmations: int = 0  # model confirmations asked (recorded answers replayed included)

    @property
    def changed(self) -> bool:
        return bool(self.created or self.updated or self.deactivated or self.reactivated)


@dataclass(frozen=True)
class _Member:
    project: Project
    node: NodeRecord

    @property
    def ref(self) -> tuple[int, str]:
        return (self.project.pk, self.node.uid)


@dataclass
class _Cluster:
    insight: OrgInsight | None
    members: list[_Member] = field(default_factory=list)

    @property
    def project_slugs(self) -> list[str]:
        return sorted({m.project.slug for m in self.members})


def insight_confidence(project_confidences: list[int]) -> int:
    """Org confidence from each supporting project's strongest node (see the table above)."""
    count = len(project_confidences)
    if count < MIN_PROJECTS:
        return 0
    base = BASE_TWO_PROJECTS + PER_EXTRA_PROJECT * (count - MIN_PROJECTS)
    average = sum(project_confidences) / count
    bonus = max(0, min(NODE_BONUS_MAX, round((average - NODE_BASELINE) / NODE_BONUS_STEP)))
    return min(CEILING, base + bonus)


def promote_for_org(org: Organization) -> PromotionReport:
    """Create, update, demote and reactivate the organization's insights; idempotent."""
    report = PromotionReport(organization=org.slug)
    projects = list(Project.objects.filter(organization=org).select_related("organization"))
    with _org_lock(org.pk):
        for node_type in PROMOTED_TYPES:
            _promote_type(org, projects, node_type, report)
    return report


def promote_org_by_id(org_id: int) -> PromotionReport | None:
    """The task's entry: clear the pending flag first, so changes from now on queue a new run."""
    with contextlib.suppress(redis.exceptions.RedisError):
        _redis().delete(_pending_key(org_id))
    org = Organization.objects.filter(pk=org_id).first()
    return promote_for_org(org) if org is not None else None


def _promote_type(
    org: Organization, projects: list[Project], node_type: str, report: PromotionReport
) -> None:
    by_key = {p.graph_key: p for p in projects}  # the graph names projects by their key
    members = [
        _Member(by_key[key], node)
        for key, node in read_models.org_nodes_of_type(org.slug, list(by_key), node_type)
        if key in by_key and node.invalid_at is None
    ]
    insights = list(
        OrgInsight.objects.filter(organization=org, node_type=node_type)
        .prefetch_related(
            Prefetch("sources", queryset=InsightSource.objects.select_related("project"))
        )
        .order_by("id")
    )
    if not insights and len({m.project.pk for m in members}) < MIN_PROJECTS:
        return  # nothing to promote and nothing to demote: skip the clustering

    def confirm_for(project: Project) -> Callable[[Mention, NodeRecord], bool]:
        return lambda mention, node: _confirm(project, mention, node, report)

    now = timezone.now()
    for cluster in _cluster(members, insights, confirm_for):
        _apply(org, node_type, cluster, now, report)


def _cluster(
    members: list[_Member],
    insights: list[OrgInsight],
    confirm_for: Callable[[Project], Callable[[Mention, NodeRecord], bool]],
) -> list[_Cluster]:
    """Group the nodes of one type across projects; deterministic for a given graph."""
    unplaced = {m.ref: m for m in members}
    clusters: list[_Cluster] = []
    for insight in insights:  # seeds: an insight keeps the valid nodes it already rests on
        seeded = [
            unplaced.pop(ref)
            for ref in sorted(
                (s.project_id, s.node_uid)
                for s in insight.sources.all()
                if (s.project_id, s.node_uid) in unplaced
            )
        ]
        clusters.append(_Cluster(insight, seeded))
    # Identity, not uid: uids are unique per project only.
    owner: dict[int, _Cluster] = {id(m.node): c for c in clusters for m in c.members}
    # Each node is compared with the few placed nodes it could be (the pipeline's blocking),
    # not with every one: the cost grows with the nodes, not with their square.
    placed = NodeBlocks(by_meaning=True)  # and by meaning: other words, other languages
    for cluster in clusters:
        for m in cluster.members:
            placed.add(m.node, m.project.pk)

    for member in sorted(unplaced.values(), key=lambda m: (m.project.slug, m.node.number)):
        # Nodes of the member's own project are left out: its pipeline already decided they are
        # different things, and promotion must not overrule that.
        candidates = placed.candidates(member.node, other_than=member.project.pk)
        match = _resolve(member, candidates, confirm_for(member.project))
        if match is None:
            cluster = _Cluster(None, [member])
            clusters.append(cluster)
        else:
            cluster = owner[id(match)]
            cluster.members.append(member)
        owner[id(member.node)] = cluster
        placed.add(member.node, member.project.pk)
    return clusters


def _resolve(
    member: _Member, candidates: list[NodeRecord], confirm: Callable[[Mention, NodeRecord], bool]
) -> NodeRecord | None:
    """The ladder on the node's label; then its aliases, by key and fuzzy merge only.

    Aliases do not go to the model: one confirmation per node keeps the cost bounded, and an
    alias close enough to merge without the model is already strong evidence.
    """
    node = member.node
    quote = node.evidence[0].quote if node.evidence else node.label
    decision = resolve_candidate(
        Mention(node.type, node.label, quote, node.stance, node.value), candidates, confirm
    )
    if decision.node is not None:
        return decision.node
    for alias in node.aliases:
        decision = resolve_candidate(
            Mention(node.type, alias, quote, node.stance, node.value),
            candidates,
            lambda _m, _n: False,
        )
        if decision.node is not None:
            return decision.node
    return None


def _confirm(project: Project, mention: Mention, node: NodeRecord, report: PromotionReport) -> bool:
    request = resolution.ResolutionRequest.about(mention, node, project.language)
    report.confirmations += 1
    try:
        # No project on the recorded call: the prompt quotes two projects, and a per-project
        # view of model calls must not show another project's words.
        return call_llm(resolution.OPERATION, request).value.same
    except LLMOutputError as exc:
        logger.warning("org promotion: unusable confirmation answer, kept apart: %s", exc)
        return False


def _apply(
    org: Organization,
    node_type: str,
    cluster: _Cluster,
    now: dt.datetime,
    report: PromotionReport,
) -> None:
    slugs = cluster.project_slugs
    insight = cluster.insight
    independent = independent_projects(cluster.members)
    if insight is None:
        if len(independent) >= MIN_PROJECTS:
            report.created.append(_create(org, node_type, cluster, independent, now).pk)
        return
    with transaction.atomic():
        touched, lost = _sync_sources(insight, cluster.members)
        changed = touched or bool(lost)
        event = ""
        if len(independent) >= MIN_PROJECTS:
            label, confidence = _summary(cluster.members, independent)
            if insight.status != InsightStatus.ACTIVE:
                insight.status = InsightStatus.ACTIVE
                insight.deactivated_at = None
                event = "reactivated"
                insight.history = [
                    *insight.history,
                    _history(
                        now, InsightStatus.ACTIVE, event, slugs, f"held by {len(slugs)} projects"
                    ),
                ]
            if (insight.label, insight.confidence) != (label, confidence):
                insight.label, insight.key, insight.confidence = label, node_key(label), confidence
                changed = True
        elif insight.status == InsightStatus.ACTIVE:
            insight.status = InsightStatus.INACTIVE
            insight.deactivated_at = now
            event = "demoted"
            insight.history = [
                *insight.history,
                _history(
                    now,
                    InsightStatus.INACTIVE,
                    event,
                    slugs,
                    _demotion_reason(slugs, lost, len(independent)),
                ),
            ]
        if event or changed:
            insight.save()
    if event == "reactivated":
        report.reactivated.append(insight.pk)
    elif event == "demoted":
        report.deactivated.append(insight.pk)
    elif changed:
        report.updated.append(insight.pk)
    else:
        report.unchanged += 1


def independent_projects(members: list[_Member]) -> set[int]:
    """The projects that found it independently of each other, by the messages behind their
    evidence told by their content (SHA-256): the same file imported into two projects is one
    source, not two findings.

    The largest group of the projects in which each holds a message that none of the others
    in the group holds. A project whose evidence is only copies of another's messages (the
    same export imported into both) adds nothing; two projects that share a file but each
    have words of their own count as two; identical evidence counts once, however many
    messages it has."""
    said: dict[int, set[str]] = {}
    for m in members:
        said.setdefault(m.project.pk, set()).update(e.episode_uid for e in m.node.evidence)
    if len(said) < MIN_PROJECTS:
        return set(said)
    hashes = {
        project: frozenset(read_models.content_hashes(project, uids))
        for project, uids in sorted(said.items())
    }
    return largest_independent_group(hashes)


# Up to this many projects with distinct evidence the largest group is searched for; beyond,
# it is built greedily (smallest evidence first), which may find a smaller group.
EXACT_GROUP_SEARCH = 12


def largest_independent_group(hashes: dict[int, frozenset[str]]) -> set[int]:
    by_evidence: dict[frozenset[str], int] = {}
    for project, held in hashes.items():  # the same messages count once: the first project
        by_evidence.setdefault(held, project)
    candidates = sorted(by_evidence.items(), key=lambda item: (len(item[0]), item[1]))
    if len(candidates) <= EXACT_GROUP_SEARCH:
        for size in range(len(candidates), 1, -1):
            for group in itertools.combinations(candidates, size):
                if _each_has_its_own(group):
                    return {project for _held, project in group}
        return {candidates[0][1]}
    group: list[tuple[frozenset[str], int]] = []
    for candidate in candidates:
        if _each_has_its_own([*group, candidate]):
            group.append(candidate)
    return {project for _held, project in group}


def _each_has_its_own(group: Sequence[tuple[frozenset[str], int]]) -> bool:
    """Every project of the group holds a message no other project of the group holds."""
    for place, (held, _project) in enumerate(group):
        others = set().union(*(h for at, (h, _p) in enumerate(group) if at != place))
        if held <= others:
            return False
    return True


def _create(
    org: Organization, node_type: str, cluster: _Cluster, independent: set[int], now: dt.datetime
) -> OrgInsight:
    label, confidence = _summary(cluster.members, independent)
    slugs = cluster.project_slugs
    with transaction.atomic():
        insight = OrgInsight.objects.create(
            organization=org,
            node_type=node_type,
            label=label,
            key=node_key(label),
            confidence=confidence,
            status=InsightStatus.ACTIVE,
            history=[_history(now, InsightStatus.ACTIVE, "promoted", slugs, "")],
        )
        InsightSource.objects.bulk_create(
            [
                InsightSource(insight=insight, project=m.project, **_source_values(m))
                for m in cluster.members
            ]
        )
    return insight


def _summary(members: list[_Member], independent: set[int]) -> tuple[str, int]:
    """The label of the best-evidenced node, and the org confidence from the projects that
    found it independently (a project holding only copies of their messages adds none)."""
    best = min(
        members,
        key=lambda m: (
            -m.node.confidence,
            -len(m.node.episode_uids),
            m.project.slug,
            m.node.number,
        ),
    )
    strongest: dict[int, int] = {}
    for m in members:
        if m.project.pk in independent:
            strongest[m.project.pk] = max(strongest.get(m.project.pk, 0), m.node.confidence)
    return best.node.label, insight_confidence(sorted(strongest.values()))


def _source_values(member: _Member) -> dict:
    node = member.node
    return {
        "node_uid": node.uid,
        "node_number": node.number,
        "node_label": node.label[:500],
        "node_confidence": node.confidence,
        "evidence": [
            {
                "episode_number": e.episode_number,
                "episode_uid": e.episode_uid,
                "quote": e.quote,
                "valid_at": e.valid_at,
            }
            for e in node.evidence
        ],
        "active": True,
    }


def _sync_sources(insight: OrgInsight, members: list[_Member]) -> tuple[bool, list[InsightSource]]:
    """Write only what changed (so a rerun saves nothing): (touched, sources no longer valid)."""
    existing = {(s.project_id, s.node_uid): s for s in insight.sources.all()}
    touched = False
    for member in members:
        values = _source_values(member)
        source = existing.get(member.ref)
        if source is None:
            InsightSource.objects.create(insight=insight, project=member.project, **values)
            touched = True
        elif any(getattr(source, k) != v for k, v in values.items()):
            for k, v in values.items():
                setattr(source, k, v)
            source.save()
            touched = True
    present = {m.ref for m in members}
    lost = []
    for ref, source in existing.items():
        if ref not in present and source.active:
            source.active = False
            source.save(update_fields=["active", "updated_at"])
            lost.append(source)
    return touched, lost


def _history(now: dt.datetime, status: str, event: str, projects: list[str], reason: str) -> dict:
    return {
        "at": now.isoformat(),
        "status": str(status),
        "event": event,
        "projects": projects,
        "reason": reason,
    }


def _demotion_reason(slugs: list[str], lost: list[InsightSource], independent: int) -> str:
    gone = ", ".join(f"{s.project.slug} #{s.node_number}" for s in lost) or "none"
    held = ", ".join(slugs) or "no project"
    reason = f"supporting nodes no longer valid: {gone}; still held by: {held}"
    if len(slugs) >= MIN_PROJECTS and independent < MIN_PROJECTS:
        reason += " (in the same messages: one source, not found independently)"
    return reason


# ---------------------------------------------------------------------------------------------
# Queueing


def _redis() -> redis.Redis:
    return lock_redis()


def _pending_key(org_id: int) -> str:
    return namespaced_key(f"org-promotion-pending:{org_id}")


def _org_lock(org_id: int) -> contextlib.AbstractContextManager[None]:
    """One promotion per organization at a time, so two runs cannot create twin insights."""
    return named_lock(f"org-promotion-lock:{org_id}", LOCK_TIMEOUT_SECONDS)


def _promotable_orgs() -> QuerySet[Organization]:
    """Organizations where promotion can change something: two projects, or insights to demote."""
    return Organization.objects.annotate(
        project_count=Count("projects", distinct=True),
        insight_count=Count("org_insights", distinct=True),
    ).filter(Q(project_count__gte=MIN_PROJECTS) | Q(insight_count__gt=0))


def queue_promotion(org_id: int) -> bool:
    """Queue promote_org once per burst of changes; False when nothing was queued."""
    if not _promotable_orgs().filter(pk=org_id).exists():
        return False
    client = _redis()
    if not client.set(_pending_key(org_id), "1", nx=True, ex=PENDING_TTL_SECONDS):
        return False  # a run is already queued and has not started yet: it will see this change
    try:
        queue_task("orgmemory.promote_org", [org_id], countdown=PROMOTION_DELAY_SECONDS)
    except Exception:
        client.delete(_pending_key(org_id))  # let the next change (or the sweep) try again
        raise
    return True


def on_project_graph_changed(project_id: int) -> None:
    """Queue the organization's promotion once the current transaction commits.

    robust: a broker outage must never fail the episode pipeline; the hourly sweep catches up.
    """
    org_id = Project.objects.filter(pk=project_id).values_list("organization_id", flat=True).first()
    if org_id is not None:
        transaction.on_commit(functools.partial(queue_promotion, org_id), robust=True)


def sweep_all() -> int:
    """Queue promotion for every organization where it can change something."""
    return sum(
        queue_promotion(org_id) for org_id in _promotable_orgs().values_list("pk", flat=True)
    )


# ---------------------------------------------------------------------------------------------
# Visibility


class OrgInsightNotFound(LookupError):
    pass


class EvidenceQuote(BaseModel):
    episode_number: int
    episode_uid: str
    quote: str
    valid_at: str


class SourceView(BaseModel):
    project_slug: str
    project_name: str
    accessible: bool  # False: the reader may not open this project, so no node and no quotes
    active: bool
    node_number: int | None = None
    node_label: str | None = None
    node_confidence: int | None = None
    evidence: list[EvidenceQuote] = Field(default_factory=list)
    hidden_quotes: int = 0


class HistoryEntry(BaseModel):
    at: str
    status: str
    event: str
    projects: list[str] = Field(default_factory=list)
    reason: str = ""


class OrgInsightView(BaseModel):
    id: int
    organization: str
    node_type: str
    label: str
    confidence: int
    status: str
    created_at: dt.datetime
    updated_at: dt.datetime
    deactivated_at: dt.datetime | None = None
    project_count: int  # projects with a currently valid supporting node
    sources: list[SourceView]
    history: list[HistoryEntry]


def find_org(slug: str) -> Organization:
    try:
        return Organization.objects.get(slug=slug)
    except Organization.DoesNotExist:
        raise OrgNotFound(f"organization {slug!r} does not exist") from None


def accessible_project_ids(
    user, org: Organization, accessible_projects: Iterable[Project] | None = None
) -> set[int]:
    """Projects of the org whose evidence the user may read.

    Goes through kg.tenancy.projects_for_user, so project-level access, once it exists, applies
    here unchanged. An explicit `accessible_projects` can only narrow that set, never widen it.
    """
    ids = set(projects_for_user(user).filter(organization=org).values_list("pk", flat=True))
    if accessible_projects is not None:
        ids &= {p.pk for p in accessible_projects}
    return ids


def org_insights(org: Organization, status: str | None = None) -> QuerySet[OrgInsight]:
    """The org's insights, active first, strongest first, with their sources loaded."""
    insights = OrgInsight.objects.filter(organization=org)
    if status:
        insights = insights.filter(status=status)
    return (
        insights.select_related("organization")
        .prefetch_related(
            Prefetch("sources", queryset=InsightSource.objects.select_related("project"))
        )
        .order_by("status", "-confidence", "id")
    )


def describe_insights(
    insights: Iterable[OrgInsight], readable_project_ids: set[int]
) -> list[OrgInsightView]:
    return [_view(insight, readable_project_ids) for insight in insights]


def insights_for_user(
    user,
    org: Organization,
    *,
    status: str | None = None,
    accessible_projects: Iterable[Project] | None = None,
) -> list[OrgInsightView]:
    """Members see the org's insights; quotes only from projects they may open."""
    if not is_member(user, org):
        return []
    readable = accessible_project_ids(user, org, accessible_projects)
    return describe_insights(org_insights(org, status), readable)


def insight_for_user(
    user,
    org: Organization,
    insight_id: int,
    *,
    accessible_projects: Iterable[Project] | None = None,
) -> OrgInsightView:
    if not is_member(user, org):
        raise OrgInsightNotFound(f"insight {insight_id} not found")
    insight = org_insights(org).filter(pk=insight_id).first()
    if insight is None:
        raise OrgInsightNotFound(f"insight {insight_id} not found")
    return _view(insight, accessible_project_ids(user, org, accessible_projects))


def _view(insight: OrgInsight, readable: set[int]) -> OrgInsightView:
    sources = sorted(insight.sources.all(), key=lambda s: (s.project.slug, s.node_number))
    return OrgInsightView(
        id=insight.pk,
        organization=insight.organization.slug,
        node_type=insight.node_type,
        label=insight.label,
        confidence=insight.confidence,
        status=insight.status,
        created_at=insight.created_at,
        updated_at=insight.updated_at,
        deactivated_at=insight.deactivated_at,
        project_count=len({s.project_id for s in sources if s.active}),
        sources=[_source_view(s, s.project_id in readable) for s in sources],
        history=[HistoryEntry.model_validate(h) for h in insight.history],
    )


def _source_view(source: InsightSource, readable: bool) -> SourceView:
    project = source.project
    if not readable:
        return SourceView(
            project_slug=project.slug,
            project_name=project.name or project.slug,
            accessible=False,
            active=source.active,
            hidden_quotes=len(source.evidence),
        )
    return SourceView(
        project_slug=project.slug,
        project_name=project.name or project.slug,
        accessible=True,
        active=source.active,
        node_number=source.node_number,
        node_label=source.node_label,
        node_confidence=source.node_confidence,
        evidence=[EvidenceQuote.model_validate(e) for e in source.evidence],
    )


# ---------------------------------------------------------------------------------------------
# Project context


class OrgContextItem(BaseModel):
    """An org insight relevant to one project, for the ContextBuilder, chat panel and PRD."""

    insight_id: int
    node_type: str
    label: str
    confidence: int
    matched_by: Literal["source", "label"]
    local_node_numbers: list[int]  # this project's nodes that carry the insight
    other_projects: list[str]  # names only: their quotes stay behind their own access rules

    @computed_field  # type: ignore[prop-decorator]
    @property
    def note(self) -> str:
        count = len(self.other_projects)
        return f"also seen in {count} other project{'' if count == 1 else 's'}"


def org_context_for_project(
    project: Project, nodes: list[NodeRecord] | None = None
) -> list[OrgContextItem]:
    """Active org insights this project shares: as a source, or by a node with the same label.

    `nodes` are the project's graph nodes when the caller already has them; otherwise they are
    read only if some insight has no source in this project (the label match needs them).
    """
    items: list[OrgContextItem] = []
    for insight in org_insights(project.organization, InsightStatus.ACTIVE):
        live = [s for s in insight.sources.all() if s.active]
        others = sorted(
            {s.project.name or s.project.slug for s in live if s.project_id != project.pk}
        )
        if not others:
            continue
        local = sorted({s.node_number for s in live if s.project_id == project.pk})
        matched_by: Literal["source", "label"] = "source"
        if not local:
            if nodes is None:
                nodes = read_models.list_nodes(project.graph_scope)
            local = _label_matches(insight, live, nodes)
            matched_by = "label"
        if local:
            items.append(
                OrgContextItem(
                    insight_id=insight.pk,
                    node_type=insight.node_type,
                    label=insight.label,
                    confidence=insight.confidence,
                    matched_by=matched_by,
                    local_node_numbers=local,
                    other_projects=others,
                )
            )
    return sorted(items, key=lambda i: (-i.confidence, i.insight_id))


def org_insight_notes(project: Project, nodes: list[NodeRecord]) -> list[OrgInsightNote]:
    """The ContextBuilder's provider (registered in OrgmemoryConfig.ready()): the project's org
    context as kg's notes, with the nodes the context already loaded (no second graph read)."""
    return [
        OrgInsightNote(
            label=item.label,
            node_type=item.node_type,
            confidence=item.confidence,
            local_nodes=item.local_node_numbers,
            other_projects=item.other_projects,
            note=item.note,
        )
        for item in org_context_for_project(project, nodes)
    ]


def _label_matches(
    insight: OrgInsight, live: list[InsightSource], nodes: list[NodeRecord]
) -> list[int]:
    keys = {insight.key} | {node_key(s.node_label) for s in live}
    return sorted(
        n.number
        for n in nodes
        if n.type == insight.node_type
        and n.invalid_at is None
        and (n.key in keys or bool(keys.intersection(n.alias_keys)))
    )


def org_insights_citing_node(
    project: Project, node_uid: str, node_number: int
) -> list[NodeReference]:
    """For kg's admin node page: the org insights this node supports (or once supported)."""
    sources = (
        InsightSource.objects.filter(project=project, node_uid=node_uid)
        .select_related("insight")
        .order_by("insight_id")
    )
    return [
        NodeReference(
            title=f"{s.insight.label} ({s.insight.status}, confidence {s.insight.confidence})",
            url=reverse("admin:orgmemory_orginsight_change", args=[s.insight_id]),
            text=(
                f"{s.insight.node_type} shared across projects"
                + ("" if s.active else "; this node no longer supports it")
            ),
        )
        for s in sources
    ]
