"""Answers to a PM's questions about their research: every sentence cites the words it rests on.

answer_question retrieves passages (kg.read_models.retrieve: full text, meaning and graph,
fused), keeps those that are about the question, has the engine write sentences citing them
by number (the model from the passages only; offline, the findings with their quotes), and
checks each sentence before it is shown: its citations must be passages it was given, its
content words must be said by them (the check PRD claims pass), its numbers must stand in a
quote. What fails is dropped. When nothing is left the answer says the research does not say,
and names what it does hold nearby — never a guess.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field

from chat.prompts import research_answer
from chat.prompts.research_answer import AnswerPassage, ResearchAnswerRequest
from kg.language import content_lemmas, is_cyrillic
from kg.llm import call_llm
from kg.models import Project
from kg.ontology import NODE_TYPES, type_name
from kg.read_models import (
    Passage,
    Retrieval,
    asks_about_problems,
    claim_supported,
    quantities_missing,
    retrieve,
    says_something_is_wrong,
)

logger = logging.getLogger("groundwork.chat")

# A passage is about the question when it holds at least this share of the question's topic
# words, or when the encoder puts it this near the question (other words, other language).
# Chosen on the dev questions of tests/kg/real/ask_questions.jsonl.
RELEVANT_SHARE = 0.5
RELEVANT_COSINE = 0.6
MAX_PASSAGES = 12
NEARBY = 3

TEXTS = {
    "en": {
        "answering": "You asked the research (nothing was recorded). It says:",
        "refused": "The research doesn't say.",
        "nearby": "Nearby, it covers: {items}.",
    },
    "ru": {
        "answering": "Это вопрос к исследованию (в него ничего не записано). Вот что в нём есть:",
        "refused": "В исследовании об этом ничего нет.",
        "nearby": "Рядом с этим в нём есть: {items}.",
    },
}


@dataclass(frozen=True)
class Citation:
    episode_uid: str
    episode_number: int
    quote: str
    start: int
    end: int


@dataclass(frozen=True)
class AnswerSentence:
    text: str
    citations: tuple[Citation, ...]


@dataclass
class Answer:
    question: str
    language: str
    sentences: list[AnswerSentence] = field(default_factory=list)
    refused: bool = False
    refusal: str = ""
    nearby: list[str] = field(default_factory=list)
    engine: str = ""
    dropped: int = 0  # sentences the checks refused
    retrieval: Retrieval | None = None
    used: list[Passage] = field(default_factory=list)  # the passages offered to the engine


_SENTENCE_BREAK = re.compile(r"[.!?…](?=\s+\S)")
_REPORTED = re.compile(r"[:«»\"“”]")


def is_question(text: str) -> bool:
    """A chat message asks the research rather than adds to it: one sentence ending in a
    question mark, with no colon or quotation marks. A PM reporting what someone asked
    quotes them or introduces them with a colon ("A courier asked: why…?", «Спросили: …»),
    and notes of research run to more than one sentence."""
    stripped = text.strip()
    return (
        stripped.endswith("?")
        and not _SENTENCE_BREAK.search(stripped[:-1])
        and not _REPORTED.search(stripped)
    )


def question_language(question: str, project: Project) -> str:
    """The question's own language: a Russian question over English research is answered in
    Russian (the quotes stay as they were said)."""
    if is_cyrillic(question):
        return "ru"
    return "en" if any(c.isalpha() for c in question) else project.language


def about_the_question(passage: Passage, problems: bool = False) -> bool:
    """The passage is about what was asked; for a question about problems, it reports one."""
    if problems and not says_something_is_wrong(passage):
        return False
    return passage.focus_share >= RELEVANT_SHARE or passage.cosine >= RELEVANT_COSINE


def answer_question(project: Project, question: str) -> Answer:
    """Answer `question` from the project's research alone (the caller checked membership)."""
    language = question_language(question, project)
    retrieval = retrieve(project, question)
    problems = asks_about_problems(question)
    usable = [p for p in retrieval.passages if about_the_question(p, problems)][:MAX_PASSAGES]
    answer = Answer(question=question, language=language, retrieval=retrieval, used=usable)
    if usable:
        request = ResearchAnswerRequest(
            language=language,
            question=question,
            passages=[
                AnswerPassage(
                    id=i,
                    quote=p.quote,
                    message=p.episode_number,
                    finding=p.node_label,
                    finding_type=p.node_type,
                )
                for i, p in enumerate(usable, 1)
            ],
        )
        _write(answer, request, project, usable)
    if not answer.sentences:
        texts = TEXTS.get(language, TEXTS["en"])
        answer.refused = True
        answer.nearby = _nearby(retrieval, language)
        answer.refusal = texts["refused"]
        if answer.nearby:
            answer.refusal += " " + texts["nearby"].format(items="; ".join(answer.nearby))
    return answer


def _write(
    answer: Answer, request: ResearchAnswerRequest, project: Project, usable: list[Passage]
) -> None:
    try:
        result = call_llm(research_answer.OPERATION, request, project=project)
        draft, engine = result.value, f"{result.call.engine}:{result.call.model}"
    except Exception:
        # A broken or unreachable model must not leave the question without its answer.
        logger.exception("research_answer: model failed; using the extractive answer")
        draft, engine = research_answer.offline_answer(request), "offline:fallback"
    answer.engine = engine
    answer.sentences, answer.dropped = checked_sentences(draft, usable)
    if not answer.sentences and not engine.startswith("offline"):
        logger.warning("research_answer: nothing survived the checks; extractive answer")
        fallback = research_answer.offline_answer(request)
        answer.sentences, _ = checked_sentences(fallback, usable)
        answer.engine = "offline:fallback"


def checked_sentences(
    draft: research_answer.ResearchAnswerResponse, usable: list[Passage]
) -> tuple[list[AnswerSentence], int]:
    """The sentences whose citations support them; and how many were dropped."""
    kept: list[AnswerSentence] = []
    dropped = 0
    for sentence in draft.sentences[: research_answer.MAX_SENTENCES]:
        cited = [usable[i - 1] for i in dict.fromkeys(sentence.passages) if 0 < i <= len(usable)]
        text = " ".join(sentence.text.split())
        if not cited or not text or not _supported(text, cited):
            dropped += 1
            continue
        kept.append(
            AnswerSentence(
                text=text,
                citations=tuple(
                    Citation(p.episode_uid, p.episode_number, p.quote, p.start, p.end)
                    for p in cited
                ),
            )
        )
    return kept, dropped


# The extractive answer opens a finding's sentence with its type ("Pain: …", «Боль: …»): a
# word that claims nothing of its own, so the quotes need not say it.
TYPE_WORDS = frozenset(
    lemma
    for node_type in NODE_TYPES
    for name in (node_type, type_name(node_type, "ru"))
    for lemma in content_lemmas(name)
)


def _supported(text: str, cited: list[Passage]) -> bool:
    """What the sentence says is in its quotes: its content words and every number it states
    (the check PRD claims pass)."""
    quotes = [p.quote for p in cited]
    return not quantities_missing(text, quotes) and claim_supported(text, quotes, ignore=TYPE_WORDS)


def _nearby(retrieval: Retrieval, language: str) -> list[str]:
    seen: list[str] = []
    for node in retrieval.nearby:
        named = f"{type_name(node.type, language)} “{node.label}”"
        if named not in seen:
            seen.append(named)
        if len(seen) == NEARBY:
            break
    return seen


def answer_message(answer: Answer) -> tuple[str, list[dict]]:
    """The answer as a chat reply: its sentences, each closed by the markers of its citations,
    and the citations those markers stand for (message number and the quoted words' offsets)."""
    texts = TEXTS.get(answer.language, TEXTS["en"])
    if answer.refused:
        return answer.refusal, []
    lines = [texts["answering"]]
    citations: list[dict] = []
    markers: dict[tuple[int, int, int], int] = {}
    for sentence in answer.sentences:
        marks = []
        for c in sentence.citations:
            key = (c.episode_number, c.start, c.end)
            if key not in markers:
                markers[key] = len(markers) + 1
                citations.append(
                    {
                        "marker": markers[key],
                        "message": c.episode_number,
                        "start": c.start,
                        "end": c.end,
                        "quote": c.quote,
                    }
                )
            marks.append(f"[{markers[key]}]")
        lines.append(f"{sentence.text} {''.join(marks)}")
    return "\n".join(lines), citations
