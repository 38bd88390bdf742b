"""The offline engine's modules: each binds a top-level name once (a second binding silently
replaces the first for every rule that reads it, wherever that rule stands in the file), none
passes the size limit, and moving rules between them changes no label."""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from pathlib import Path

import pytest

import kg.language
import kg.llm.offline
from kg.realdata.suite import default_annotations, default_datasets
from tests.kg.offline_golden import GOLDEN_NAME, dev_items, digest, labels_of, sample_keys

DATASETS = default_datasets()
ANNOTATIONS = default_annotations()
needs_data = pytest.mark.skipif(
    not DATASETS.is_dir(), reason=f"the real data sets are not at {DATASETS}"
)

_MODULES = sorted(
    [
        *Path(kg.llm.offline.__file__).parent.glob("*.py"),
        *Path(kg.language.__file__).parent.glob("*.py"),
    ]
)


def _top_level_names(tree: ast.Module) -> list[str]:
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.append(node.name)
    return names


@pytest.mark.parametrize("module", _MODULES, ids=lambda p: p.name)
def test_each_top_level_name_is_bound_once(module: Path) -> None:
    names = _top_level_names(ast.parse(module.read_text(encoding="utf-8")))
    twice = sorted(name for name, count in Counter(names).items() if count > 1)
    assert twice == [], f"{module.name} binds {twice} more than once"


_MAX_LINES = 1500


def test_no_module_of_the_offline_engine_passes_the_size_limit() -> None:
    """A reader finds a rule by its concern: a module past the limit is split by concern."""
    offline = Path(kg.llm.offline.__file__).parent
    long = {
        path.name: lines
        for path in sorted(offline.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > _MAX_LINES
    }
    assert long == {}, f"over {_MAX_LINES} lines: {long}"


@needs_data
def test_labels_on_every_dev_item_of_every_set_are_those_recorded(settings) -> None:
    """Moving rules between modules changes no label: each dev item's labels match the digest
    recorded before the rules moved, and a fixed sample of each set its recorded labels
    (tests/kg/offline_golden.py says which). The rules' labels: the learned gate after them
    is off here (tests/kg/test_extraction_gate.py tests it)."""
    settings.EXTRACTION_GATE = False
    golden = json.loads((ANNOTATIONS / GOLDEN_NAME).read_text(encoding="utf-8"))
    items = dev_items(DATASETS, ANNOTATIONS)
    assert sorted(golden["digests"]) == sorted(items)
    assert sorted(golden["sample"]) == sorted(sample_keys(items))
    assert {key.split(":", 1)[0] for key in golden["sample"]} >= {
        "en_app_reviews_features",
        "ru_vscode_bug_reports",
    }
    labels = {key: labels_of(item) for key, item in items.items()}
    changed = sorted(key for key in items if digest(labels[key]) != golden["digests"][key])
    assert changed == [], f"{len(changed)} items changed, e.g. {changed[:10]}"
    differ = {key: labels[key] for key in golden["sample"] if labels[key] != golden["sample"][key]}
    assert differ == {}, json.dumps(differ, ensure_ascii=False)[:3000]


def test_each_word_list_file_is_read_by_a_rule() -> None:
    """The word lists kept as data files beside the rules: each is read by one module, and
    every list a module reads is there."""
    offline = Path(kg.llm.offline.__file__).parent
    sources = "\n".join(p.read_text(encoding="utf-8") for p in offline.glob("*.py"))
    read = set(re.findall(r'listed\("(\w+)"\)', sources))
    files = {p.stem for p in (offline / "words").glob("*.txt")}
    assert len(files) >= 40
    assert read == files
