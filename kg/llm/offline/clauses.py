"""Clauses of a fixed shape: user stories and statements of purpose.

A user story ("As a <role>, I want <means> so that <end>", `user_story`) gives a segment for
the role, a feature for the means and a job for the end; a purpose clause ("in order to ...")
says what a feature is for (`purpose_spans`); `clause_span` is the clause around a span.
Example: "As a clerk, I want to print the day's orders so that I can pack them early" gives
the segment "clerk", the feature "print the day's orders" and the job "pack them early".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kg.language import grammemes
from kg.llm.offline.feature_phrases import _content_bounds
from kg.llm.offline.reading import Span, read
from kg.llm.offline.rule_words import _MAX_LABEL_WORDS

# The user-story template ("As a <role>, I want <feature>, so that <benefit>") and its
# Russian form ("Как <роль>, я хочу <...>, чтобы <...>"), a standard way to write requirements.
USER_STORY = (
    re.compile(
        r"\bAs\s+an?\s+(?P<role>[^,]{2,60}?),?\s+I\s+(?:want|would\s+like|need|wish|can)\s+"
        r"(?:to\s+)?(?:be\s+able\s+to\s+)?(?P<want>.+?)"
        r"(?:,?\s*(?:so\s+that|in\s+order\s+to)\s+(?P<benefit>.+?))?[.!]?\s*$",
        re.IGNORECASE,
    ),
    re.compile(
        r"(?<!\w)Как\s+(?P<role>[^,]{2,60}?),\s*я\s+(?:хочу|хотел\s+бы|хотела\s+бы)\s+"
        r"(?P<want>.+?)(?:,?\s*чтобы\s+(?P<benefit>.+?))?[.!]?\s*$",
        re.IGNORECASE,
    ),
)

PURPOSE = re.compile(
    r"\b(?:so\s+that\s+(?:I|we|they|you|users?|customers?)\s+(?:can|could|will)|in\s+order\s+to)\s+"
    r"|(?<!\w)чтобы\s+(?:я\s+|мы\s+)?(?:мог(?:ли)?\s+)?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Story:
    role: Span
    want: Span
    benefit: Span | None


def user_story(text: str, sentence: Span) -> Story | None:
    for pattern in USER_STORY:
        match = pattern.search(text, sentence[0], sentence[1])
        if match is not None:
            benefit = match.span("benefit") if match["benefit"] else None
            return Story(match.span("role"), match.span("want"), benefit)
    return None


def clause_span(text: str, span: Span, *, drop_subject: bool = False) -> Span | None:
    """A clause without the function words around it (and its "I can" when asked)."""
    reading = read(text, span)
    tokens = reading.tokens
    first, last = _content_bounds(tokens, 0, len(tokens) - 1)
    while drop_subject and first <= last and tokens[first].pos in ("PRON", "AUX", "PART"):
        first += 1
    if first > last:
        return None
    return reading.span(first, last)


def purpose_spans(text: str, sentence: Span) -> list[tuple[int, Span]]:
    """(cue start, clause) for each "so that I can …" / "in order to …": a job being done."""
    found = []
    for cue in PURPOSE.finditer(text, sentence[0], sentence[1]):
        reading = read(text, (cue.end(), sentence[1]))
        tokens = reading.tokens
        end = next((i for i, t in enumerate(tokens) if t.pos == "PUNCT"), len(tokens))
        first, last = _content_bounds(tokens, 0, min(end, _MAX_LABEL_WORDS + 2) - 1)
        if first > last or not any(t.pos == "VERB" for t in tokens[first : last + 1]):
            continue
        if cue.group().lower().startswith("чтобы") and "INFN" not in grammemes(tokens[first].text):
            continue  # «чтобы он снова появился»: a state of something wanted, no one's job
        found.append((cue.start(), reading.span(first, last)))
    return found
