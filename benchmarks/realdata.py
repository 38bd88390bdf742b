"""Quality on real public data (the datasets folder beside the project), dev and test apart.

The rules were tuned on the dev split only; the test split's figures are the ones to quote.
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
            nodes = result["nodes"]
            print(
                f"{split} {dataset}: nodes P {nodes['precision']} R {nodes['recall']} "
                f"({result['items']} items, {result['items_per_second']} items/s)"
            )
        print(f"{split} 18F PRD coverage: {figures.get('prd_coverage_18f')}")


if __name__ == "__main__":
    main()
