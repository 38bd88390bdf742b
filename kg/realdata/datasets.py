"""Readers for the real data sets: each gives items (id, split, text) with their gold nodes.

Gold nodes come mechanically from each set's own annotation (app-review features, the parts
of a user story) or from the hand annotation committed under tests/kg/real before any rule
was changed (Russian VS Code issues), or before the engine was run on the sample (SeaMonkey
tickets, annotated by someone who never saw the engine's output).
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from kg.llm.prompts.extraction_models import Records
from kg.realdata.splits import Split, split_of

APP_REVIEWS = "en_app_reviews_features"
USER_STORIES = "en_user_stories_dalpiaz"
RU_VSCODE = "ru_vscode_bug_reports"
# The few Russian issues of the same export the data set left out, with their texts and hand
# annotation in one file (tests/kg/real/ru_vscode_extra_dev.json): dev only.
RU_VSCODE_EXTRA = "ru_vscode_bug_reports_extra"
SEAMONKEY_RU = "en_bug_reports_seamonkey_in_russian"
FOIA = "en_user_research_18f_foia"
# English tickets: SeaMonkey's Bugzilla reports from en_bug_report_duplicates, a hand-annotated
# sample per split (tests/kg/real/seamonkey_<split>.json says how it was drawn).
SEAMONKEY = "en_bug_reports_seamonkey"
_SEAMONKEY_CSV = Path("en_bug_report_duplicates") / "seamonkey_bugs.csv"
# A second English tracker, dev only: Apache Hadoop's JIRA reports (tests/kg/real/hadoop_dev.json),
# to check that a rule written on SeaMonkey's reports holds on another tracker's.
HADOOP = "en_bug_reports_hadoop"
_HADOOP_CSV = Path("en_bug_report_duplicates") / "hadoop_bugs.csv"


@dataclass(frozen=True)
class GoldNode:
    types: tuple[str, ...]  # the node types that count as this finding
    label: str
    quote: str = ""


@dataclass
class Item:
    id: str
    split: Split
    text: str
    language: str
    gold: list[GoldNode] = field(default_factory=list)
    negative: bool = False  # app reviews: the sentence rates a feature negatively
    # app reviews: the blind hand annotation of a sample (tests/kg/real/app_review_complaints.md)
    complaint: bool | None = None  # says something is wrong; None: not in the sample
    # what an import of the set would say its records are: the issue trackers' are tickets
    records: Records = ""


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


_FEATURE_SPLIT = re.compile(r"\s*[;,]\s*")


def app_review_sentences(datasets: Path) -> list[Item]:
    """Study 1: review sentences with the annotators' feature phrases.

    Split by review, so the sentences of one review are never on both sides.
    """
    items = []
    for row in _rows(datasets / APP_REVIEWS / "study1_sentences_feature_sentiment.csv"):
        features = [f for f in _FEATURE_SPLIT.split(row["features_all"].strip()) if f]
        items.append(
            Item(
                id=f"{row['app_id']}:{row['review_id']}:{row['sentence_id']}",
                split=split_of(APP_REVIEWS, f"{row['app_id']}:{row['review_id']}"),
                text=row["sentence"],
                language="en",
                gold=[GoldNode(("feature",), f) for f in features],
                negative=bool(row["features_negative"].strip()),
            )
        )
    return items


_STORY = re.compile(
    r"^As an? (?P<role>.+?),\s*I\s+(?:want|would like|need|wish|can)\s+(?:to\s+)?(?:be able to\s+)?"
    r"(?P<want>.+?)(?:,?\s*so\s+that\s+(?P<benefit>.+?))?\.?\s*$",
    re.IGNORECASE,
)


def user_stories(datasets: Path) -> list[Item]:
    """Dalpiaz backlogs: role → segment, "I want" → feature, "so that" → job or goal.

    Stories not in the "As a …, I want …" form are left out (they have no mechanical gold).
    """
    items = []
    for path in sorted((datasets / USER_STORIES).glob("g*.txt")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            text = re.sub(r"^#G\d+#\s*", "", line).strip()
            match = _STORY.match(text)
            if not match:
                continue
            gold = [
                GoldNode(("segment",), match["role"]),
                GoldNode(("feature",), match["want"]),
            ]
            if match["benefit"]:
                gold.append(GoldNode(("job", "goal"), match["benefit"]))
            item_id = f"{path.stem}:{number}"
            items.append(Item(item_id, split_of(USER_STORIES, item_id), text, "en", gold))
    return items


def issue_text(row: dict[str, str]) -> str:
    body = row["body"].strip()
    return f"{row['title']}\n\n{row['body']}" if body else row["title"]


def _annotated_gold(entry: dict) -> list[GoldNode]:
    """The gold nodes of one entry of a hand annotation file (one type each)."""
    return [GoldNode((n["type"],), n["label"], n["quote"]) for n in entry["nodes"]]


def ru_vscode_issues(datasets: Path, annotations: Path) -> list[Item]:
    """Russian VS Code issues; the test split's gold is the hand annotation file."""
    gold_by_id: dict[str, list[GoldNode]] = {}
    if annotations.exists():
        for entry in json.loads(annotations.read_text(encoding="utf-8"))["items"]:
            gold_by_id[entry["id"]] = _annotated_gold(entry)
    items = []
    for row in _rows(datasets / RU_VSCODE / "ru_vscode_issues.csv"):
        item_id = row["issue_number"]
        items.append(
            Item(
                id=item_id,
                split=split_of(RU_VSCODE, item_id),
                text=issue_text(row),
                language="ru",
                gold=gold_by_id.get(item_id, []),
                records="bug_report",
            )
        )
    return items


def seamonkey_sample(
    datasets: Path, split: Split, size: int = 30, left_out: frozenset[str] = frozenset()
) -> list[str]:
    """The ids of a split's annotated sample, less those left out (read while rules were
    written)."""
    ids = _short_reports_in_hash_order(datasets / _SEAMONKEY_CSV, "seamonkey")
    chosen = [i for i in ids if split_of(SEAMONKEY, i) == split and i not in left_out]
    return chosen[:size]


def _short_reports_in_hash_order(csv_path: Path, prefix: str) -> list[str]:
    """Reports with a description of at most 2,000 characters, in the order of a hash of
    their id: the order a tracker's annotated samples are drawn in."""
    ids = [
        row["Issue id"]
        for row in _rows(csv_path)
        if row["Description"].strip() and len(row["Description"]) <= 2000
    ]
    return sorted(ids, key=lambda i: hashlib.sha256(f"{prefix}:{i}".encode()).hexdigest())


def seamonkey_reports(datasets: Path, annotation: Path) -> list[Item]:
    """The annotated SeaMonkey bug reports of one split: title + blank line + description."""
    return _tracker_reports(datasets / _SEAMONKEY_CSV, annotation, split=None)


def hadoop_sample(datasets: Path, size: int = 60) -> list[str]:
    """The ids of the Hadoop dev sample."""
    return _short_reports_in_hash_order(datasets / _HADOOP_CSV, "hadoop")[:size]


def hadoop_reports(datasets: Path, annotation: Path) -> list[Item]:
    """The annotated Hadoop reports, all dev: title + blank line + description."""
    return _tracker_reports(datasets / _HADOOP_CSV, annotation, split="dev")


def _tracker_reports(csv_path: Path, annotation: Path, split: Split | None) -> list[Item]:
    """Annotated reports of a tracker's export (Summary and Description columns); `split`
    None takes each report's split from its id (SeaMonkey's rule)."""
    if not annotation.exists():
        return []
    rows = {row["Issue id"]: row for row in _rows(csv_path)}
    items = []
    for entry in json.loads(annotation.read_text(encoding="utf-8"))["items"]:
        row = rows[entry["id"]]
        text = f"{row['Summary'].strip()}\n\n{row['Description'].strip()}"
        chosen = split or split_of(SEAMONKEY, entry["id"])
        items.append(
            Item(entry["id"], chosen, text, "en", _annotated_gold(entry), records="bug_report")
        )
    return items


def ru_vscode_extra_issues(annotation: Path) -> list[Item]:
    """The extra Russian issues (dev), texts and gold from their annotation file."""
    return annotated_tickets(annotation, "ru")


def annotated_tickets(annotation: Path, language: str) -> list[Item]:
    """Dev tickets whose file holds their texts with the gold: the extra Russian issues, the
    SeaMonkey dev reports put into Russian."""
    if not annotation.exists():
        return []
    return [
        Item(
            id=entry["id"],
            split="dev",
            text=entry["text"],
            language=language,
            gold=_annotated_gold(entry),
            records="bug_report",
        )
        for entry in json.loads(annotation.read_text(encoding="utf-8"))["items"]
    ]


def with_complaints(items: list[Item], annotation: Path) -> list[Item]:
    """App-review sentences with the hand annotation of the sampled ones (whether each reports
    a problem), when the annotation file exists."""
    if not annotation.exists():
        return items
    marked = {row["id"]: bool(row["complaint"]) for row in json.loads(annotation.read_text())}
    for item in items:
        item.complaint = marked.get(item.id)
    return items
