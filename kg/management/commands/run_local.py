"""Run the whole product in the foreground: embedded graph + broker, a worker, the web server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from kg.operations.embedded import EmbeddedServer, EmbeddedServiceError, port_answers


class Command(BaseCommand):
    def _ready_text(self, host: str, port: int) -> str:
        password = os.environ.get("DEMO_PASSWORD", "groundwork-demo")
        return (
            "\n"
            f"  Groundwork is up: http://{host}:{port}/\n"
            f"  Demo login  demo / {password}   (or sign up at /accounts/signup/)\n"
            f"  API token   curl -X POST http://{host}:{port}/api/auth/token/ "
            f"-d username=demo -d password={password}\n"
        )

    help = "Start the embedded services, a Celery worker and the web server; Ctrl-C stops all."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))

    def handle(self, *args, port: int, host: str, **options) -> None:
        server = EmbeddedServer(
            redis_port=settings.EMBEDDED_REDIS_PORT,
            graph_port=settings.EMBEDDED_GRAPH_PORT,
            data_dir=settings.EMBEDDED_DATA_DIR,
            password=settings.EMBEDDED_PASSWORD,
        )
        children: list[subprocess.Popen] = []
        embedded_needed = not port_answers(settings.EMBEDDED_REDIS_PORT)
        try:
            if embedded_needed:
                server.start()
                self.stdout.write(f"embedded graph and broker {server.shown_url()}")
            # The web's start-up hook: constraints and indexes before the first request.
            call_command("kg_graph_setup")
            python = sys.executable
            children.append(
                subprocess.Popen(
                    [
                        python,
                        "-m",
                        "celery",
                        "-A",
                        "config",
                        "worker",
                        "--beat",
                        "-l",
                        "info",
                        "--concurrency",
                        "2",
                        "-s",
                        str(settings.VAR_DIR / "celerybeat-schedule"),
                    ]
                )
            )
            children.append(
                subprocess.Popen([python, "manage.py", "runserver", "--noreload", f"{host}:{port}"])
            )
            self.stdout.write(f"Groundwork is starting on http://{host}:{port}/  (Ctrl-C stops)")
            stopping = False
            announced = False

            def stop(signum, frame) -> None:
                nonlocal stopping
                stopping = True

            signal.signal(signal.SIGINT, stop)
            signal.signal(signal.SIGTERM, stop)
            while not stopping:
                if any(child.poll() is not None for child in children):
                    self.stderr.write("a component stopped; shutting down the rest")
                    break
                if not announced and port_answers(port, host):
                    # Said again once the web answers: the worker's banner scrolled it away.
                    announced = True
                    self.stdout.write(self._ready_text(host, port))
                time.sleep(0.5)
        except EmbeddedServiceError as exc:
            raise CommandError(str(exc)) from exc
        finally:
            for child in children:
                if child.poll() is None:
                    child.terminate()
            for child in children:
                try:
                    child.wait(15)
                except subprocess.TimeoutExpired:
                    child.kill()
            server.stop()
            self.stdout.write("stopped")
