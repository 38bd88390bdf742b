"""How long the pages a person waits for take at N nodes: the research view, the chat's
research panel (and its poll) and the API's lists (Django's test client, a logged-in member).

A throwaway project gets N nodes of every type (each quoting one to three of N/2 messages,
every 9th closed), an edge from each segment to the next pain and a contradiction per 500
nodes, written straight through kg.graph.store (the pipeline's cost is write_path's). Each
address is then asked ROUNDS times: the first page, a page in the middle and the last, a
type and a word filter, the contradicted ones; the panel whole and its unchanged poll; the
API's nodes, edges and contradictions. Target: p95 ≤ 200 ms for every address; an address
that misses it is named under "missed" in results/read_latency.json.
Run: python -m benchmarks.read_latency [nodes]   (default 100,000)
"""

from __future__ import annotations

import bisect
import json
import statistics
import sys
import time

from benchmarks.environment import RESULTS, bench_environment

ROUNDS = 20
TARGET_P95_MS = 200
WRITE_BATCH = 1_000
WORDS = (
    "slow sync",
    "lost orders",
    "paper maps",
    "late payouts",
    "battery drain",
    "login loop",
    "missing receipts",
    "route planning",
    "offline mode",
    "price changes",
)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _figures(values: list[float]) -> dict:
    return {
        "runs": len(values),
        "p50_ms": round(statistics.median(values) * 1000, 1),
        "p95_ms": round(_percentile(values, 0.95) * 1000, 1),
        "max_ms": round(max(values) * 1000, 1),
    }


def _build(nodes: int):
    """The project, its member, and the graph written whole."""
    from django.contrib.auth import get_user_model

    from kg.graph import ContradictionRecord, EdgeRecord, Evidence, NodeRecord, store
    from kg.graph.records import graph_time
    from kg.ledger.episodes import EpisodeInput, record_new_episodes
    from kg.models import EpisodeKind, Membership, Organization, Project, Role
    from kg.ontology import NODE_TYPES
    from kg.pipeline.revision import graph_changed

    org = Organization.objects.create(slug="bench", name="bench")
    project = Project.objects.create(organization=org, slug="reads", name="Reads")
    user = get_user_model().objects.create_user(username="reader")
    Membership.objects.create(user=user, organization=org, role=Role.VIEWER)
    texts = (
        f"Message {i}: couriers report {WORDS[i % len(WORDS)]} again."
        for i in range(max(nodes // 2, 1))
    )
    episodes, _ = record_new_episodes(
        project, (EpisodeInput(content=t, kind=EpisodeKind.IMPORT) for t in texts), enqueue=False
    )
    scope = project.graph_scope

    def evidence(n: int) -> list[Evidence]:
        items = []
        for k in range(1 + n % 3):
            e = episodes[(n * 7 + k * 13) % len(episodes)]
            items.append(
                Evidence(
                    episode_uid=str(e.uid),
                    episode_number=e.number,
                    quote="couriers report",
                    start=e.content.index("couriers"),
                    end=e.content.index("couriers") + len("couriers report"),
                    valid_at=graph_time(e.valid_at),
                )
            )
        return sorted(items, key=lambda i: (i.valid_at, i.episode_number))

    types = list(NODE_TYPES)
    for start in range(1, nodes + 1, WRITE_BATCH):
        batch = []
        for n in range(start, min(start + WRITE_BATCH, nodes + 1)):
            label = f"{WORDS[n % len(WORDS)]} {types[n % len(types)]} {n}"
            batch.append(
                NodeRecord(
                    uid=f"bench-{n}",
                    number=n,
                    type=types[n % len(types)],
                    label=label,
                    key=label.lower(),
                    confidence=(n * 37) % 100,
                    valid_at="2026-01-01T00:00:00.000000Z",
                    invalid_at="2026-02-01T00:00:00.000000Z" if n % 9 == 0 else None,
                    evidence=evidence(n),
                )
            )
        store.write_nodes(scope, batch)
    kind = {n: types[n % len(types)] for n in range(1, nodes + 1)}
    pains = [n for n in range(1, nodes + 1) if kind[n] == "pain"]
    edges = []
    for n in range(1, nodes + 1):
        at = bisect.bisect_right(pains, n)
        if kind[n] == "segment" and at < len(pains):
            edges.append(
                EdgeRecord(
                    uid=f"bench-edge-{n}",
                    relation="experiences",
                    source=f"bench-{n}",
                    target=f"bench-{pains[at]}",
                    confidence=60,
                    valid_at="2026-01-01T00:00:00.000000Z",
                )
            )
    for start in range(0, len(edges), WRITE_BATCH):
        store.write_edges(scope, edges[start : start + WRITE_BATCH])
    # One contradiction per 500 nodes: pains are one type in len(types).
    for i in range(0, len(pains) - 1, max(2, 500 // len(types))):
        a, b = pains[i], pains[i + 1]
        store.write_contradiction(
            scope,
            ContradictionRecord(
                uid=f"bench-c-{a}-{b}",
                a=f"bench-{a}",
                b=f"bench-{b}",
                subject="price",
                quote_a="couriers report",
                quote_b="couriers report",
                opened_at="2026-01-02T00:00:00.000000Z",
            ),
        )
    graph_changed(project)
    return project, user


def _time(client, address: str, rounds: int, **headers) -> tuple[list[float], int]:
    spent = []
    status = 0
    for _ in range(rounds):
        begun = time.perf_counter()
        response = client.get(address, **headers)
        if getattr(response, "streaming", False):
            b"".join(response.streaming_content)
        spent.append(time.perf_counter() - begun)
        status = response.status_code
    return spent, status


def main() -> None:
    bench_environment()
    from django.test import Client
    from rest_framework.authtoken.models import Token

    nodes = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    started = time.perf_counter()
    project, user = _build(nodes)
    built = time.perf_counter() - started
    browser = Client()
    browser.force_login(user)
    api = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    research = f"/projects/{project.slug}/research/"
    last_page = max((nodes + 49) // 50, 1)
    panel = f"/projects/{project.slug}/panel/"
    base = f"/api/projects/{project.slug}/"
    etag = browser.get(panel)["ETag"]
    addresses = {
        "research: first page": (browser, research, {}),
        "research: middle page": (browser, f"{research}?page={last_page // 2 or 1}", {}),
        "research: last page": (browser, f"{research}?page={last_page}", {}),
        "research: one type": (browser, f"{research}?type=pain&page=2", {}),
        "research: words": (browser, f"{research}?q=battery&valid=active", {}),
        "research: contradicted": (browser, f"{research}?status=contradicted", {}),
        "panel": (browser, panel, {}),
        "panel: unchanged poll": (browser, panel, {"HTTP_IF_NONE_MATCH": etag}),
        "api: nodes": (api, f"{base}nodes/", {}),
        "api: nodes, middle page": (api, f"{base}nodes/?page={last_page // 2 or 1}", {}),
        "api: edges": (api, f"{base}edges/", {}),
        "api: contradictions": (api, f"{base}contradictions/?status=open", {}),
        "api: a node": (api, f"{base}nodes/{max(nodes // 2, 1)}/", {}),
    }
    figures = {}
    for name, (client, address, headers) in addresses.items():
        spent, status = _time(client, address, ROUNDS, **headers)
        figures[name] = _figures(spent) | {"status": status}
    missed = [n for n, f in figures.items() if f["p95_ms"] > TARGET_P95_MS]
    report = {
        "nodes": nodes,
        "messages": max(nodes // 2, 1),
        "build_seconds": round(built, 1),
        "rounds": ROUNDS,
        "target_p95_ms": TARGET_P95_MS,
        "addresses": figures,
        "missed": missed,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "read_latency.json").write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
