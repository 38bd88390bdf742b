"""The Bolt connection: the only module that imports the neo4j driver.

One driver serves Neo4j 5 and FalkorDB. Every connection has a timeout so that a stopped
server is reported as down instead of hanging a request.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

import neo4j
from neo4j import GraphDatabase
from neo4j.exceptions import ClientError, DatabaseError, Neo4jError, ServiceUnavailable

from kg.graph.records import ServerInfo

logger = logging.getLogger("groundwork.graph")


class GraphUnavailable(RuntimeError):
    """The graph server could not be reached or answered with an error."""


class GraphClient:
    def __init__(
        self, uri: str, user: str = "", password: str = "", database: str = "", timeout: float = 5
    ) -> None:
        self.uri = uri
        self.database = database or None
        auth = (user, password) if user else None
        self._driver = GraphDatabase.driver(
            uri,
            auth=auth,
            connection_timeout=timeout,
            connection_acquisition_timeout=timeout,
            max_transaction_retry_time=timeout,
            liveness_check_timeout=timeout,
            max_connection_lifetime=300,
        )
        self._timeout = timeout

    def close(self) -> None:
        self._driver.close()

    def run(self, statement: str, **params: Any) -> list[dict[str, Any]]:
        try:
            with self._driver.session(database=self.database) as session:
                result = session.run(neo4j.Query(statement, timeout=max(self._timeout, 30)), params)
                return result.data()
        except (ServiceUnavailable, OSError) as exc:
            raise GraphUnavailable(f"graph server at {self.uri} is unavailable: {exc}") from exc

    def run_schema(self, statement: str) -> bool:
        """Run a schema statement; an "already exists" answer counts as success."""
        try:
            self.run(statement)
            return True
        except (ClientError, DatabaseError) as exc:
            logger.debug("schema statement skipped (%s): %s", exc.code, statement)
            return False

    def server_info(self) -> ServerInfo:
        try:
            info = self._driver.get_server_info()
        except (ServiceUnavailable, OSError, Neo4jError) as exc:
            raise GraphUnavailable(f"graph server at {self.uri} is unavailable: {exc}") from exc
        return ServerInfo(
            agent=str(info.agent),
            protocol=".".join(map(str, info.protocol_version)),
            address=str(info.address),
        )


_client: GraphClient | None = None
_client_lock = threading.Lock()


def get_client() -> GraphClient:
    """The process-wide client built from settings (reset with reset_client)."""
    global _client
    with _client_lock:
        if _client is None:
            from django.conf import settings

            _client = GraphClient(
                settings.GRAPH_URI,
                settings.GRAPH_USER,
                settings.GRAPH_PASSWORD,
                settings.GRAPH_DATABASE,
                settings.GRAPH_TIMEOUT_SECONDS,
            )
        return _client


def reset_client() -> None:
    global _client
    with _client_lock:
        if _client is not None:
            _client.close()
        _client = None
