"""The subjects an extraction prompt lists are counted from an index of the nodes that have a
subject, not by grouping over the project's nodes (real SQL: its query plan is asked)."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from kg.pipeline import candidates
from tests.kg.pipeline_helpers import make_project, node_record

pytestmark = pytest.mark.django_db


def _plan(queryset) -> str:
    if connection.vendor == "postgresql":
        # A test table is tiny: the planner would scan it whatever the indexes; forbid that.
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
            return queryset.explain()
    return queryset.explain()


def test_known_subjects_are_counted_from_the_subject_index(graph):
    project = make_project("subjects", name="RouteMate")
    nodes = [
        node_record(n, f"opinion {n}", "insight", subject=subject, stance="positive")
        for n, subject in enumerate(["price", "price", "speed", "", "", ""], start=1)
    ]
    nodes.append(
        node_record(9, "later opinion", "insight", subject="later", valid_at="2026-06-01T00:00:00Z")
    )
    candidates.index_nodes(project, nodes)

    before = "2026-03-01T00:00:00Z"
    assert candidates.known_subjects(project, before, 10) == ["price", "speed"]
    plan = _plan(candidates.subject_uses(project, before))
    assert "kg_indexed_node_subject" in plan
    if connection.vendor == "sqlite":
        assert "COVERING INDEX kg_indexed_node_subject" in plan  # the table is never read
