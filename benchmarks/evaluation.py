"""Extraction quality on the annotated conversations (offline engine), recorded in results/.

Gold conversations (tests/kg/gold) are the ones the rules were developed on; the unseen ones
(tests/kg/unseen) were written before the rules and never used to tune them.
Run: python -m benchmarks.evaluation
"""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.environment import RESULTS, bench_environment

TESTS_KG = Path(__file__).resolve().parent.parent / "tests" / "kg"


def main() -> None:
    bench_environment()
    from kg.operations.evaluation import evaluate, gold_paths

    figures = {name: evaluate(gold_paths(TESTS_KG / name)).as_dict() for name in ("gold", "unseen")}
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "evaluation.json").write_text(json.dumps(figures, indent=2) + "\n")
    for name, report in figures.items():
        nodes = report["nodes"]["all"]
        print(
            f"{name}: nodes P {nodes['precision']} R {nodes['recall']} F1 {nodes['f1']}; "
            f"resolution F1 {report['resolution_pairs']['f1']}; edges F1 {report['edges']['f1']}; "
            f"invalidations {report['invalidation_accuracy']}; "
            f"contradictions {report['contradiction_accuracy']}"
        )


if __name__ == "__main__":
    main()
