"""A throwaway environment for benchmarks: temp SQLite, an embedded FalkorDB on free ports.

With BENCH_DATABASE_URL (a PostgreSQL server, e.g. postgres://postgres:postgres@127.0.0.1:5432/
postgres) a throwaway database is created on that server instead, and dropped at exit.
Call `bench_environment()` before importing anything that touches Django models.
"""

from __future__ import annotations

import atexit
import os
import secrets
import tempfile
from pathlib import Path

RESULTS = Path(__file__).parent / "results"


def bench_environment() -> None:
    workdir = Path(tempfile.mkdtemp(prefix="groundwork-bench-"))
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    server_url = os.environ.get("BENCH_DATABASE_URL", "")
    if server_url:
        os.environ["DATABASE_URL"] = _throwaway_postgres(server_url, workdir.name)
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{workdir / 'bench.sqlite3'}"
    os.environ["LLM_ENGINE"] = "offline"
    os.environ.pop("OPENAI_API_KEY", None)
    os.environ.pop("OPENAI_BASE_URL", None)

    from kg.operations.embedded import EmbeddedServer, free_ports

    redis_port, graph_port = free_ports(2)
    # With a password, as deployed: a worker the benchmarks start runs with DEBUG off, which
    # refuses a graph or a Redis without one.
    server = EmbeddedServer(
        redis_port=redis_port,
        graph_port=graph_port,
        data_dir=workdir / "embedded",
        persist=False,
        password=secrets.token_hex(16),
    )
    server.start()
    atexit.register(server.stop)
    os.environ["GRAPH_URI"] = server.graph_uri
    os.environ["CELERY_BROKER_URL"] = server.redis_url(1)
    os.environ["LOCK_REDIS_URL"] = server.redis_url(2)
    os.environ["CACHE_REDIS_URL"] = server.redis_url(3)

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from kg.graph.store import ensure_indexes

    ensure_indexes()


def _throwaway_postgres(server_url: str, name: str) -> str:
    """A database and a role of its own with a random password (a worker with DEBUG off
    refuses a well-known one), both dropped at exit."""
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    database = name.replace("-", "_").lower()
    password = secrets.token_hex(16)
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE \"{database}\" LOGIN PASSWORD '{password}'")
        admin.execute(f'CREATE DATABASE "{database}" OWNER "{database}"')

    def drop() -> None:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
            admin.execute(f'DROP ROLE IF EXISTS "{database}"')

    atexit.register(drop)
    parts = urlsplit(server_url)
    netloc = f"{database}:{password}@{parts.hostname}:{parts.port or 5432}"
    return urlunsplit((parts.scheme, netloc, f"/{database}", "", ""))
