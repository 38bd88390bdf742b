"""Every Cypher statement is checked by Neo4j's own parser (@neo4j-cypher/language-support).

This is how we know the statements that run on the embedded FalkorDB also run on Neo4j 5.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from kg.graph.cypher import all_statements, neo4j_statements

LINTER = Path(__file__).parent / "cypher_lint"


def _lint(statements: dict[str, str]) -> dict[str, list[dict]]:
    node = shutil.which("node")
    assert node, "Node.js is needed for the Cypher linter (make test installs its package)"
    assert (LINTER / "node_modules" / "@neo4j-cypher").is_dir(), "run: make test (npm install)"
    result = subprocess.run(
        [node, "lint.mjs"],
        input=json.dumps(statements),
        capture_output=True,
        text=True,
        cwd=LINTER,
        timeout=120,
        check=True,
    )
    return json.loads(result.stdout)


def test_every_statement_passes_neo4j_linter():
    # FalkorDB's dialect (its vector procedures) is run against the embedded server instead.
    statements = neo4j_statements()
    assert len(statements) > 20  # the module is really read, relation statements included
    report = _lint(statements)
    assert set(report) == set(statements)
    problems = {name: diags for name, diags in report.items() if diags}
    assert problems == {}


@pytest.mark.parametrize(
    "statement",
    ["MATCH (n:Entity {project: $project}) RETURN n ORDER BYY n", "MERGE (n:Entity {uid: 'x'}"],
)
def test_linter_catches_broken_cypher(statement):
    # Guards the guard: a broken statement must produce a diagnostic.
    assert _lint({"broken": statement})["broken"]


def test_statements_take_values_only_as_parameters():
    for name, statement in all_statements().items():
        # no string literals but constants: a resolved status, the empty default, and the
        # vector index's names and similarity function
        constants = (
            "'resolved'",
            "''",
            "'cosine'",
            "'NodeVector'",
            "'embedding'",
            "'node_vectors'",
        )
        for constant in constants:
            statement = statement.replace(constant, "")
        assert "'" not in statement, name
        if not name.startswith(("INDEXES", "NEO4J_", "FALKOR_")) and name != "PING":
            assert "$project" in statement or "$org" in statement, name
