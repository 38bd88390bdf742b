"""Run the embedded graph (FalkorDB) and broker (Redis) in the foreground, on 127.0.0.1, with
the password the settings carry (EMBEDDED_PASSWORD, generated under var/ when unset)."""

from __future__ import annotations

import signal
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from kg.operations.embedded import EmbeddedServer, EmbeddedServiceError


class Command(BaseCommand):
    help = "Start redis-server with the FalkorDB module, password-protected; stop with Ctrl-C."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--graph-port", type=int, default=settings.EMBEDDED_GRAPH_PORT)
        parser.add_argument("--redis-port", type=int, default=settings.EMBEDDED_REDIS_PORT)
        parser.add_argument("--data", type=Path, default=settings.EMBEDDED_DATA_DIR)
        parser.add_argument(
            "--bolt",
            action="store_true",
            help="also open FalkorDB's Bolt listener on --graph-port: it listens on every "
            "interface and does not require the password, so only on a trusted machine",
        )

    def handle(
        self, *args, graph_port: int, redis_port: int, data: Path, bolt: bool, **options
    ) -> None:
        server = EmbeddedServer(
            redis_port=redis_port,
            graph_port=graph_port,
            data_dir=data,
            password=settings.EMBEDDED_PASSWORD,
            bolt=bolt,
        )
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
                f"graph and broker: {server.shown_url()}"
                + (f"  (Bolt: {server.bolt_uri})" if bolt else "")
                + f"  data: {data}  password: {settings.VAR_DIR / 'embedded-password'}"
                " or EMBEDDED_PASSWORD\n"
                "Ctrl-C stops both."
            )
            while not stopping and server.process is not None and server.process.poll() is None:
                time.sleep(0.3)
        finally:
            server.stop()
            self.stdout.write("embedded services stopped")
