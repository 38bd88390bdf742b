"""Graph connections: the only module that talks to a graph server.

Two adapters behind one small interface (`run`, `run_schema`, `server_info`, `close`):
- `BoltGraphClient` (the neo4j driver): Neo4j 5, or any Bolt server;
- `FalkorGraphClient` (FalkorDB's Redis protocol): the embedded default. FalkorDB's Bolt
  listener is experimental and crashes the whole server on a request larger than about 4 KB
  (a single evidence quote list can exceed that), so the native protocol is used for FalkorDB.
The same Cypher (kg/graph/cypher.py) runs on both; the contract tests run against both.
Every connection has a timeout so that a stopped server is reported as down, not a hang.
"""

from __future__ import annotations

import copy
import functools
import logging
import threading
from typing import Any, Protocol
from urllib.parse import urlparse

from kg.graph.records import ServerInfo

logger = logging.getLogger("groundwork.graph")

DEFAULT_GRAPH_NAME = "groundwork"


class GraphUnavailable(RuntimeError):
    """The graph server could not be reached."""


class GraphConflict(RuntimeError):
    """A write met a uniqueness constraint. Every write here MERGEs on the unique key, so the
    key was being created by another write at the same moment (MERGE guarantees a pattern
    exists, not that two concurrent MERGEs create it once): written again, it matches."""


# How each server words a uniqueness violation.
_CONFLICT_MARKERS = ("unique constraint violation", "already exists with label")


class GraphClient(Protocol):
    uri: str
    dialect: str  # "neo4j" | "falkordb": which of cypher's dialect statements it runs
    vectors: bool  # whether node vectors are written and searched through this connection
    schema_ready: bool  # whether this graph's indexes were made (or are not this client's job)

    def run(self, statement: str, **params: Any) -> list[dict[str, Any]]: ...

    def run_schema(self, statement: str) -> bool: ...

    def server_info(self) -> ServerInfo: ...

    def ensure_unique(self, label: str, prop: str) -> bool: ...

    def for_graph(self, name: str) -> GraphClient: ...

    def forget_graphs(self) -> None: ...

    def drop_graph(self) -> None: ...

    def close(self) -> None: ...


class BoltGraphClient:
    def __init__(
        self, uri: str, user: str = "", password: str = "", database: str = "", timeout: float = 5
    ) -> None:
        import neo4j  # imported here: only the Bolt adapter needs the driver

        self._neo4j = neo4j
        self.uri = uri
        self.database = database or None
        self._timeout = timeout
        self._driver = neo4j.GraphDatabase.driver(
            uri,
            # FalkorDB's Bolt takes its redis password with an empty user name
            auth=(user, password) if user or password else None,
            connection_timeout=timeout,
            connection_acquisition_timeout=timeout,
            max_transaction_retry_time=timeout,
            liveness_check_timeout=timeout,
            max_connection_lifetime=300,
        )

    def close(self) -> None:
        self._driver.close()

    def for_graph(self, name: str) -> BoltGraphClient:
        """Neo4j holds every project in the configured database (Community has one); the
        statements keep each project apart by its `project` property."""
        return self

    schema_ready = True  # made once for the database (kg_graph_setup, a worker's start)

    def forget_graphs(self) -> None:
        """Nothing to forget: one database."""

    def drop_graph(self) -> None:
        """The database is shared: a project is deleted by its statement alone."""

    @functools.cached_property
    def dialect(self) -> str:
        """A Bolt server may be Neo4j or FalkorDB (its experimental listener, which names
        itself Neo4j): asked once, by a function only FalkorDB has."""
        from neo4j.exceptions import ClientError, DatabaseError

        from kg.graph.cypher import FALKOR_PROBE

        try:
            self.run(FALKOR_PROBE)
        except (ClientError, DatabaseError):
            return "neo4j"
        return "falkordb"

    @property
    def vectors(self) -> bool:
        # FalkorDB's Bolt listener fails on requests over ~4 KB (see the module's docstring),
        # and one vector is 512 numbers: vectors go through FalkorDB's native protocol only.
        return self.dialect == "neo4j"

    def run(self, statement: str, **params: Any) -> list[dict[str, Any]]:
        from neo4j.exceptions import Neo4jError, ServiceUnavailable

        try:
            with self._driver.session(database=self.database) as session:
                query = self._neo4j.Query(statement, timeout=max(self._timeout, 30))
                return session.run(query, params).data()
        except (ServiceUnavailable, OSError) as exc:
            raise GraphUnavailable(f"graph server at {self.uri} is unavailable: {exc}") from exc
        except Neo4jError as exc:
            if _is_conflict(exc):
                raise GraphConflict(str(exc)) from exc
            raise

    def run_schema(self, statement: str) -> bool:
        """Run a schema statement; an "already exists" answer counts as success."""
        from neo4j.exceptions import ClientError, DatabaseError

        try:
            self.run(statement)
            return True
        except (ClientError, DatabaseError) as exc:
            logger.debug("schema statement skipped (%s): %s", exc.code, statement)
            return False

    def ensure_unique(self, label: str, prop: str) -> bool:
        """A uniqueness constraint; an existing plain index on the property is replaced."""
        from neo4j.exceptions import Neo4jError

        from kg.graph.cypher import NEO4J_PLAIN_INDEXES, NEO4J_UNIQUE_CONSTRAINT

        statement = NEO4J_UNIQUE_CONSTRAINT[(label, prop)]
        try:
            self.run(statement)
            return True
        except Neo4jError as first:
            try:
                rows = self.run(NEO4J_PLAIN_INDEXES, label=label, property=prop)
                for row in rows:
                    self.run(f"DROP INDEX `{row['name']}` IF EXISTS")
                self.run(statement)
                return True
            except Neo4jError as exc:
                logger.warning("unique constraint on %s.%s not created: %s", label, prop, first)
                logger.debug("retry after dropping the plain index failed: %s", exc)
                return False

    def server_info(self) -> ServerInfo:
        from neo4j.exceptions import Neo4jError, ServiceUnavailable

        try:
            info = self._driver.get_server_info()
        except (ServiceUnavailable, OSError, Neo4jError) as exc:
            raise GraphUnavailable(f"graph server at {self.uri} is unavailable: {exc}") from exc
        return ServerInfo(
            agent=str(info.agent),
            protocol="bolt " + ".".join(map(str, info.protocol_version)),
            address=str(info.address),
        )


def shown_uri(uri: str) -> str:
    """The URI without its password (a falkordb:// or redis:// URL may carry one)."""
    parsed = urlparse(uri)
    if parsed.password is None:
        return uri
    user = parsed.username or ""
    return parsed._replace(netloc=f"{user}:***@{parsed.hostname}:{parsed.port}").geturl()


class FalkorGraphClient:
    dialect = "falkordb"
    vectors = True

    def __init__(self, uri: str, password: str = "", database: str = "", timeout: float = 5):
        import redis
        from falkordb import FalkorDB

        parsed = urlparse(uri)
        self.uri = shown_uri(uri)  # in messages and logs: never the password
        errors = redis.exceptions
        # A cluster whose shard is restarting answers with these until the shard is back.
        self._redis_errors = (
            errors.ConnectionError,
            errors.TimeoutError,
            errors.ClusterError,
            errors.TryAgainError,
            errors.SlotNotCoveredError,
            errors.RedisClusterUnreachableError,
        )
        self._response_error = redis.exceptions.ResponseError
        try:  # the client connects at once; a down server must read as GraphUnavailable
            self._db = FalkorDB(
                host=parsed.hostname or "127.0.0.1",
                port=parsed.port or 6379,
                password=password or parsed.password or None,
                socket_timeout=max(timeout, 30),
                socket_connect_timeout=timeout,
            )
        except self._redis_errors as exc:
            raise GraphUnavailable(f"graph server at {self.uri} is unavailable: {exc}") from exc
        self._graph = self._db.select_graph(database or DEFAULT_GRAPH_NAME)
        self._views: dict[str, FalkorGraphClient] = {}
        self.schema_ready = True  # the default graph's: made by kg_graph_setup, a worker's start
        self._is_view = False

    def close(self) -> None:
        self._db.connection.close()

    def for_graph(self, name: str) -> FalkorGraphClient:
        """The same connection, on the graph `name` (one key: on a Redis Cluster, the shard
        that holds its slot; the cluster client routes each query there)."""
        if name == self._graph.name:
            return self
        view = self._views.get(name)
        if view is None:
            view = copy.copy(self)
            view._graph = self._db.select_graph(name)
            view._views = {}
            view.schema_ready = False
            view._is_view = True
            self._views[name] = view
        return view

    def forget_graphs(self) -> None:
        self._views.clear()

    def drop_graph(self) -> None:
        """Delete this graph's key (a project's graph, emptied by its delete statement)."""
        if not self._is_view:
            return  # never the connection's own graph
        try:
            self._graph.delete()
        except self._redis_errors as exc:
            raise GraphUnavailable(f"graph server at {self.uri} is unavailable: {exc}") from exc
        except self._response_error as exc:  # already gone
            logger.debug("graph %s not deleted: %s", self._graph.name, exc)
        self.schema_ready = False

    @property
    def graph_name(self) -> str:
        return self._graph.name

    def run(self, statement: str, **params: Any) -> list[dict[str, Any]]:
        try:
            result = self._graph.query(statement, _numbers_written(params) or None)
        except self._redis_errors as exc:
            raise GraphUnavailable(f"graph server at {self.uri} is unavailable: {exc}") from exc
        except self._response_error as exc:
            if _is_conflict(exc):
                raise GraphConflict(str(exc)) from exc
            raise
        names = [column[1] for column in result.header]
        return [
            dict(zip(names, (_plain(v) for v in row), strict=True)) for row in result.result_set
        ]

    def run_schema(self, statement: str) -> bool:
        try:
            self.run(statement)
            return True
        except self._response_error as exc:  # "already indexed"
            logger.debug("schema statement skipped (%s): %s", exc, statement)
            return False

    def ensure_unique(self, label: str, prop: str) -> bool:
        """A uniqueness constraint (FalkorDB wants an exact-match index on it first)."""
        self.run_schema(f"CREATE INDEX FOR (n:{label}) ON (n.{prop})")
        existing = [
            c
            for c in self._graph.list_constraints()
            if c.get("type") == "UNIQUE"
            and c.get("label") == label
            and list(c.get("properties") or []) == [prop]
        ]
        if existing:
            return existing[0].get("status") != "FAILED"
        try:
            self._graph.create_node_unique_constraint(label, prop)
            return True
        except self._response_error as exc:  # already exists, or duplicates in the data
            logger.warning("unique constraint on %s.%s not created: %s", label, prop, exc)
            return False
        except self._redis_errors as exc:
            raise GraphUnavailable(f"graph server at {self.uri} is unavailable: {exc}") from exc

    def server_info(self) -> ServerInfo:
        connection = self._db.connection
        # A cluster client sends a keyless command to one node, named here.
        extra = {"target_nodes": connection.get_random_node()} if _is_cluster(connection) else {}
        try:
            modules = connection.execute_command("MODULE", "LIST", **extra)
        except self._redis_errors as exc:
            raise GraphUnavailable(f"graph server at {self.uri} is unavailable: {exc}") from exc
        version = ""
        for module in modules:
            fields = dict(zip(module[::2], module[1::2], strict=False))
            name = fields.get("name", fields.get(b"name"))
            if name in ("graph", b"graph"):
                number = int(fields.get("ver", fields.get(b"ver", 0)))
                version = f"{number // 10000}.{number // 100 % 100}.{number % 100}"
        parsed = urlparse(self.uri)
        return ServerInfo(
            agent=f"FalkorDB/{version}",
            protocol="redis",
            address=f"{parsed.hostname}:{parsed.port}",
        )


class _Numbers:
    """A list of floats as FalkorDB's parameter header spells it (`[x,y,...]`, each number as
    `str` writes it), written in one pass: the client spells each item of a list apart,
    which for a 512-number vector costs more than the vector search it is sent to."""

    __slots__ = ("text",)

    def __init__(self, values: list[float]) -> None:
        self.text = "[" + ",".join(map(str, values)) + "]"

    def __str__(self) -> str:
        return self.text


def _is_vector(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(type(x) is float for x in value)


def _numbers_written(params: dict[str, Any]) -> dict[str, Any]:
    """The parameters with each vector, alone or in a row of a list of rows, pre-spelled."""
    out: dict[str, Any] = {}
    for name, value in params.items():
        if _is_vector(value):
            value = _Numbers(value)
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            value = [
                {k: _Numbers(v) if _is_vector(v) else v for k, v in row.items()}
                if isinstance(row, dict)
                else row
                for row in value
            ]
        out[name] = value
    return out


def _plain(value: Any) -> Any:
    """FalkorDB returns ordered dicts for maps; hand out plain data like the Bolt driver."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _is_cluster(connection: Any) -> bool:
    from redis.cluster import RedisCluster

    return isinstance(connection, RedisCluster)


def _is_conflict(exc: Exception) -> bool:
    """Whether a server's error is a uniqueness violation (a GraphConflict)."""
    return any(marker in str(exc).lower() for marker in _CONFLICT_MARKERS)


def make_client(
    uri: str, user: str = "", password: str = "", database: str = "", timeout: float = 5
) -> GraphClient:
    """Pick the adapter from the URI scheme: falkordb:// (native) or bolt:// / neo4j://."""
    scheme = urlparse(uri).scheme
    if scheme in {"falkordb", "falkordbs", "redis"}:
        return FalkorGraphClient(uri, password=password, database=database, timeout=timeout)
    return BoltGraphClient(uri, user, password, database, timeout)


_client: GraphClient | None = None
_client_lock = threading.Lock()


def get_client() -> GraphClient:
    """The process-wide client built from settings (reset with reset_client)."""
    global _client
    with _client_lock:
        if _client is None:
            from django.conf import settings

            _client = make_client(
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
