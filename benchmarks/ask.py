"""Questions to the research, scored on real public data (tests/kg/real/ask_questions.jsonl).

Each corpus is recorded as a throwaway project, run through the pipeline (offline engine) and
asked its questions; answered share, refusal precision/recall and citation precision/recall are
written per split and question language to results/ask.json. The relevance bars in chat.answers
were chosen on the dev questions; the test figures are the ones to quote.
Run: python -m benchmarks.ask [dev|test]
"""

from __future__ import annotations

import json
import sys

from benchmarks.environment import RESULTS, bench_environment


def main() -> None:
    bench_environment()
    from chat.realdata import evaluate_ask
    from kg.realdata.suite import default_annotations, default_datasets

    splits = tuple(sys.argv[1:]) or ("dev", "test")
    report = evaluate_ask(default_datasets(), default_annotations(), splits)
    RESULTS.mkdir(exist_ok=True)
    name = "ask.json" if len(splits) == 2 else f"ask_{splits[0]}.json"
    (RESULTS / name).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    for key, figures in report.items():
        if key != "corpora":
            print(key, figures)


if __name__ == "__main__":
    main()
