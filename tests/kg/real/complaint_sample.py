"""Which app-review sentences the complaint annotation covers: a rule fixed before reading any.

Ids and splits are built as kg.realdata.datasets builds them (app:review:sentence, split by
review); within each split the ids are ordered by a salted hash and the first 200 are taken, so
no one chooses which sentences are annotated.
"""

from __future__ import annotations

import csv
import hashlib
from pathlib import Path

from kg.realdata.splits import Split, split_of

DATASET = "en_app_reviews_features"
FILE = "study1_sentences_feature_sentiment.csv"
SAMPLE_SIZE = 200


def _order_key(item_id: str) -> str:
    return hashlib.sha256(f"complaints:{item_id}".encode()).hexdigest()


def complaint_sample(datasets: Path, split: Split, size: int = SAMPLE_SIZE) -> list[str]:
    """The ids of the sampled sentences of one split, in sample order."""
    with (datasets / DATASET / FILE).open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    ids = [
        f"{row['app_id']}:{row['review_id']}:{row['sentence_id']}"
        for row in rows
        if split_of(DATASET, f"{row['app_id']}:{row['review_id']}") == split
    ]
    return sorted(ids, key=_order_key)[:size]
