"""The graph layer. Only kg/graph/ talks to graph servers; all Cypher is in cypher.py."""

from kg.graph.client import (
    BoltGraphClient,
    FalkorGraphClient,
    GraphClient,
    GraphConflict,
    GraphUnavailable,
    get_client,
    make_client,
    reset_client,
)
from kg.graph.records import (
    ContradictionRecord,
    EdgeRecord,
    EpisodeStub,
    Evidence,
    GraphScope,
    NodeRecord,
    ServerInfo,
    SupersessionRecord,
)

__all__ = [
    "BoltGraphClient",
    "FalkorGraphClient",
    "make_client",
    "ContradictionRecord",
    "EdgeRecord",
    "EpisodeStub",
    "Evidence",
    "GraphClient",
    "GraphConflict",
    "GraphScope",
    "GraphUnavailable",
    "NodeRecord",
    "ServerInfo",
    "SupersessionRecord",
    "get_client",
    "reset_client",
]
