"""The embedded graph + broker: started by the command, stopped by Ctrl-C, data kept."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from kg.graph import GraphScope, NodeRecord, make_client, store
from kg.operations.embedded import EmbeddedServer, free_ports, port_answers

ROOT = Path(__file__).resolve().parents[2]
SCOPE = GraphScope(org="o", project="durable")


def _wait(condition, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


NODE = NodeRecord(
    uid="n1",
    number=1,
    type="pain",
    label="slow sync",
    key="slow sync",
    valid_at="2026-03-01T00:00:00Z",
)


def test_data_survives_a_restart(tmp_path):
    redis_port, graph_port = free_ports(2)
    server = EmbeddedServer(redis_port=redis_port, graph_port=graph_port, data_dir=tmp_path)
    node = NODE
    with server:
        client = make_client(server.graph_uri)
        store.write_nodes(SCOPE, [node], client=client)
        client.close()
    assert not port_answers(server.redis_port)
    with server:
        client = make_client(server.graph_uri)
        assert [n.label for n in store.list_nodes(SCOPE, client=client)] == ["slow sync"]
        client.close()


def test_command_serves_both_ports_and_stops_on_ctrl_c(tmp_path):
    redis_port, graph_port = free_ports(2)
    process = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "embedded_services",
            "--graph-port",
            str(graph_port),
            "--redis-port",
            str(redis_port),
            "--data",
            str(tmp_path),
            "--bolt",
        ],
        cwd=ROOT,
        env={**os.environ, "DEBUG": "true"},  # a development start, as `make services` is
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert _wait(lambda: port_answers(redis_port) and port_answers(graph_port))
        process.send_signal(signal.SIGINT)
        output, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, output
    assert "embedded services stopped" in output
    assert not port_answers(redis_port) and not port_answers(graph_port)
    assert (tmp_path / "redis-server.log").exists()


def test_the_server_asks_every_client_for_its_password_and_keeps_bolt_off(tmp_path):
    redis_port, graph_port = free_ports(2)
    server = EmbeddedServer(
        redis_port=redis_port, graph_port=graph_port, data_dir=tmp_path, password="s3cret-pw"
    )
    with server:
        with pytest.raises(redis.AuthenticationError):
            redis.Redis(port=server.redis_port).ping()
        assert redis.Redis.from_url(server.redis_url(1)).ping()
        client = make_client(server.graph_uri)  # the URL carries the password
        store.write_nodes(SCOPE, [NODE], client=client)
        assert [n.label for n in store.list_nodes(SCOPE, client=client)] == ["slow sync"]
        client.close()
        # Bolt would listen on every interface and let a client without credentials in
        assert not port_answers(server.graph_port)
        assert "s3cret-pw" not in " ".join(server.command())  # not visible in ps
        assert server.shown_url() == f"redis://:***@127.0.0.1:{server.redis_port}/0"
    listening = subprocess.run(["ss", "-ltn"], capture_output=True, text=True).stdout
    assert f"127.0.0.1:{server.redis_port}" not in listening  # stopped


def test_the_product_settings_carry_a_generated_password(tmp_path):
    # A fresh start of the settings (the test session's own point at the fixture's server).
    script = (
        "from django.conf import settings as s; "
        "print(s.EMBEDDED_PASSWORD, s.GRAPH_URI, s.CELERY_BROKER_URL, s.LOCK_REDIS_URL)"
    )
    env = {**os.environ, "DEBUG": "true", "GROUNDWORK_VAR_DIR": str(tmp_path)}
    for name in ("GRAPH_URI", "CELERY_BROKER_URL", "LOCK_REDIS_URL", "EMBEDDED_PASSWORD"):
        env.pop(name, None)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    runs = [
        subprocess.run(
            [sys.executable, "-c", f"import django; django.setup(); {script}"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        for _ in range(2)
    ]
    password, graph, broker, lock = runs[0]
    assert runs[1] == runs[0]  # generated once, then read
    secret = tmp_path / "embedded-password"
    assert secret.read_text().strip() == password and len(password) == 48
    assert secret.stat().st_mode & 0o777 == 0o600
    assert graph == f"falkordb://:{password}@127.0.0.1:16379"
    assert broker == f"redis://:{password}@127.0.0.1:16379/1"
    assert lock == f"redis://:{password}@127.0.0.1:16379/2"


def test_free_ports_are_distinct_even_in_a_range_of_two():
    # Picked one by one, two free ports could be the same one and the server's second listener
    # fails to bind; in a range of two ports any repeat would show at once.
    low = 31000
    for _ in range(20):
        ports = free_ports(2, low=low, high=low + 1)
        assert sorted(ports) == [low, low + 1]


class _LoadingRedis:
    """A stand-in that speaks redis's protocol as a server reading its data back does: it
    answers -LOADING until `loading_for` seconds have passed, then +PONG."""

    def __init__(self, loading_for: float) -> None:
        import socket
        import threading

        self.ready_at = time.monotonic() + loading_for
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen()
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            with connection:
                connection.recv(64)
                loading = time.monotonic() < self.ready_at
                connection.sendall(b"-LOADING Redis is loading\r\n" if loading else b"+PONG\r\n")


def test_a_server_still_loading_its_data_is_waited_for():
    from kg.operations.embedded import redis_state

    fake = _LoadingRedis(loading_for=1.5)
    try:
        assert redis_state(fake.port) == "loading"
        server = EmbeddedServer(fake.port, fake.port, Path("unused"), bolt=False)
        started = time.monotonic()
        server.wait_ready(wait_seconds=0.5)  # loading lasts longer than the wait: it goes on
        assert time.monotonic() - started >= 1.0
        assert redis_state(fake.port) == "ready"
    finally:
        fake.listener.close()
    assert redis_state(free_ports(1)[0]) == ""  # nothing answers there
