"""The offline engine's labels on every set's dev items, as recorded in
tests/kg/real/offline_labels_golden.json: a digest of each item's labels, and the labels
themselves for a fixed sample of each set (to read what changed).

When a rule changes labels on purpose, record them again and say in the commit which changed
and why: `DEBUG=true python manage.py shell -c "from tests.kg.offline_golden import record;
print(record())"` rewrites the file and returns how many items' labels changed, by set."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from kg.realdata import datasets as sets
from kg.realdata.datasets import Item
from kg.realdata.extraction import extract_nodes

GOLDEN_NAME = "offline_labels_golden.json"
PER_SET = 40  # items a set contributes to the sample, spread over its dev split

_READERS: dict[str, Callable[[Path, Path], list[Item]]] = {
    sets.APP_REVIEWS: lambda data, notes: sets.app_review_sentences(data),
    sets.USER_STORIES: lambda data, notes: sets.user_stories(data),
    sets.RU_VSCODE: lambda data, notes: sets.ru_vscode_issues(data, notes / "ru_vscode_dev.json"),
    sets.RU_VSCODE_EXTRA: lambda data, notes: sets.ru_vscode_extra_issues(
        notes / "ru_vscode_extra_dev.json"
    ),
    sets.SEAMONKEY: lambda data, notes: sets.seamonkey_reports(data, notes / "seamonkey_dev.json"),
    sets.SEAMONKEY_RU: lambda data, notes: sets.annotated_tickets(
        notes / "seamonkey_dev_ru.json", "ru"
    ),
    sets.HADOOP: lambda data, notes: sets.hadoop_reports(data, notes / "hadoop_dev.json"),
}


def dev_items(datasets: Path, annotations: Path) -> dict[str, Item]:
    """Every dev item of every set, keyed "<set>:<item id>"."""
    found: dict[str, Item] = {}
    for name, reader in _READERS.items():
        for item in reader(datasets, annotations):
            if item.split == "dev":
                found.setdefault(f"{name}:{item.id}", item)
    return found


def sample_keys(items: dict[str, Item]) -> list[str]:
    """PER_SET keys of each set, evenly spaced over its dev items in id order."""
    chosen: list[str] = []
    for name in _READERS:
        keys = sorted(k for k in items if k.split(":", 1)[0] == name)
        step = max(1, len(keys) // PER_SET)
        chosen += keys[::step][:PER_SET]
    return chosen


def labels_of(item: Item) -> list[list[str]]:
    """The accepted nodes of an item as [type, label, quote], in the engine's order."""
    return [[n.candidate.type, n.candidate.label, n.candidate.quote] for n in extract_nodes(item)]


def digest(labels: list[list[str]]) -> str:
    """A short fingerprint of an item's labels: any change to a type, label or quote shows."""
    text = json.dumps(labels, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def record(datasets: Path | None = None, annotations: Path | None = None) -> dict[str, int]:
    """Record every dev item's labels as they are now; how many items changed, by set."""
    from kg.realdata.suite import default_annotations, default_datasets

    datasets = datasets or default_datasets()
    annotations = annotations or default_annotations()
    path = annotations / GOLDEN_NAME
    before = json.loads(path.read_text(encoding="utf-8"))["digests"] if path.exists() else {}
    items = dev_items(datasets, annotations)
    labels = {key: labels_of(item) for key, item in items.items()}
    digests = {key: digest(labels[key]) for key in sorted(items)}
    sample = {key: labels[key] for key in sorted(sample_keys(items))}
    text = json.dumps({"digests": digests, "sample": sample}, ensure_ascii=False, indent=1)
    path.write_text(text + "\n", encoding="utf-8")
    changed = Counter(k.split(":", 1)[0] for k in digests if before.get(k) != digests[k])
    return dict(sorted(changed.items()))
