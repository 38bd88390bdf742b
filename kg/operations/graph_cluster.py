"""A Redis Cluster of FalkorDB servers, for an installation that outgrows one graph server.

Every project has a graph of its own (kg.graph.store.project_graph_name), one key: a cluster
spreads the projects over its shards by that key's hash slot, so each shard holds whole
projects and answers their queries alone. The product reaches all shards through one URI
naming any node (FalkorDB's client sees the cluster and routes each graph to its shard);
organization insights read each project's graph in turn.

`form_cluster` joins servers started with `--cluster-enabled yes` (EmbeddedServer's
`cluster=True`) into one cluster, the slots split evenly, with no replicas: each shard keeps its
data with its append-only file, and a restarted shard answers again with all of it. FalkorDB's
wheel ships no `redis-cli`, so this does what `redis-cli --cluster create` would.
"""

from __future__ import annotations

import time

import redis

SLOTS = 16384


class ClusterNotFormed(RuntimeError):
    pass


def slot_ranges(shards: int) -> list[tuple[int, int]]:
    """The hash slots split into `shards` contiguous ranges, first to last."""
    if shards < 1:
        raise ValueError("a cluster needs at least one shard")
    size, extra = divmod(SLOTS, shards)
    ranges, start = [], 0
    for index in range(shards):
        end = start + size + (index < extra) - 1
        ranges.append((start, end))
        start = end + 1
    return ranges


def form_cluster(
    ports: list[int], password: str = "", host: str = "127.0.0.1", wait_seconds: float = 30
) -> None:
    """Join the cluster-enabled servers on `ports` into one cluster owning every slot."""
    nodes = [redis.Redis(host=host, port=port, password=password or None) for port in ports]
    try:
        for node, (first, last) in zip(nodes, slot_ranges(len(nodes)), strict=True):
            node.execute_command("CLUSTER", "ADDSLOTSRANGE", first, last)
        for node in nodes[1:]:
            node.execute_command("CLUSTER", "MEET", host, ports[0])
        deadline = time.monotonic() + wait_seconds
        while not all(cluster_ready(node) for node in nodes):
            if time.monotonic() > deadline:
                raise ClusterNotFormed(f"the cluster on ports {ports} did not become ready")
            time.sleep(0.1)
    finally:
        for node in nodes:
            node.close()


def cluster_ready(node: redis.Redis) -> bool:
    """The node sees every slot served and knows every other node."""
    info = node.execute_command("CLUSTER", "INFO")
    text = info.decode() if isinstance(info, bytes) else str(info)
    return "cluster_state:ok" in text
