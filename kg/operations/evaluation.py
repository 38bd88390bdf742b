"""kg_evaluate: run the pipeline on annotated gold conversations and score it.

Each gold file (tests/kg/gold/*.json) lists messages and the expected nodes (with the quotes
that mention them), edges, invalidations and contradictions. Everything runs inside a
transaction that is rolled back, and the throwaway projects' graphs are deleted afterwards.

Matching: an expected node matches an extracted node of the same type when one of its
mentions overlaps one of the node's evidence quotes in the same message (one contains the
other, ignoring case).
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from itertools import combinations
from pathlib import Path

from django.db import transaction
from pydantic import BaseModel, Field

from kg.graph import NodeRecord, store
from kg.ledger.episodes import EpisodeInput, record_episode
from kg.models import Organization, Project
from kg.pipeline.ingest import episode_ingest


class Score(BaseModel):
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def add(self, other: Score) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn

    def summary(self) -> dict:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": round(self.precision, 3),
            "recall": round(self.recall, 3),
            "f1": round(self.f1, 3),
        }


class Accuracy(BaseModel):
    correct: int = 0
    total: int = 0

    @property
    def value(self) -> float:
        return self.correct / self.total if self.total else 1.0


class EvaluationReport(BaseModel):
    files: list[str] = Field(default_factory=list)
    nodes_by_type: dict[str, Score] = Field(default_factory=dict)
    resolution_pairs: Score = Field(default_factory=Score)
    edges: Score = Field(default_factory=Score)
    invalidations: Accuracy = Field(default_factory=Accuracy)
    contradictions: Accuracy = Field(default_factory=Accuracy)
    false_contradictions: int = 0

    def nodes_total(self) -> Score:
        total = Score()
        for score in self.nodes_by_type.values():
            total.add(score)
        return total

    def as_dict(self) -> dict:
        return {
            "files": self.files,
            "nodes": {t: s.summary() for t, s in sorted(self.nodes_by_type.items())}
            | {"all": self.nodes_total().summary()},
            "resolution_pairs": self.resolution_pairs.summary(),
            "edges": self.edges.summary(),
            "invalidation_accuracy": round(self.invalidations.value, 3),
            "invalidations": self.invalidations.model_dump(),
            "contradiction_accuracy": round(self.contradictions.value, 3),
            "contradictions": self.contradictions.model_dump(),
            "false_contradictions": self.false_contradictions,
        }


def _overlaps(a: str, b: str) -> bool:
    a, b = a.lower().strip(), b.lower().strip()
    return bool(a and b) and (a in b or b in a)


def _lands_in(mention: dict, nodes: list[NodeRecord], node_type: str) -> NodeRecord | None:
    for node in nodes:
        if node.type != node_type:
            continue
        for evidence in node.evidence:
            if evidence.episode_number == mention["number"] and _overlaps(
                evidence.quote, mention["quote"]
            ):
                return node
    return None


def _parse_at(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))


def evaluate_file(path: Path, report: EvaluationReport) -> None:
    gold = json.loads(path.read_text(encoding="utf-8"))
    with transaction.atomic():
        org = Organization.objects.create(slug=f"eval-{uuid.uuid4().hex[:10]}", name="evaluation")
        project = Project.objects.create(
            organization=org,
            slug=f"{org.slug}-{gold['name']}"[:50].replace("_", "-"),
            name=gold["product"],
            language=gold["language"],
        )
        scope = project.graph_scope
        try:
            for message in gold["messages"]:
                episode = record_episode(
                    project,
                    EpisodeInput(
                        content=message["text"],
                        author=message.get("author", ""),
                        valid_at=_parse_at(message["at"]),
                    ),
                    enqueue=False,
                )
                episode_ingest(episode.pk)
            _score(
                gold,
                store.list_nodes(scope),
                store.list_edges(scope),
                store.list_contradictions(scope),
                report,
            )
        finally:  # the SQL side is rolled back; the graph side is deleted
            store.delete_project_graph(scope)
        transaction.set_rollback(True)
    report.files.append(path.name)


def _score(gold: dict, nodes, edges, contradictions, report: EvaluationReport) -> None:
    expected = gold["expected"]
    matched: dict[str, NodeRecord] = {}  # expected label → node
    used: set[str] = set()
    landing: dict[tuple[str, int], NodeRecord | None] = {}
    for i, item in enumerate(expected["nodes"]):
        score = report.nodes_by_type.setdefault(item["type"], Score())
        hit = None
        for j, mention in enumerate(item["mentions"]):
            node = _lands_in(
                {"number": mention["message"], "quote": mention["quote"]}, nodes, item["type"]
            )
            landing[(str(i), j)] = node
            if hit is None and node is not None and node.uid not in used:
                hit = node
        if hit is not None:
            used.add(hit.uid)
            matched[item["label"]] = hit
            score.tp += 1
        else:
            score.fn += 1
    for node in nodes:  # every extracted node no expected node claimed is a false positive
        if node.uid not in used:
            report.nodes_by_type.setdefault(node.type, Score()).fp += 1

    # Resolution: pairs of mentions that should share a node vs. pairs that do.
    mentions = list(landing.items())
    for (a_key, a_node), (b_key, b_node) in combinations(mentions, 2):
        same_expected = a_key[0] == b_key[0]
        same_actual = a_node is not None and b_node is not None and a_node.uid == b_node.uid
        if same_expected and same_actual:
            report.resolution_pairs.tp += 1
        elif same_expected:
            report.resolution_pairs.fn += 1
        elif same_actual:
            report.resolution_pairs.fp += 1

    actual_edges = {(e.relation, e.source, e.target): e for e in edges}
    found_edges: set[tuple[str, str, str]] = set()
    for edge in expected.get("edges", []):
        source, target = matched.get(edge["source"]), matched.get(edge["target"])
        key = (edge["relation"], source.uid, target.uid) if source and target else None
        if key and key in actual_edges:
            report.edges.tp += 1
            found_edges.add(key)
        else:
            report.edges.fn += 1
    report.edges.fp += len(set(actual_edges) - found_edges)

    for item in expected.get("invalidations", []):
        report.invalidations.total += 1
        target = matched.get(item["target"])
        if target is None:
            continue
        closed = [
            e
            for e in edges
            if e.relation == item["relation"] and e.target == target.uid and e.invalid_at
        ]
        if any(_parse_at(e.invalid_at) == _parse_at(item["at"]) for e in closed):
            report.invalidations.correct += 1

    pairs = {frozenset((c.a, c.b)) for c in contradictions}
    expected_pairs = set()
    for a_label, b_label in expected.get("contradictions", []):
        report.contradictions.total += 1
        a, b = matched.get(a_label), matched.get(b_label)
        if a and b and frozenset((a.uid, b.uid)) in pairs:
            report.contradictions.correct += 1
            expected_pairs.add(frozenset((a.uid, b.uid)))
    report.false_contradictions += len(pairs - expected_pairs)


def evaluate(paths: list[Path]) -> EvaluationReport:
    report = EvaluationReport()
    for path in paths:
        evaluate_file(path, report)
    return report


def gold_paths(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.json"))
