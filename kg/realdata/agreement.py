"""How far two blind annotations of the same tickets agree, and the engine against each.

Two careful readers never agree fully (one splits a symptom in two, one calls a workaround
what the other calls a pain): their agreement is the ceiling an extraction figure is read
against. The second annotation is scored by the same matcher as the engine, as if it were one.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from kg.llm.prompts.extraction_models import CandidateNode
from kg.operations.evaluation import Score
from kg.pipeline.extract import AcceptedNode
from kg.realdata import datasets as sets
from kg.realdata.datasets import GoldNode, Item
from kg.realdata.extraction import extract_nodes, score_item
from kg.realdata.splits import Split


def second_annotation(path: Path) -> dict[str, list[dict]]:
    """The nodes of each item of a second annotation file, by item id."""
    return {e["id"]: e["nodes"] for e in json.loads(path.read_text(encoding="utf-8"))["items"]}


def as_found(item: Item, nodes: list[dict]) -> list[AcceptedNode]:
    """An annotator's nodes in the form the engine's are scored in (quotes are verbatim)."""
    found = []
    for i, node in enumerate(nodes, start=1):
        start = item.text.index(node["quote"])
        candidate = CandidateNode(
            ref=f"n{i}", type=node["type"], label=node["label"], quote=node["quote"]
        )
        found.append(AcceptedNode(candidate, (start, start + len(node["quote"]))))
    return found


def annotation_agreement(items: list[Item], second: Path) -> dict:
    """The second annotation scored against the first, and the engine against each, on the
    items both annotated."""
    by_id = second_annotation(second)
    items = [i for i in items if i.id in by_id]
    annotators, engine_first, engine_second = Score(), Score(), Score()
    for item in items:
        nodes = by_id[item.id]
        annotators.add(score_item(item, as_found(item, nodes), None))
        found = extract_nodes(item)
        engine_first.add(score_item(item, found, None))
        other = [GoldNode((n["type"],), n["label"], n["quote"]) for n in nodes]
        engine_second.add(score_item(replace(item, gold=other), found, None))
    return {
        "items": len(items),
        "second_against_first": annotators.summary(),
        "engine_against_first": engine_first.summary(),
        "engine_against_second": engine_second.summary(),
    }


def evaluate_agreement(datasets: Path, annotations: Path, split: Split) -> dict:
    """Agreement on the ticket sets that have a second annotation of this split."""
    loaders = {  # file stem: the set and how its items are read with the first annotation
        "ru_vscode": (sets.RU_VSCODE, lambda path: sets.ru_vscode_issues(datasets, path)),
        "seamonkey": (sets.SEAMONKEY, lambda path: sets.seamonkey_reports(datasets, path)),
    }
    results = {}
    for stem, (name, load) in loaders.items():
        second = annotations / f"{stem}_{split}_second.json"
        if second.exists():
            items = [i for i in load(annotations / f"{stem}_{split}.json") if i.split == split]
            results[name] = annotation_agreement(items, second)
    return results
