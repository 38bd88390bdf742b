"""What the other apps read of kg: the research as views (nodes, edges, contradictions and their
evidence), the graph's read queries, the checks a quote or a number is put to, links to the
admin's pages, and the project's revision.

chat, artifacts and orgmemory read the research through this module only (the boundary is a
test, tests/test_layers.py); what they change goes through kg.commands. Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Iterable

from kg.graph import (
    ContradictionRecord,
    EdgeRecord,
    Evidence,
    GraphScope,
    GraphUnavailable,
    NodeRecord,
)
from kg.graph import store as _store
from kg.graph.records import graph_time
from kg.ledger.sources.reference import citation_source
from kg.llm.audit import recent_rejections
from kg.operations.health import llm_mode
from kg.pipeline.confidence import confidence_from
from kg.pipeline.evidence import (
    locate_quote,
    normalise,
    numbers_in,
    numbers_missing,
    quantities_missing,
)
from kg.pipeline.grounding import claim_supported
from kg.pipeline.revision import project_revision
from kg.reading.context import (
    ArtifactContext,
    ContextContradiction,
    ContextEdge,
    ContextNode,
    EvidenceView,
    Gap,
    OrgInsightNote,
    artifact_context,
    collect_org_insights,
    content_hashes,
    contradiction_view,
    edge_view,
    episodes_by_uid,
    evidence_view,
    node_view,
    open_at,
    register_org_insight_provider,
    research_gaps,
)
from kg.reading.node_references import NodeReference, register_node_reference_provider
from kg.reading.node_trail import episode_admin_url, node_admin_url
from kg.reading.overview import ResearchOverview, research_overview, research_revision
from kg.reading.search import (
    Passage,
    Retrieval,
    asks_about_problems,
    retrieve,
    says_something_is_wrong,
)
from kg.signals import project_graph_changed

# --- the graph's read queries (looked up on the store at call time: a reset client is seen) ---


def list_nodes(scope: GraphScope, node_type: str | None = None) -> list[NodeRecord]:
    return _store.list_nodes(scope, node_type)


def nodes_by_uids(scope: GraphScope, uids: Iterable[str]) -> list[NodeRecord]:
    return _store.nodes_by_uids(scope, uids)


def top_nodes_of_type(
    scope: GraphScope, node_type: str, limit: int, moment: str | None = None
) -> list[NodeRecord]:
    return _store.top_nodes_of_type(scope, node_type, limit, moment)


def node_totals_by_type(
    scope: GraphScope, node_types: Iterable[str], moment: str | None = None
) -> dict[str, tuple[int, int]]:
    return _store.node_totals_by_type(scope, node_types, moment)


def edges_of_nodes(scope: GraphScope, uids: Iterable[str]) -> list[EdgeRecord]:
    return _store.edges_of_nodes(scope, uids)


def list_contradictions(scope: GraphScope) -> list[ContradictionRecord]:
    return _store.list_contradictions(scope)


def org_nodes_of_type(
    org: str, projects: list[str], node_type: str
) -> list[tuple[str, NodeRecord]]:
    return _store.org_nodes_of_type(org, projects, node_type)


__all__ = [
    "ArtifactContext",
    "ContextContradiction",
    "ContextEdge",
    "ContextNode",
    "ContradictionRecord",
    "EdgeRecord",
    "Evidence",
    "EvidenceView",
    "Gap",
    "GraphUnavailable",
    "NodeRecord",
    "NodeReference",
    "OrgInsightNote",
    "Passage",
    "Retrieval",
    "artifact_context",
    "asks_about_problems",
    "citation_source",
    "claim_supported",
    "content_hashes",
    "collect_org_insights",
    "confidence_from",
    "contradiction_view",
    "edge_view",
    "episode_admin_url",
    "episodes_by_uid",
    "evidence_view",
    "edges_of_nodes",
    "list_contradictions",
    "list_nodes",
    "node_totals_by_type",
    "nodes_by_uids",
    "org_nodes_of_type",
    "top_nodes_of_type",
    "graph_time",
    "llm_mode",
    "locate_quote",
    "node_admin_url",
    "node_view",
    "normalise",
    "numbers_in",
    "numbers_missing",
    "open_at",
    "project_graph_changed",
    "project_revision",
    "quantities_missing",
    "recent_rejections",
    "register_node_reference_provider",
    "register_org_insight_provider",
    "research_gaps",
    "ResearchOverview",
    "research_overview",
    "research_revision",
    "retrieve",
    "says_something_is_wrong",
]
