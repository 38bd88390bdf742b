"""The embedded graph + broker: started by the command, stopped by Ctrl-C, data kept."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from kg.embedded import EmbeddedServer, free_port, port_answers
from kg.graph import GraphScope, NodeRecord, make_client, store

ROOT = Path(__file__).resolve().parents[2]
SCOPE = GraphScope(org="o", project="durable")


def _wait(condition, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


def test_data_survives_a_restart(tmp_path):
    server = EmbeddedServer(redis_port=free_port(), graph_port=free_port(), data_dir=tmp_path)
    node = NodeRecord(
        uid="n1",
        number=1,
        type="pain",
        label="slow sync",
        key="slow sync",
        valid_at="2026-03-01T00:00:00Z",
    )
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
    redis_port, graph_port = free_port(), free_port()
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
        ],
        cwd=ROOT,
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
