"""Requests and advice: features asked for.

A request cue ("please add", "I wish it had", «добавьте», «хотелось бы») names a feature by the
phrase after it (`request_spans`); advice and recommendations in research notes ("we should
let users ...") name what to build (`advice_spans`, `recommended_statement`); a request set
against what the writer expected counts too (`against_expectation`).
Example: "Would love an option to export to CSV" gives the feature "export to CSV";
«Хотелось бы иметь тёмную тему» gives «тёмная тема».
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

from kg.language import Token
from kg.llm.offline.feature_phrases import _content_bounds, _object_phrase
from kg.llm.offline.labels import names_nothing
from kg.llm.offline.non_problems import _IMPERATIVE_REQUEST, _SUGGESTION, _expects
from kg.llm.offline.reading import Span, _within, _wordset, listed, polarity, read
from kg.llm.offline.rule_words import NEGATORS, REQUEST_EN, REQUEST_RU
from kg.llm.offline.uses import _plain_object_end

# Greetings and pleas that open a report; they are not part of what went wrong.
COURTESY = _wordset(listed("courtesy"))


# A question's opening before the problem it asks about («почему у меня не работает …»).
_QUESTION_LEAD = _wordset("почему why как how у меня нас")


def without_courtesy(text: str, span: Span) -> Span:
    """The span without the greetings, pleas and question openings it starts with («добрый
    день подскажите почему у меня не работает …» → «не работает …»)."""
    tokens = read(text, span).tokens
    first = 0
    while first < len(tokens) - 1 and (
        tokens[first].lower in COURTESY
        or tokens[first].pos == "PUNCT"
        or (tokens[first].lower in _QUESTION_LEAD and tokens[first].text[:1].islower())
    ):
        first += 1
    while first < len(tokens) - 1 and tokens[first].lower in _JOINING:
        first += 1  # "and it frustrates me": the conjunction joins the label to what went before
    asked = _question_opening(tokens, first)
    if asked and first + asked < len(tokens) - 1:
        first += asked
    elif (
        0 < first < len(tokens) - 1
        and tokens[first - 1].lower in ("how", "why")
        and tokens[first].lemma == "be"
    ):
        first += 1  # "how is | this still not fixed": the question's verb
    return (span[0] + tokens[first].start, span[1]) if tokens else span


_JOINING = _wordset("and but or then")


def _question_opening(tokens: list[Token], first: int) -> int:
    """How many words an English question opens with before what it says of the app: "Why |
    does it crash", "Why is | it so slow", "What | happened to the search bar", "How come |
    it never syncs"."""
    words = [t.lower for t in tokens[first : first + 3]]
    if words[:2] == ["how", "come"]:
        return 2
    if words[1:2] == ["happened"] and words[0] in ("what", "whatever"):
        return 2 if len(words) > 1 and tokens[first + 1].lemma == "be" else 1
    if words[:1] == ["how"] and len(words) > 1 and tokens[first + 1].lemma in ("be", "do"):
        return 2  # "how is | this still not fixed"
    if words[:1] in (["why"], ["where"], ["where's"]):
        return 2 if len(words) > 1 and tokens[first + 1].lemma == "be" else 1
    return 0


_CONTRASTS = _wordset("but however но а однако")


def _attempts(tokens: list[Token]) -> bool:
    """ "I try to open it", «пытаюсь открыть»: an attempt, whose end is expected."""
    words = [t for t in tokens if t.pos != "PUNCT"]
    return any(
        token.lemma in _ATTEMPTING
        and i + 1 < len(words)
        and (words[i + 1].pos == "VERB" or words[i + 1].lower == "to")
        for i, token in enumerate(words)
    )


_ATTEMPTING = _wordset("try attempt пытаться попытаться пробовать попробовать")

# What an attempt may end in that is no fault: "but it worked", «но всё получилось».
_SUCCEEDING = _wordset("work succeed manage работать сработать получиться удаться")


def against_expectation(text: str, clause: Span, sentence: Span) -> Span | None:
    """What happened instead of what was expected: "I expected local names, but only keywords
    are shown", «ожидал увидеть список, а открывается пустое окно». The clause after the
    contrast is the fault."""
    before = [t for t in _within(read(text, sentence), sentence[0], clause[0]) if t.pos != "PUNCT"]
    if not before or before[-1].lower not in _CONTRASTS:
        return None
    expected = _expects(before[:-1])
    if not (expected or _attempts(before[:-1])):
        return None  # what was expected or tried comes first
    reading = read(text, clause)
    tokens = reading.tokens
    if not any(t.pos in ("VERB", "ADJ") for t in tokens):
        return None
    if polarity(text[clause[0] : clause[1]]) >= 0.3:
        return None  # "but it was easy to set up": better than expected
    if any(t.lemma in _SUCCEEDING for t in tokens) and not any(t.lower in NEGATORS for t in tokens):
        return None  # «пытался, но всё получилось»: the attempt succeeded
    first, last = _content_bounds(tokens, 0, len(tokens) - 1)
    if first > last:
        return None
    span = reading.span(first, last)
    if not expected and names_nothing(text[span[0] : span[1]].split(",")[0]):
        return None  # "tried both paths, but nothing changed": the attempt names no symptom
    return span


def request_spans(text: str, sentence: Span, english: bool) -> list[tuple[int, Span]]:
    """(cue start, phrase) for each request a sentence makes, a suggestion put as a question
    ("why not add …", "how about adding …") among them."""
    cues = list((REQUEST_EN if english else REQUEST_RU).finditer(text, *sentence))
    if english:
        cues += _SUGGESTION.finditer(text, *sentence)
        opening = _IMPERATIVE_REQUEST.match(text, *sentence)
        if opening is not None and not any(c.start() <= opening.end() <= c.end() for c in cues):
            cues.append(opening)
    found = []
    for cue in cues:
        if _HEADING.fullmatch(cue.group()):
            # Under a "Recommendation:" heading the whole statement is what is asked for
            # ("Provide more guidance on fees"), not only the noun phrase that opens it.
            phrase = _heading_statement(text, (cue.end(), sentence[1]))
        else:
            phrase = _object_phrase(text, (cue.end(), sentence[1]), english, asked=True)
        if phrase is not None:
            found.append((cue.start(), phrase))
    return found


# Research write-ups advise in the first person plural, or with no subject at all in notes:
# "we should offer a printable receipt", "should consider adding more filters". What is
# advised is the action itself, verb included.
ADVICE_EN = re.compile(
    r"\b(?:we\s+(?:really\s+)?(?:should|must|ought\s+to)(?:\s+(?:also|still))?"
    r"(?:\s+consider)?|should(?:\s+also)?\s+consider)\s+",
    re.IGNORECASE,
)

# After the cue these verbs state a condition or a duty of care, not something to build.
_NOT_ADVISED = _wordset("be have get keep make do go know think")


def advice_spans(text: str, sentence: Span) -> list[tuple[int, Span]]:
    """(cue start, advised action) for each piece of advice a research sentence gives."""
    found = []
    reading = read(text, sentence)
    tokens = reading.tokens
    for cue in ADVICE_EN.finditer(text, sentence[0], sentence[1]):
        at = next((i for i, t in enumerate(tokens) if t.start + reading.offset >= cue.end()), None)
        if at is None:
            continue
        verb = tokens[at]
        # After a modal the word is a verb whatever the tagger guessed ("should offer").
        if verb.pos not in ("VERB", "NOUN") or not verb.text.islower():
            continue
        if verb.lemma in _NOT_ADVISED:
            continue
        last = _plain_object_end(tokens, at)  # the verb's own object: "adding more filters"
        if last is not None:
            found.append((cue.start(), reading.span(at, last)))
    return found


_HEADING = re.compile(r"recommendations?\W{0,3}:\W{0,3}|рекомендаци[яи]\W{0,3}:\W{0,3}", re.I)

_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


@lru_cache(maxsize=8)
def _labels_and_paragraphs(text: str) -> tuple[list[int], list[tuple[int, int]]]:
    """Where the paragraphs of a text open, and its labels: found once per text, not once per
    sentence (a long message has thousands of sentences)."""
    openings = [0, *(m.end() for m in _PARAGRAPH_BREAK.finditer(text))]
    return openings, [m.span() for m in _HEADING.finditer(text)]


def _paragraph_label(text: str, at: int) -> re.Match[str] | None:
    """The first label in the paragraph that holds `at`, before `at`."""
    openings, labels = _labels_and_paragraphs(text)
    opening = openings[bisect.bisect_right(openings, at) - 1]
    first = bisect.bisect_left(labels, (opening, 0))
    if first == len(labels) or labels[first][0] >= at:
        return None
    return _HEADING.search(text, labels[first][0], at)


def recommended_statement(text: str, sentence: Span) -> tuple[int, Span] | None:
    """A later sentence of a paragraph that a "Recommendation:" label opens, when it is an
    instruction ("Consider offering …", "Show the total before checkout"): where the label
    starts (its quote shows it was recommended) and what the sentence asks for."""
    label = _paragraph_label(text, sentence[0])
    if label is None:
        return None
    tokens = read(text, sentence).tokens
    first = next((t for t in tokens if t.pos != "PUNCT"), None)
    if first is None or first.pos != "VERB" or first.lower.endswith(("ing", "ed", "s")):
        return None  # an imperative opens on the verb's bare form
    statement = _heading_statement(text, sentence)
    return None if statement is None else (label.start(), statement)


_STATEMENT_END = re.compile(r"[(;\[]")

_MAX_STATEMENT_WORDS = 16


def _heading_statement(text: str, span: Span) -> Span | None:
    """The statement after a heading, up to a parenthesis or a semicolon, at most 16 words."""
    end = span[1]
    for cut in _STATEMENT_END.finditer(text, span[0], span[1]):
        close = text.find(")", cut.end(), span[1]) if cut.group() == "(" else -1
        if close >= 0 and text[close + 1 : span[1]].strip(" .!?"):
            continue  # "include (MVP) summary of …": an aside inside the statement
        end = cut.start()
        break
    reading = read(text, (span[0], end))
    tokens = reading.tokens[:_MAX_STATEMENT_WORDS]
    first, last = _content_bounds(tokens, 0, len(tokens) - 1)
    if first > last or not any(t.pos in ("NOUN", "PROPN") for t in tokens[first : last + 1]):
        return None
    return reading.span(first, last)
