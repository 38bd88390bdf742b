"""`kg_evaluate --suite ask`: answers to a PM's questions, scored on real research.

The questions (tests/kg/real/ask_questions.jsonl, described in ask_questions.md) were written
from the sources before the answering code existed; each names its corpus, whether the
research answers it, and the verbatim words that do. Each corpus is recorded as a throwaway
project (one episode per source; the FOIA files as the upload page cuts them), run through the
pipeline, asked every question of the split, and thrown away (a rolled-back transaction and a
deleted graph).

Figures per split (and per question language):
- answered: answerable questions given an answer (not refused);
- refusal precision / recall: of the questions refused, those the research does not answer;
  of the questions it does not answer, those refused;
- citation precision: cited messages that hold a gold answer (answerable questions);
- citation recall: gold messages cited (answerable questions), micro-averaged;
- checked out: sentences the checks dropped before an answer was shown.
"""

from __future__ import annotations

import csv
import json
import time
import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from pathlib import Path

from django.db import transaction

from chat.answers import Answer, answer_question
from kg.commands import (
    EpisodeInput,
    discard_project_graph,
    episode_ingest,
    read_uploaded_notes,
    record_episode,
)
from kg.models import Episode, EpisodeKind, Organization, Project
from kg.realdata.datasets import issue_text

QUESTIONS = "ask_questions.jsonl"
FOIA_FILES = (
    "recommendations.md",
    "research-plan.md",
    "research-synthesis-agencies.md",
    "research-synthesis-requesters.md",
    "research-update.md",
    "usability-testing-synthesis.md",
)


@dataclass(frozen=True)
class Source:
    id: str
    text: str


def load_questions(annotations: Path) -> list[dict]:
    path = annotations / QUESTIONS
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def corpus_sources(name: str, datasets: Path, annotations: Path) -> list[Source]:
    """The sources of one corpus, as ask_questions.md defines them."""
    if name == "ru_vscode":
        rows = _rows(datasets / "ru_vscode_bug_reports" / "ru_vscode_issues.csv")
        return [Source(r["issue_number"], issue_text(r)) for r in rows]
    if name == "seamonkey":
        ids = [
            item["id"]
            for split in ("dev", "test")
            for item in json.loads((annotations / f"seamonkey_{split}.json").read_text())["items"]
        ]
        rows = {
            r["Issue id"]: r
            for r in _rows(datasets / "en_bug_report_duplicates" / "seamonkey_bugs.csv")
        }
        return [
            Source(i, f"{rows[i]['Summary'].strip()}\n\n{rows[i]['Description'].strip()}")
            for i in dict.fromkeys(ids)
        ]
    if name.startswith("app_reviews_"):
        app = name.removeprefix("app_reviews_")
        path = datasets / "en_app_reviews_features" / "study2_query_review_relevance.csv"
        seen: dict[str, str] = {}
        for row in _rows(path):
            if row["app"].lower().replace(" ", "_") == app:
                seen.setdefault(row["review_id"], row["review_content"])
        return [Source(k, v) for k, v in seen.items()]
    if name == "dalpiaz_g03":
        lines = (datasets / "en_user_stories_dalpiaz" / "g03-loudoun.txt").read_text("utf-8")
        return [Source(str(n), line) for n, line in enumerate(lines.splitlines(), 1) if line]
    if name == "foia":
        return [
            Source(f, (datasets / "en_user_research_18f_foia" / f).read_text("utf-8"))
            for f in FOIA_FILES
        ]
    raise ValueError(f"unknown corpus {name!r}")


def _normalised(text: str) -> str:
    return " ".join(text.split()).lower()


def _record(project: Project, sources: list[Source], corpus: str) -> dict[int, str]:
    """Record the sources; returns each episode's source id by episode id."""
    by_episode: dict[int, str] = {}
    for source in sources:
        if corpus == "foia":
            items = read_uploaded_notes(source.id, source.text.encode("utf-8")).items
        else:
            items = [
                EpisodeInput(
                    content=source.text,
                    kind=EpisodeKind.IMPORT,
                    source_ref={"file": corpus, "row": source.id},
                )
            ]
        for item in items:
            if not item.content.strip():
                continue
            episode = record_episode(project, item, enqueue=False)
            by_episode[episode.pk] = source.id
    return by_episode


@dataclass
class Tally:
    answerable: int = 0
    answered: int = 0
    unanswerable: int = 0
    refused: int = 0
    refused_right: int = 0
    cited: int = 0
    cited_gold: int = 0
    gold: int = 0
    gold_cited: int = 0
    sentences: int = 0
    dropped: int = 0
    seconds: list[float] = field(default_factory=list)

    def add(self, question: dict, answer: Answer, gold: set[int], cited: set[int]) -> None:
        self.sentences += len(answer.sentences)
        self.dropped += answer.dropped
        if answer.refused:
            self.refused += 1
            self.refused_right += not question["answerable"]
        if question["answerable"]:
            self.answerable += 1
            self.answered += not answer.refused
            self.cited += len(cited)
            self.cited_gold += len(cited & gold)
            self.gold += len(gold)
            self.gold_cited += len(gold & cited)
        else:
            self.unanswerable += 1

    def figures(self) -> dict:
        def ratio(a: int, b: int) -> float:
            return round(a / b, 3) if b else 0.0

        ordered = sorted(self.seconds)
        return {
            "questions": self.answerable + self.unanswerable,
            "answerable_answered": ratio(self.answered, self.answerable),
            "refusal_precision": ratio(self.refused_right, self.refused),
            "refusal_recall": ratio(self.refused_right, self.unanswerable),
            "citation_precision": ratio(self.cited_gold, self.cited),
            "citation_recall": ratio(self.gold_cited, self.gold),
            "sentences": self.sentences,
            "sentences_dropped_by_checks": self.dropped,
            "seconds_p50": round(ordered[len(ordered) // 2], 3) if ordered else 0.0,
        }


def gold_episodes(question: dict, episodes: dict[int, tuple[str, str]]) -> set[int]:
    """The episodes that hold a gold answer: of a gold source, with the gold words in them."""
    wanted = defaultdict(list)
    for gold in question["gold"]:
        wanted[gold["source"]].append(_normalised(gold["text"]))
    return {
        pk
        for pk, (source, content) in episodes.items()
        if source in wanted and any(text in content for text in wanted[source])
    }


def evaluate_corpus(
    corpus: str, questions: list[dict], datasets: Path, annotations: Path
) -> dict[str, Tally]:
    """Tallies by split and question language ("dev", "dev:ru", …) for one corpus."""
    tallies: dict[str, Tally] = defaultdict(Tally)
    sources = corpus_sources(corpus, datasets, annotations)
    with transaction.atomic():
        org = Organization.objects.create(slug=f"eval-{uuid.uuid4().hex[:10]}", name="evaluation")
        language = "ru" if corpus == "ru_vscode" else "en"
        project = Project.objects.create(
            organization=org, slug=f"{org.slug}-ask", name=corpus, language=language
        )
        try:
            source_of = _record(project, sources, corpus)
            for pk in sorted(source_of):
                episode_ingest(pk)
            contents = dict(Episode.objects.filter(project=project).values_list("pk", "content"))
            episodes = {pk: (source_of[pk], _normalised(contents[pk])) for pk in source_of}
            number_to_pk = dict(Episode.objects.filter(project=project).values_list("number", "pk"))
            for question in questions:
                started = time.perf_counter()
                answer = answer_question(project, question["question"])
                elapsed = time.perf_counter() - started
                cited = {
                    number_to_pk[c.episode_number] for s in answer.sentences for c in s.citations
                }
                gold = gold_episodes(question, episodes)
                for key in (question["split"], f"{question['split']}:{question['language']}"):
                    tallies[key].add(question, answer, gold, cited)
                    tallies[key].seconds.append(elapsed)
        finally:
            discard_project_graph(project.graph_scope)
        transaction.set_rollback(True)
    return tallies


def evaluate_ask(
    datasets: Path, annotations: Path, splits: Iterable[str] = ("dev", "test")
) -> dict:
    """Every figure of the ask suite, by split and by question language; corpora apart too."""
    chosen = [q for q in load_questions(annotations) if q["split"] in set(splits)]
    by_corpus: dict[str, list[dict]] = defaultdict(list)
    for question in chosen:
        by_corpus[question["corpus"]].append(question)
    overall: dict[str, Tally] = defaultdict(Tally)
    report: dict[str, dict] = {"corpora": {}}
    for corpus in sorted(by_corpus):
        tallies = evaluate_corpus(corpus, by_corpus[corpus], datasets, annotations)
        report["corpora"][corpus] = {k: t.figures() for k, t in sorted(tallies.items())}
        for key, tally in tallies.items():
            _merge(overall[key], tally)
    report.update({key: tally.figures() for key, tally in sorted(overall.items())})
    return report


def _merge(into: Tally, other: Tally) -> None:
    for counted in fields(Tally):
        setattr(into, counted.name, getattr(into, counted.name) + getattr(other, counted.name))
