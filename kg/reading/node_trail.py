"""The node trail and its neighbours as read models: a project's nodes filtered and paged, one
node's evidence trail (every quote with its message, edges, contradictions, supersessions and
resolution decisions), an episode's part of the graph, and the links to their admin pages.

The admin's graph pages (kg.web.admin_graph) and the research pages (kg.reading.research)
render the same models. Node URLs are built from (project id, node number) only, so other
apps can link to a node without asking the graph: use node_admin_url(project, number).
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass, field

from django.core.paginator import Page, Paginator
from django.urls import reverse
from django.utils.dateparse import parse_datetime
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from kg.graph import EdgeRecord, Evidence, GraphUnavailable, NodeRecord, store
from kg.ledger.sources.reference import source_label
from kg.models import Correction, CorrectionAction, Episode, Project, ResolutionDecision
from kg.ontology import NODE_TYPES
from kg.pipeline.confidence import confidence_from, explain
from kg.pipeline.evidence import locate_quote, normalise
from kg.reading.node_references import NodeReferenceSection, node_reference_sections
from kg.reading.stored_pages import StoredRows

NODES_PER_PAGE = 50

# (value in the query string, label, lowest score, highest score) — inclusive bounds.
CONFIDENCE_BANDS: tuple[tuple[str, str, int, int], ...] = (
    ("lt50", "< 50", 0, 49),
    ("50-69", "50–69", 50, 69),
    ("70-84", "70–84", 70, 84),
    ("85plus", "85+", 85, 100),
)
VALIDITY = (("active", "Active"), ("invalid", "Invalid"))


# --- URLs -------------------------------------------------------------------------------


def node_admin_url(project: Project | int, number: int) -> str:
    """The admin page of node #number of a project: stable, needs no graph lookup."""
    project_id = project if isinstance(project, int) else project.pk
    return reverse("admin:kg_project_node", kwargs={"project_id": project_id, "number": number})


def nodes_admin_url(project: Project | int) -> str:
    project_id = project if isinstance(project, int) else project.pk
    return reverse("admin:kg_project_nodes", kwargs={"project_id": project_id})


def episode_admin_url(episode_id: int) -> str:
    return reverse("admin:kg_episode_change", args=[episode_id])


# --- shared pieces ----------------------------------------------------------------------


@dataclass(frozen=True)
class NodeLink:
    uid: str
    number: int | None
    type: str
    label: str
    valid: bool
    url: str

    @classmethod
    def of(cls, project: Project, node: NodeRecord) -> NodeLink:
        return cls(
            uid=node.uid,
            number=node.number,
            type=node.type,
            label=node.label,
            valid=node.invalid_at is None,
            url=node_admin_url(project, node.number),
        )

    @classmethod
    def unknown(cls, uid: str) -> NodeLink:
        """An edge end the graph did not return (it should not happen; show the uid)."""
        return cls(uid=uid, number=None, type="?", label=uid, valid=False, url="")


def when(value: str | None) -> dt.datetime | None:
    """Graph times are ISO-8601 strings; the templates format datetimes."""
    return parse_datetime(value) if value else None


def highlight(text: str, spans: list[tuple[int, int]]) -> SafeString:
    """The whole text, escaped, with each span wrapped in <mark>. Overlapping or touching
    spans become one mark, so a character is never marked twice and a quote that contains
    another reads as one highlight."""
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        start, end = max(start, 0), min(end, len(text))
        if end <= start:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    pieces: list[tuple[str, str]] = []
    cursor = 0
    for start, end in merged:
        pieces.append((text[cursor:start], text[start:end]))
        cursor = end
    return format_html("{}{}", format_html_join("", "{}<mark>{}</mark>", pieces), text[cursor:])


def quote_span(content: str, evidence: Evidence) -> tuple[tuple[int, int] | None, bool]:
    """Where the quote stands in the episode, and whether the stored offsets were right.

    The offsets are trusted when they still point at the quote (whitespace and quote marks
    normalised, as at write time); otherwise the quote is searched for again, so a wrong
    offset shows up as a warning instead of a misplaced highlight."""
    start, end = evidence.start, evidence.end
    if 0 <= start < end <= len(content) and normalise(content[start:end]) == normalise(
        evidence.quote
    ):
        return (start, end), True
    span = locate_quote(evidence.quote, content)
    return ((span.start, span.end) if span else None), False


def _episodes_by_uid(project: Project, uids: set[str]) -> dict[str, Episode]:
    """Every episode the page needs, in one query. A uid that is not a UUID cannot be in the
    ledger; it is left out of the query (which would refuse it) and shows as missing."""
    wanted = set()
    for uid in uids:
        try:
            wanted.add(uuid.UUID(uid))
        except ValueError:
            continue
    if not wanted:
        return {}
    episodes = Episode.objects.filter(project=project, uid__in=wanted)
    return {str(e.uid): e for e in episodes}


# --- node list --------------------------------------------------------------------------


@dataclass(frozen=True)
class NodeFilters:
    type: str = ""
    validity: str = ""  # "" | active | invalid
    band: str = ""  # "" | one of CONFIDENCE_BANDS
    q: str = ""

    @classmethod
    def from_query(cls, params) -> NodeFilters:
        node_type = params.get("type", "")
        validity = params.get("valid", "")
        band = params.get("band", "")
        return cls(
            type=node_type if node_type in NODE_TYPES else "",
            validity=validity if validity in dict(VALIDITY) else "",
            band=band if band in {b[0] for b in CONFIDENCE_BANDS} else "",
            q=params.get("q", "").strip()[:200],
        )

    def store_query(self, *, contradicted: bool = False, stale: bool = False):
        """The same filters for the graph to apply (kg.graph.store.node_page); None where
        they accept no node (a stale node asked for among the active ones)."""
        valid = {"active": True, "invalid": False}.get(self.validity)
        if stale:
            if valid is True:
                return None
            valid = False
        low = high = None
        if self.band:
            _, _, low, high = next(b for b in CONFIDENCE_BANDS if b[0] == self.band)
        return store.NodeListQuery(
            type=self.type,
            valid=valid,
            low=low,
            high=high,
            words=self.q,
            contradicted=contradicted,
        )

    def accepts(self, node: NodeRecord) -> bool:
        if self.validity == "active" and node.invalid_at is not None:
            return False
        if self.validity == "invalid" and node.invalid_at is None:
            return False
        if self.band:
            _, _, low, high = next(b for b in CONFIDENCE_BANDS if b[0] == self.band)
            if not low <= node.confidence <= high:
                return False
        if self.q:
            needle = self.q.casefold()
            names = [node.label, *node.aliases]
            if not any(needle in name.casefold() for name in names):
                return False
        return True


@dataclass(frozen=True)
class NodeRow:
    link: NodeLink
    aliases: list[str]
    confidence: int
    valid_at: dt.datetime | None
    invalid_at: dt.datetime | None
    episodes: int


@dataclass
class NodeListing:
    project: Project
    filters: NodeFilters
    total: int  # nodes in the project (of the chosen type)
    matched: int
    page: Page
    type_counts: dict[str, int] = field(default_factory=dict)


def node_listing(project: Project, filters: NodeFilters, page_number: str | int = 1) -> NodeListing:
    """One page of the project's nodes as the filters select them: read from the graph a page
    at a time (filtered, ordered by number and cut there), with the graph's counts per type."""
    scope = project.graph_scope
    query = filters.store_query()
    rows = StoredRows(
        lambda: store.count_listed_nodes(scope, query),
        lambda skip, limit: [
            NodeRow(
                link=NodeLink.of(project, n),
                aliases=n.aliases,
                confidence=n.confidence,
                valid_at=when(n.valid_at),
                invalid_at=when(n.invalid_at),
                episodes=n.sources,
            )
            for n in store.node_page(scope, query, skip, limit)
        ],
    )
    page = Paginator(rows, NODES_PER_PAGE).get_page(page_number)
    type_counts = store.node_totals(scope).by_type
    return NodeListing(
        project=project,
        filters=filters,
        total=type_counts.get(filters.type, 0) if filters.type else sum(type_counts.values()),
        matched=rows.count(),
        page=page,
        type_counts=dict(sorted(type_counts.items())),
    )


# --- node trail -------------------------------------------------------------------------


@dataclass(frozen=True)
class QuoteView:
    quote: str
    start: int
    end: int
    located: bool  # found in the episode text at all
    offsets_ok: bool  # the stored offsets pointed at it


@dataclass
class EvidenceEpisode:
    """One supporting episode, with every quote of the node in it highlighted."""

    episode_uid: str
    number: int
    url: str
    date: dt.datetime | None
    author: str
    kind: str
    message: int | None
    file: str
    page: str
    section: str
    text_html: SafeString
    quotes: list[QuoteView]
    in_ledger: bool
    source: str = ""  # "transcript-04.docx, §Interviews › Onboarding, p. 3"


@dataclass(frozen=True)
class EdgeView:
    relation: str
    other: NodeLink
    confidence: int
    valid_at: dt.datetime | None
    invalid_at: dt.datetime | None
    quotes: list[tuple[str, int, str]]  # (quote, episode number, episode admin url or "")
    uid: str = ""  # what a correction of the edge names (kg.corrections)


@dataclass(frozen=True)
class ContradictionView:
    other: NodeLink
    subject: str
    status: str
    quote_here: str
    quote_other: str
    opened_at: dt.datetime | None
    resolved_at: dt.datetime | None
    resolution: str


@dataclass(frozen=True)
class SupersessionView:
    other: NodeLink
    relation: str
    at: dt.datetime | None


@dataclass(frozen=True)
class ResolutionView:
    method: str
    method_label: str
    score: float | None
    candidate_label: str
    compared_label: str
    node_type: str
    episode_number: int
    episode_url: str
    decided_at: dt.datetime


@dataclass
class NodeTrail:
    project: Project
    node: NodeRecord
    valid_at: dt.datetime | None
    invalid_at: dt.datetime | None
    open_contradictions: int
    computed_confidence: int
    confidence_explanation: str
    evidence: list[EvidenceEpisode]
    edges_out: list[EdgeView]
    edges_in: list[EdgeView]
    contradictions: list[ContradictionView]
    superseded_by: list[SupersessionView]
    supersedes: list[SupersessionView]
    # The node a person split this one off (kg.corrections): not superseded, still valid.
    split_from: list[SupersessionView]
    resolutions: list[ResolutionView]
    references: list[NodeReferenceSection]

    @property
    def confidence_is_stale(self) -> bool:
        """The stored score differs from what the evidence gives now (e.g. a contradiction
        was resolved after the node was last written)."""
        return self.computed_confidence != self.node.confidence


def answer_evidence(supersessions: list, node_uid: str) -> list[Evidence]:
    """The answers that kept this statement over another (SUPERSEDED_BY with an answer): shown
    and highlighted with its evidence, though never counted in its confidence (a user's
    decision is not another source of what the research says)."""
    return [
        Evidence(
            episode_uid=s.episode_uid,
            episode_number=s.episode_number,
            quote=s.quote,
            start=0,  # the answer's words are quoted from its start
            end=len(s.quote),
            valid_at=s.at,
        )
        for s in supersessions
        if s.new == node_uid and s.episode_uid and s.episode_number is not None and s.quote
    ]


def node_trail(project: Project, number: int) -> NodeTrail | None:
    """Everything the node page shows. Bounded cost whatever the number of supporting
    episodes: five graph reads, two SQL queries (episodes, resolution decisions) and what the
    reference providers run."""
    scope = project.graph_scope
    node = store.node_by_number(scope, number)
    if node is None:
        return None
    edges = store.edges_of_node(scope, node.uid)
    contradictions = [record for record, _, _ in store.contradictions_of_node(scope, node.uid)]
    supersessions = store.supersessions_of_node(scope, node.uid)
    splits = list(
        Correction.objects.filter(
            project=project, action=CorrectionAction.SPLIT, params__new_uid=node.uid
        ).values_list("node_uid", "created_at")
    )

    other_uids = (
        {e.source for e in edges}
        | {e.target for e in edges}
        | {c.a for c in contradictions}
        | {c.b for c in contradictions}
        | {s.old for s in supersessions}
        | {s.new for s in supersessions}
        | {uid for uid, _ in splits}
    ) - {node.uid}
    others = {n.uid: NodeLink.of(project, n) for n in store.node_summaries(scope, other_uids)}

    def link(uid: str) -> NodeLink:
        return others.get(uid) or NodeLink.unknown(uid)

    answers = answer_evidence(supersessions, node.uid)
    episode_uids = (
        {e.episode_uid for e in node.evidence}
        | {ev.episode_uid for edge in edges for ev in edge.evidence}
        | {a.episode_uid for a in answers}
    )
    episodes = _episodes_by_uid(project, episode_uids)
    open_count = sum(1 for c in contradictions if c.status == "open")

    return NodeTrail(
        project=project,
        node=node,
        valid_at=when(node.valid_at),
        invalid_at=when(node.invalid_at),
        open_contradictions=open_count,
        computed_confidence=confidence_from(
            node.evidence, open_count, len(node.confirmed_by), node.status == "rejected"
        ),
        confidence_explanation=explain(
            node.evidence, open_count, node.confirmed_by, node.status == "rejected"
        ),
        evidence=_evidence_episodes(node.evidence + answers, episodes),
        edges_out=[_edge_view(e, link(e.target), episodes) for e in edges if e.source == node.uid],
        edges_in=[_edge_view(e, link(e.source), episodes) for e in edges if e.target == node.uid],
        contradictions=[
            ContradictionView(
                other=link(c.b if c.a == node.uid else c.a),
                subject=c.subject,
                status=c.status,
                quote_here=c.quote_a if c.a == node.uid else c.quote_b,
                quote_other=c.quote_b if c.a == node.uid else c.quote_a,
                opened_at=when(c.opened_at),
                resolved_at=when(c.resolved_at),
                resolution=c.resolution,
            )
            for c in contradictions
        ],
        superseded_by=[
            SupersessionView(other=link(s.new), relation=s.relation, at=when(s.at))
            for s in supersessions
            if s.old == node.uid
        ],
        supersedes=[
            SupersessionView(other=link(s.old), relation=s.relation, at=when(s.at))
            for s in supersessions
            if s.new == node.uid
        ],
        split_from=[
            SupersessionView(other=link(uid), relation="split off", at=at) for uid, at in splits
        ],
        resolutions=_resolutions(project, node.uid),
        references=node_reference_sections(project, node.uid, node.number),
    )


def _evidence_episodes(
    evidence: list[Evidence], episodes: dict[str, Episode]
) -> list[EvidenceEpisode]:
    grouped: dict[str, list[Evidence]] = {}
    for item in evidence:
        grouped.setdefault(item.episode_uid, []).append(item)
    result = []
    for uid, items in grouped.items():
        episode = episodes.get(uid)
        first = items[0]
        if episode is None:
            # The graph cites an episode the ledger does not have for this project: show the
            # quotes as stored so the inconsistency is visible rather than hidden.
            result.append(
                EvidenceEpisode(
                    episode_uid=uid,
                    number=first.episode_number,
                    url="",
                    date=when(first.valid_at),
                    author=first.author,
                    kind="",
                    message=None,
                    file="",
                    page="",
                    section="",
                    text_html=format_html("{}", ""),
                    quotes=[QuoteView(e.quote, e.start, e.end, False, False) for e in items],
                    in_ledger=False,
                )
            )
            continue
        spans, quotes = [], []
        for item in items:
            span, offsets_ok = quote_span(episode.content, item)
            if span:
                spans.append(span)
            quotes.append(QuoteView(item.quote, item.start, item.end, span is not None, offsets_ok))
        ref = episode.source_ref or {}
        result.append(
            EvidenceEpisode(
                episode_uid=uid,
                number=episode.number,
                url=episode_admin_url(episode.pk),
                date=episode.valid_at,
                author=episode.author or first.author,
                kind=episode.get_kind_display(),
                message=episode.message_number,
                file=str(ref.get("file", "")),
                page=str(ref.get("page", "")),
                section=str(ref.get("section", "")),
                text_html=highlight(episode.content, spans),
                quotes=quotes,
                in_ledger=True,
                source=source_label(ref),
            )
        )
    result.sort(key=lambda e: (e.date or dt.datetime.min.replace(tzinfo=dt.UTC), e.number))
    return result


def _edge_view(edge: EdgeRecord, other: NodeLink, episodes: dict[str, Episode]) -> EdgeView:
    quotes = []
    for ev in edge.evidence:
        episode = episodes.get(ev.episode_uid)
        quotes.append(
            (ev.quote, ev.episode_number, episode_admin_url(episode.pk) if episode else "")
        )
    return EdgeView(
        relation=edge.relation,
        other=other,
        confidence=edge.confidence,
        valid_at=when(edge.valid_at),
        invalid_at=when(edge.invalid_at),
        quotes=quotes,
        uid=edge.uid,
    )


def _resolutions(project: Project, node_uid: str) -> list[ResolutionView]:
    decisions = (
        ResolutionDecision.objects.filter(project=project, node_uid=node_uid)
        .select_related("episode")
        .order_by("episode__number", "id")
    )
    return [
        ResolutionView(
            method=d.method,
            method_label=d.get_method_display(),
            score=d.score,
            candidate_label=d.candidate_label,
            compared_label=d.compared_label,
            node_type=d.node_type,
            episode_number=d.episode.number,
            episode_url=episode_admin_url(d.episode_id),
            decided_at=d.created_at,
        )
        for d in decisions
    ]


# --- episode page -----------------------------------------------------------------------


@dataclass(frozen=True)
class EpisodeNodeView:
    link: NodeLink
    confidence: int
    quotes: list[str]  # the node's quotes taken from this episode


@dataclass(frozen=True)
class EpisodeEdgeView:
    relation: str
    source: NodeLink
    target: NodeLink
    confidence: int
    valid_at: dt.datetime | None
    invalid_at: dt.datetime | None
    quotes: list[str]


@dataclass
class EpisodeGraph:
    nodes: list[EpisodeNodeView] = field(default_factory=list)
    edges: list[EpisodeEdgeView] = field(default_factory=list)
    text_html: SafeString | None = None
    error: str = ""


def episode_graph(episode: Episode) -> EpisodeGraph:
    """What the graph holds with this episode as evidence: nodes and edges, and the episode
    text with every quote they took from it highlighted."""
    project = episode.project
    scope = project.graph_scope
    uid = str(episode.uid)
    try:
        nodes = store.nodes_for_episode(scope, uid)
        # Every edge evidenced by an episode touches a node that episode mentions (in-episode
        # relations join two of them; discovered ones join a new node to an older one), so
        # the edges of this episode's nodes contain all of its edges.
        edges: dict[str, EdgeRecord] = {}
        for node in nodes:
            for edge in store.edges_of_node(scope, node.uid):
                if any(ev.episode_uid == uid for ev in edge.evidence):
                    edges[edge.uid] = edge
        known = {n.uid: NodeLink.of(project, n) for n in nodes}
        missing = {e.source for e in edges.values()} | {e.target for e in edges.values()}
        missing -= set(known)
        if missing:
            known |= {n.uid: NodeLink.of(project, n) for n in store.nodes_by_uids(scope, missing)}
    except GraphUnavailable as exc:
        return EpisodeGraph(error=str(exc))

    spans: list[tuple[int, int]] = []
    for record in [*nodes, *edges.values()]:
        for item in record.evidence:
            if item.episode_uid == uid:
                span, _ = quote_span(episode.content, item)
                if span:
                    spans.append(span)
    node_views = []
    for node in nodes:
        mine = [e for e in node.evidence if e.episode_uid == uid]
        node_views.append(
            EpisodeNodeView(
                link=known[node.uid], confidence=node.confidence, quotes=[e.quote for e in mine]
            )
        )
    edge_views = [
        EpisodeEdgeView(
            relation=e.relation,
            source=known.get(e.source) or NodeLink.unknown(e.source),
            target=known.get(e.target) or NodeLink.unknown(e.target),
            confidence=e.confidence,
            valid_at=when(e.valid_at),
            invalid_at=when(e.invalid_at),
            quotes=[ev.quote for ev in e.evidence if ev.episode_uid == uid],
        )
        for e in sorted(edges.values(), key=lambda e: (e.valid_at, e.uid))
    ]
    return EpisodeGraph(
        nodes=node_views, edges=edge_views, text_html=highlight(episode.content, spans)
    )
