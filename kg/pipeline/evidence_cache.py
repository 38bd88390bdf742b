"""The evidence of graph records this process read or wrote, by uid and evidence version.

A node or edge's evidence grows with every episode that mentions it; reading it whole for
each episode that touches the record would make an episode's cost grow with the project.
Every write of a record's evidence stamps it with a new version (kg.graph.store), so a copy
kept here is used only while the record still carries the version it was kept with: any
other writer (another worker, a correction, a rebuild) changes the version, and the evidence
is read again. With it is kept the count of its independent sources, which new evidence
updates item by item (kg.pipeline.confidence.SourceCount).

Imported messages of a project are integrated by one worker at a time, in order, so that
worker finds the records it wrote last here. The copy is bounded (least recently used first
out); a miss costs one read, as before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from kg.graph import Evidence
from kg.pipeline.confidence import SourceCount

# Pieces of evidence kept, over all records, per worker process: about 1.6 KB each, so some
# 80 MB at most. A miss costs one read.
MAX_ITEMS = 50_000


@dataclass
class KeptEvidence:
    evidence: list[Evidence]
    sources: SourceCount


_kept: OrderedDict[tuple[str, str], tuple[str, KeptEvidence]] = OrderedDict()
_items = 0
_lock = threading.Lock()


def take(scope_project: str, uid: str, version: str | None) -> KeptEvidence | None:
    """The record's evidence as of `version`, if kept, handed over: it leaves the cache (no
    copy, whose cost would grow with the evidence) and comes back by `keep` with the version
    it is written with, or as it was when nothing was written. An episode that fails midway
    gives nothing back: a later one reads the record again."""
    global _items
    if not version:
        return None
    with _lock:
        found = _kept.pop((scope_project, uid), None)
        if found is None:
            return None
        _items -= len(found[1].evidence)
        return found[1] if found[0] == version else None


def keep(scope_project: str, uid: str, version: str, evidence: KeptEvidence) -> None:
    """Keep a record's evidence as written or read with `version`, handed over: the caller
    changes it no more."""
    global _items
    with _lock:
        old = _kept.pop((scope_project, uid), None)
        if old is not None:
            _items -= len(old[1].evidence)
        _kept[(scope_project, uid)] = (version, evidence)
        _items += len(evidence.evidence)
        while _items > MAX_ITEMS and _kept:
            _, (_, dropped) = _kept.popitem(last=False)
            _items -= len(dropped.evidence)


def forget_all() -> None:
    global _items
    with _lock:
        _kept.clear()
        _items = 0
