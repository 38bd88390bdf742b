"""Train the extraction gate on the dev splits and write kg/llm/offline/gate_weights.json."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from kg.realdata.gate_training import write_weights
from kg.realdata.suite import default_annotations, default_datasets


class Command(BaseCommand):
    help = (
        "Train the learned gate between candidates and the graph on the dev splits' "
        "annotations and write its weights (the same inputs write the same bytes)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--datasets", type=Path, default=None, help="the data sets folder")

    def handle(self, *args, datasets: Path | None, **options) -> None:
        folder = datasets or default_datasets()
        if not folder.is_dir():
            raise CommandError(f"no data sets at {folder}: pass --datasets")
        weights = write_weights(folder, default_annotations())
        self.stdout.write(
            f"{weights['examples']} candidates ({weights['real_examples']} real), "
            f"C={weights['regularisation_c']}, threshold {weights['threshold']}, "
            f"data {weights['data_hash'][:12]}"
        )
        for name, figures in weights["dev_cross_validated"].items():
            self.stdout.write(f"  {name}: {figures}")
