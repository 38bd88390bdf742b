"""The research view of the product: what the pages under /projects/<slug>/research/ read.

The same read models as the admin's graph pages (kg.web.admin_graph: the node filters, the node
trail with its highlighted evidence) and the API (kg.web.api.services); this module only adds what
the product's list needs on top (contradicted and stale filters, counts per type) and one
message with the quoted words of a node highlighted. Every function takes a Project the caller
already checked membership for.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.paginator import Page, Paginator
from django.utils.safestring import SafeString

from kg.graph import NodeRecord, store
from kg.models import Episode, Project
from kg.reading.node_trail import NodeFilters, answer_evidence, highlight, quote_span

NODES_PER_PAGE = 50
STATUSES = (
    ("contradicted", "Contradicted (an open question)"),
    ("stale", "Stale (superseded or no longer valid)"),
)


@dataclass(frozen=True)
class ResearchFilters:
    nodes: NodeFilters  # type, validity, confidence band, text: as in the admin
    status: str = ""  # "" | contradicted | stale

    @classmethod
    def from_query(cls, params) -> ResearchFilters:
        status = params.get("status", "")
        return cls(
            nodes=NodeFilters.from_query(params),
            status=status if status in dict(STATUSES) else "",
        )


@dataclass(frozen=True)
class ResearchRow:
    node: NodeRecord
    sources: int
    contradicted: bool

    @property
    def stale(self) -> bool:
        return self.node.invalid_at is not None


@dataclass
class ResearchListing:
    filters: ResearchFilters
    total: int
    matched: int
    page: Page
    type_counts: dict[str, int] = field(default_factory=dict)
    contradicted: int = 0
    stale: int = 0


def research_listing(
    project: Project, filters: ResearchFilters, page_number: str | int = 1
) -> ResearchListing:
    """The project's nodes, filtered, with counts per type, contradicted and stale."""
    scope = project.graph_scope
    nodes = store.list_nodes(scope)
    open_uids = {
        uid for c in store.list_contradictions(scope) if c.status == "open" for uid in (c.a, c.b)
    }
    type_counts: dict[str, int] = {}
    for node in nodes:
        type_counts[node.type] = type_counts.get(node.type, 0) + 1
    rows = [
        ResearchRow(node=n, sources=len(n.episode_uids), contradicted=n.uid in open_uids)
        for n in sorted(nodes, key=lambda n: n.number)
        if (not filters.nodes.type or n.type == filters.nodes.type) and filters.nodes.accepts(n)
    ]
    if filters.status == "contradicted":
        rows = [r for r in rows if r.contradicted]
    elif filters.status == "stale":
        rows = [r for r in rows if r.stale]
    return ResearchListing(
        filters=filters,
        total=len(nodes),
        matched=len(rows),
        page=Paginator(rows, NODES_PER_PAGE).get_page(page_number),
        type_counts=dict(sorted(type_counts.items())),
        contradicted=sum(1 for n in nodes if n.uid in open_uids),
        stale=sum(1 for n in nodes if n.invalid_at is not None),
    )


class MessageNotFound(LookupError):
    pass


@dataclass(frozen=True)
class HighlightedMessage:
    episode: Episode
    text_html: SafeString  # the whole text, escaped, the quotes in <mark>
    node: NodeRecord | None  # whose quotes are marked; None: every node's from this message
    quotes: int
    cited: bool = False  # the marked words are one citation's (an answer's), not nodes' quotes


def highlighted_message(
    project: Project,
    number: int,
    node_number: int | None = None,
    span: tuple[int, int] | None = None,
) -> HighlightedMessage:
    """Message (episode) #number with the quoted words of node #node_number marked at their
    stored offsets (searched again where an offset no longer points at the quote), or, with
    no node, the words every node of the research quotes from it."""
    episode = Episode.objects.filter(project=project, number=number).first()
    if episode is None:
        raise MessageNotFound(f"message #{number} not found in project {project.slug!r}")
    if span is not None and 0 <= span[0] < span[1] <= len(episode.content):
        # An answer's citation: the very words it quotes (offsets into the immutable text).
        return HighlightedMessage(
            episode=episode,
            text_html=highlight(episode.content, [span]),
            node=None,
            quotes=1,
            cited=True,
        )
    uid = str(episode.uid)
    node = store.node_by_number(project.graph_scope, node_number) if node_number else None
    nodes = [node] if node else store.nodes_for_episode(project.graph_scope, uid)
    # A node's words here include an answer that kept it (see admin_graph.answer_evidence).
    answers = (
        answer_evidence(store.list_supersessions(project.graph_scope), node.uid) if node else []
    )
    spans = []
    for each in nodes:
        for evidence in each.evidence + (answers if each is node else []):
            if evidence.episode_uid != uid:
                continue
            span, _offsets_ok = quote_span(episode.content, evidence)
            if span:
                spans.append(span)
    return HighlightedMessage(
        episode=episode,
        text_html=highlight(episode.content, spans),
        node=node,
        quotes=len(spans),
    )
