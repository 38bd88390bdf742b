"""`kg_evaluate --suite real`: every real-data figure, dev and test apart.

Apps that kg may not import (artifacts scores the PRD built from real research) add their part
with `register_part`, called from their AppConfig.ready.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from django.conf import settings

from kg.realdata.extraction import evaluate_extraction
from kg.realdata.splits import Split

Part = Callable[[Path, Path, Split], dict]
_PARTS: dict[str, Part] = {}
# Whole suites of their own (`kg_evaluate --suite <name>`), e.g. chat's questions to the
# research: called with the data sets, the annotations and the splits.
Suite = Callable[[Path, Path, tuple[Split, ...]], dict]
_SUITES: dict[str, Suite] = {}
SPLITS: tuple[Split, ...] = ("dev", "test")


def register_part(name: str, part: Part) -> None:
    _PARTS[name] = part


def register_suite(name: str, suite: Suite) -> None:
    _SUITES[name] = suite


def registered_suites() -> dict[str, Suite]:
    return dict(_SUITES)


def default_datasets() -> Path:
    return Path(settings.BASE_DIR).parent / "shared" / "datasets"


def default_annotations() -> Path:
    return Path(settings.BASE_DIR) / "tests" / "kg" / "real"


def run_real_suite(
    datasets: Path, annotations: Path, splits: tuple[Split, ...] = SPLITS
) -> dict[str, dict]:
    from kg.realdata.agreement import evaluate_agreement
    from kg.realdata.feature_queries import evaluate_feature_queries
    from kg.realdata.resolution import evaluate_resolution

    report: dict[str, dict] = {}
    for split in splits:
        figures = {"extraction": evaluate_extraction(datasets, annotations, split)}
        figures["resolution"] = evaluate_resolution(datasets, split)
        figures["feature_queries"] = evaluate_feature_queries(datasets, split)
        figures["annotation_agreement"] = evaluate_agreement(datasets, annotations, split)
        for name, part in sorted(_PARTS.items()):
            figures[name] = part(datasets, annotations, split)
        report[split] = figures
    return report
