"""The hand annotation of app-review complaints covers exactly the sample fixed in code.

A sentence missing, duplicated or added by hand would make the engine's pains look better or
worse than they are. Skipped, with the reason, when the datasets folder is not beside the
project.
"""

from __future__ import annotations

import json

import pytest

from kg.realdata.splits import split_of
from kg.realdata.suite import default_annotations, default_datasets
from tests.kg.real.complaint_sample import SAMPLE_SIZE, complaint_sample

DATASETS = default_datasets()
ANNOTATIONS = default_annotations()
needs_data = pytest.mark.skipif(
    not DATASETS.is_dir(), reason=f"the real data sets are not at {DATASETS}"
)


def _entries(split: str) -> list[dict]:
    path = ANNOTATIONS / f"app_review_complaints_{split}.json"
    return json.loads(path.read_text(encoding="utf-8"))


@needs_data
@pytest.mark.parametrize("split", ["dev", "test"])
def test_annotation_covers_exactly_the_sample(split: str) -> None:
    sample = complaint_sample(DATASETS, split)
    ids = [entry["id"] for entry in _entries(split)]
    assert len(sample) == SAMPLE_SIZE
    assert len(ids) == len(set(ids)) == SAMPLE_SIZE
    assert set(ids) == set(sample)


@needs_data
def test_the_second_dev_sample_is_the_next_two_hundred_of_the_order() -> None:
    following = complaint_sample(DATASETS, "dev", size=2 * SAMPLE_SIZE)[SAMPLE_SIZE:]
    ids = [entry["id"] for entry in _entries("dev2")]
    assert ids == following
    assert not set(ids) & {entry["id"] for entry in _entries("dev")}


@pytest.mark.parametrize("split", ["dev", "dev2", "test"])
def test_every_entry_is_judged(split: str) -> None:
    for entry in _entries(split):
        assert isinstance(entry["complaint"], bool), entry["id"]
        assert set(entry) <= {"id", "complaint", "note"}, entry["id"]
        assert isinstance(entry.get("note", ""), str), entry["id"]


@needs_data
def test_the_sample_follows_the_by_review_split() -> None:
    dev = complaint_sample(DATASETS, "dev")
    test = complaint_sample(DATASETS, "test")
    assert not set(dev) & set(test)
    for split, ids in (("dev", dev), ("test", test)):
        for item_id in ids:
            # The review id may itself contain a colon; the sentence number never does.
            review = item_id.rsplit(":", 1)[0]
            assert split_of("en_app_reviews_features", review) == split
