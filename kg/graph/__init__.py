"""The graph layer. Only kg/graph/ imports the neo4j driver; all Cypher is in cypher.py."""

from kg.graph.client import GraphClient, GraphUnavailable, get_client, reset_client
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
    "ContradictionRecord",
    "EdgeRecord",
    "EpisodeStub",
    "Evidence",
    "GraphClient",
    "GraphScope",
    "GraphUnavailable",
    "NodeRecord",
    "ServerInfo",
    "SupersessionRecord",
    "get_client",
    "reset_client",
]
