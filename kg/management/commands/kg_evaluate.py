"""Score the pipeline on the annotated gold conversations (nothing is kept afterwards)."""

from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from kg.evaluation import evaluate, gold_paths


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

    def handle(self, *args, gold: Path, as_json: bool, **options) -> None:
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


def _dumps(value: dict) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)
