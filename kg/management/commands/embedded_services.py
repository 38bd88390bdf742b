"""Run the embedded graph (FalkorDB over Bolt) and broker (Redis) in the foreground."""

from __future__ import annotations

import signal
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from kg.embedded import EmbeddedServer, EmbeddedServiceError


class Command(BaseCommand):
    help = "Start redis-server with the FalkorDB module (Bolt enabled); stop with Ctrl-C."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--graph-port", type=int, default=settings.EMBEDDED_GRAPH_PORT)
        parser.add_argument("--redis-port", type=int, default=settings.EMBEDDED_REDIS_PORT)
        parser.add_argument("--data", type=Path, default=settings.EMBEDDED_DATA_DIR)

    def handle(self, *args, graph_port: int, redis_port: int, data: Path, **options) -> None:
        server = EmbeddedServer(redis_port=redis_port, graph_port=graph_port, data_dir=data)
        stopping = False

        def stop(signum, frame) -> None:
            nonlocal stopping
            stopping = True

        # Installed before the server starts: a Ctrl-C during start-up must still stop it.
        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        try:
            try:
                server.start()
            except EmbeddedServiceError as exc:
                raise CommandError(str(exc)) from exc
            self.stdout.write(
                f"graph: {server.graph_uri} (Bolt: {server.bolt_uri})  broker: {server.redis_url()}"
                f"  data: {data}\n"
                "Ctrl-C stops both."
            )
            while not stopping and server.process is not None and server.process.poll() is None:
                time.sleep(0.3)
        finally:
            server.stop()
            self.stdout.write("embedded services stopped")
