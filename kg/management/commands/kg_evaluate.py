"""Score the pipeline on the annotated gold conversations (nothing is kept afterwards)."""

from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from kg.operations.evaluation import evaluate, gold_paths
from kg.realdata.suite import registered_suites


class Command(BaseCommand):
    help = "Run the pipeline on gold conversations and print precision/recall/F1 per node type."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--gold",
            type=Path,
            default=Path(settings.BASE_DIR) / "tests" / "kg" / "gold",
            help="a gold JSON file or a folder of them",
        )
        parser.add_argument("--json", action="store_true", dest="as_json", help="print JSON only")
        parser.add_argument(
            "--suite",
            choices=("gold", "real", *sorted(registered_suites())),
            default="gold",
            help="gold: the annotated conversations (regression); real: the public data sets, "
            "dev and test apart; ask: questions to the research over the public data sets",
        )
        parser.add_argument("--datasets", type=Path, default=None, help="the data sets folder")
        parser.add_argument("--split", choices=("dev", "test", "both"), default="both")

    def handle(self, *args, gold: Path, as_json: bool, suite: str, **options) -> None:
        if suite == "real":
            self._real(options["datasets"], options["split"], as_json)
            return
        if suite in registered_suites():
            self._registered(suite, options["datasets"], options["split"])
            return
        paths = gold_paths(gold) if gold.is_dir() else [gold]
        if not paths or not all(p.exists() for p in paths):
            raise CommandError(f"no gold conversations at {gold}")
        report = evaluate(paths).as_dict()
        if as_json:
            self.stdout.write(_dumps(report))
            return
        self.stdout.write(f"gold conversations: {', '.join(report['files'])}")
        self.stdout.write(f"{'node type':<12} {'P':>6} {'R':>6} {'F1':>6}  (tp/fp/fn)")
        for node_type, s in report["nodes"].items():
            self.stdout.write(
                f"{node_type:<12} {s['precision']:>6.2f} {s['recall']:>6.2f} {s['f1']:>6.2f}"
                f"  ({s['tp']}/{s['fp']}/{s['fn']})"
            )
        for name in ("resolution_pairs", "edges"):
            s = report[name]
            self.stdout.write(
                f"{name:<17} P {s['precision']:.2f} R {s['recall']:.2f} F1 {s['f1']:.2f}"
            )
        self.stdout.write(f"invalidation accuracy  {report['invalidation_accuracy']:.2f}")
        self.stdout.write(
            f"contradiction accuracy {report['contradiction_accuracy']:.2f}"
            f" (false contradictions: {report['false_contradictions']})"
        )

    def _registered(self, suite: str, datasets: Path | None, split: str) -> None:
        from kg.realdata.suite import SPLITS, default_annotations, default_datasets

        datasets = datasets or default_datasets()
        if not datasets.is_dir():
            raise CommandError(f"no data sets at {datasets}")
        splits = SPLITS if split == "both" else (split,)
        report = registered_suites()[suite](datasets, default_annotations(), splits)
        self.stdout.write(_dumps(report))

    def _real(self, datasets: Path | None, split: str, as_json: bool) -> None:
        from kg.realdata.suite import SPLITS, default_annotations, default_datasets, run_real_suite

        datasets = datasets or default_datasets()
        if not datasets.is_dir():
            raise CommandError(f"no data sets at {datasets}")
        splits = SPLITS if split == "both" else (split,)
        report = run_real_suite(datasets, default_annotations(), splits)
        if as_json:
            self.stdout.write(_dumps(report))
            return
        for name, figures in report.items():
            self.stdout.write(f"== {name} split")
            for dataset, result in figures["extraction"].items():
                s = result["nodes"]
                self.stdout.write(
                    f"{dataset:<26} items {result['items']:>5}  nodes P {s['precision']:.2f} "
                    f"R {s['recall']:.2f} F1 {s['f1']:.2f}"
                )
                if "pains" in result:
                    p = result["pains"]
                    self.stdout.write(
                        f"{'':<26} pains from negative sentences: P {p['precision']:.2f} "
                        f"R {p['recall']:.2f}"
                    )
            self.stdout.write(_dumps({k: v for k, v in figures.items() if k != "extraction"}))


def _dumps(value: dict) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)
