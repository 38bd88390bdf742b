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
from kg.graph.records import ListedNode
from kg.models import Episode, Project
from kg.reading.node_trail import NodeFilters, answer_evidence, highlight, quote_span
from kg.reading.stored_pages import StoredRows, no_rows

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
    node: ListedNode
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
    """The project's nodes, filtered, with counts per type, contradicted and stale: the page
    shown is read from the graph (filtered, ordered by number and cut there), the counts are
    the graph's aggregates; no other node is read."""
    scope = project.graph_scope
    query = filters.nodes.store_query(
        contradicted=filters.status == "contradicted", stale=filters.status == "stale"
    )
    if query is None:
        rows = no_rows()
    else:
        rows = StoredRows(
            lambda: store.count_listed_nodes(scope, query),
            lambda skip, limit: [
                ResearchRow(node=n, sources=n.sources, contradicted=n.open_contradictions > 0)
                for n in store.node_page(scope, query, skip, limit)
            ],
        )
    page = Paginator(rows, NODES_PER_PAGE).get_page(page_number)
    totals = store.node_totals(scope)
    return ResearchListing(
        filters=filters,
        total=totals.total,
        matched=rows.count(),
        page=page,
        type_counts=dict(sorted(totals.by_type.items())),
        contradicted=totals.contradicted,
        stale=totals.stale,
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
        answer_evidence(store.supersessions_of_node(project.graph_scope, node.uid), node.uid)
        if node
        else []
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
