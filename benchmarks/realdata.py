"""Quality on real public data (the datasets folder beside the project), dev and test apart.

The rules were tuned on the dev split only; the test split's figures are the ones to quote.
Each extraction figure is printed with its 95% bootstrap interval over items.
Run: python -m benchmarks.realdata
"""

from __future__ import annotations

import json

from benchmarks.environment import RESULTS, bench_environment


def main() -> None:
    bench_environment()
    from kg.realdata.suite import default_annotations, default_datasets, run_real_suite

    report = run_real_suite(default_datasets(), default_annotations())
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "realdata.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    for split, figures in report.items():
        for dataset, result in figures["extraction"].items():
            nodes, interval = result["nodes"], result["nodes_interval"]
            print(
                f"{split} {dataset}: nodes P {nodes['precision']} {interval['precision']} "
                f"R {nodes['recall']} {interval['recall']} "
                f"({result['items']} items, {result['items_per_second']} items/s scored, "
                f"{result['extraction_items_per_second']} items/s extracted)"
            )
        queries = figures.get("feature_queries") or {}
        print(
            f"{split} reviews landing on a known feature: P {queries.get('precision')} "
            f"R {queries.get('recall')} ({queries.get('pairs')} judged pairs)"
        )
        print(f"{split} 18F PRD coverage: {figures.get('prd_coverage_18f')}")
        for dataset, agreement in figures["annotation_agreement"].items():
            pair, engine = agreement["second_against_first"], agreement["engine_against_second"]
            print(
                f"{split} {dataset}: two blind annotations agree at F1 {pair['f1']} "
                f"(P {pair['precision']} R {pair['recall']}); the engine against the second: "
                f"P {engine['precision']} R {engine['recall']}"
            )


if __name__ == "__main__":
    main()
