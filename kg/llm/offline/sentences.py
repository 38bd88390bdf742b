"""Sentences and clauses: how a message is cut before any rule reads it.

A message is split into sentences at end punctuation (not after an abbreviation such as
"e.g.") and at line breaks and bullets, keeping quoted messages whole; each sentence into
clauses at conjunctions and semicolons. Every quote is a slice of the original text, and
`_label` turns a span into a label without edge punctuation. Kinds of label: none; every
rule's label is cut from these spans.
Example: "Login fails. e.g. on Safari; the page stays blank" is one sentence of two clauses,
each a pain: "login fails. e.g. on Safari" and "page stays blank".
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType

from kg.language import in_the_nominative, is_cyrillic, lemma, may_be_a_subject
from kg.llm.offline import lexicon_en, lexicon_ru
from kg.llm.offline.pain_spans import (
    SUBJECT_OPENERS,
    cut_at_word_limit,
    first_clause_end,
    opens_the_subject,
)
from kg.llm.offline.parts import modifies_a_subject
from kg.llm.offline.problems import denied_before_contrast
from kg.llm.offline.similarity import CONCEPTS

Span = tuple[int, int]

_CYRILLIC = re.compile(r"[А-Яа-яЁё]")

_LATIN = re.compile(r"[A-Za-z]")

_SENTENCE_BREAK = re.compile(r"(?<=[.!?…])[\"»)]*\s+(?=[\"«(]?[A-ZА-ЯЁ0-9])|\s*\n\s*")

_ABBREVIATION = re.compile(
    r"(?:\b(?:e\.g|i\.e|vs|etc|approx|Mr|Mrs|Ms|Dr|St|т\.е|т\.к|т\.д|т\.п|др|напр|см|г)\.)$", re.I
)

_TOKEN = re.compile(r"\S+")

_EDGE_PUNCTUATION = ".,;:!?…\"'«»()[]—–-"

_WORD = re.compile(r"[^\s,.;:!?()\"«»—–]+(?:\.[^\s,.;:!?()\"«»—–]+)*")

_DIGITS = re.compile(r"\d+")

_BULLET = re.compile(r"(?:[-•*–—]|\d{1,2}[.)/]|[a-z]\)|\d{1,2}\s+[-–—])\s+")

_SENTENCE_OPENERS = ("", ":", ";", "(", '"', "«", "—", "–")

_NAMED_CONCEPTS = frozenset(CONCEPTS)

_SHARE = re.compile(r"%|\bper\s?cent\b|\bpercent\b|процент", re.IGNORECASE)

_COUNT_BEFORE = re.compile(r"\d\s*\+\s*$|\d\s*[–—-]\s*\d+\s*$")


@dataclass
class Sentence:
    start: int
    end: int
    clauses: list[Span]
    lex: ModuleType
    # The message's own language: an English log line quoted in a Russian bug report is read
    # with English grammar, but names no feature of the product.
    in_message_language: bool = True


@dataclass
class Finding:
    type: str
    label: str
    quote: Span
    at: int  # where the thing itself starts, for ordering
    value: str = ""
    subject: str = ""
    stance: str = ""
    origin: str = ""  # how it was found, where linking depends on it ("offered" features)
    focus: Span | None = None  # for triggers: the clause that says who is triggered
    named: Span | None = None  # for alternatives: the words that name it


@dataclass(frozen=True)
class _Referent:
    """What a following "they" may point back to: the previous sentence's findings."""

    start: int
    found: list[Finding]
    carried: tuple[int, Finding] | None


def _shown_label(found: Finding) -> str:
    """A Russian feature is named in the nominative, whatever case the request's verb put it
    in: «Добавьте тёмную тему» asks for «тёмная тема»."""
    if found.type == "feature" and is_cyrillic(found.label[:1]):
        return in_the_nominative(found.label)
    return found.label


def _sentences(text: str, language: str) -> Iterator[Sentence]:
    start = 0
    messages = _MessageColons(text)
    quotes = _QuotedSpans(text)
    for boundary in _SENTENCE_BREAK.finditer(text):
        if _ABBREVIATION.search(text[start : boundary.start()]):
            continue  # "e.g. Excel" does not end a sentence
        if _wrapped(text, boundary) or messages.inside(boundary) or quotes.inside(boundary):
            continue
        yield from _sentence(text, start, boundary.start(), language)
        start = boundary.end()
    yield from _sentence(text, start, len(text), language)


# An error or a message quoted after a colon: "… выдаёт ошибку: Failed to fetch. Retry
# later." The message is what the error says, one statement with the words that report it.
_MESSAGE_COLON = re.compile(
    r"(?<![\w-])(?:ошибк\w*|сообщени\w*|исключени\w*|\w*error|message|\w*exception)\s*:\s",
    re.I,
)


class _MessageColons:
    """Where a text quotes a message after a colon, found once for the whole text: asked per
    sentence break, a search of the line up to each break would read a long line once per
    sentence on it."""

    def __init__(self, text: str) -> None:
        self.found = [(m.start(), m.end()) for m in _MESSAGE_COLON.finditer(text)]
        self.starts = [start for start, _ in self.found]
        self.line_ends = [m.start() for m in re.finditer("\n", text)] if self.found else []

    def inside(self, boundary: re.Match[str]) -> bool:
        """A sentence break on the line of a message quoted after a colon (the line's first
        such colon, not at the line's very start)."""
        if not self.found or "\n" in boundary.group():
            return False
        before = bisect.bisect_left(self.line_ends, boundary.start())
        line_start = self.line_ends[before - 1] + 1 if before else 0
        first = bisect.bisect_left(self.starts, line_start)
        if first == len(self.found):
            return False
        start, end = self.found[first]
        return line_start < start and end <= boundary.start()


class _QuotedSpans:
    """Where a writer's sentence quotes a message on its line ('it says "Error while fetching.
    Retry."'): a full stop inside the quote ends the quoted message's sentence, not the
    writer's. A line that is all quotation is the message itself, read sentence by sentence."""

    def __init__(self, text: str) -> None:
        quoted = '"' in text or "«" in text or "“" in text
        self.spans = [
            m.span()
            for m in (_QUOTED.finditer(text) if quoted else ())
            if any(c.isalpha() for c in text[text.rfind("\n", 0, m.start()) + 1 : m.start()])
        ]
        self.starts = [start for start, _ in self.spans]

    def inside(self, boundary: re.Match[str]) -> bool:
        """A break whose quote goes on after it: the closing mark is still to come."""
        at = bisect.bisect_right(self.starts, boundary.start()) - 1
        return at >= 0 and boundary.end() < self.spans[at][1]


_WRAPPED_LINE = 50  # characters: a line this long that stops mid-sentence was wrapped


def _wrapped(text: str, boundary: re.Match[str]) -> bool:
    """A line break inside a hard-wrapped paragraph: a long line that ends mid-sentence, and a
    next line that goes on in lower case ("… agencies often try to negotiate more finely\n
    scoped requests …"). A short line or a new capital starts a new statement."""
    if "\n" not in boundary.group() or boundary.group().count("\n") > 1:
        return False
    line_start = text.rfind("\n", 0, boundary.start()) + 1
    line = text[line_start : boundary.start()]
    following = text[boundary.end() : boundary.end() + 1]
    return (
        len(line) >= _WRAPPED_LINE
        and line[-1:] not in ".!?…:;"
        and following.isalpha()
        and following.islower()
    )


def _sentence(text: str, start: int, end: int, language: str) -> Iterator[Sentence]:
    start, end = _trim(text, start, end)
    bullet = _BULLET.match(text, start, end)
    if bullet is not None:
        start = bullet.end()  # list markers are layout, not words
    if end <= start:
        return
    lex = _lexicon(text[start:end], language)
    own = (language.lower()[:2] or lex.LANG) == lex.LANG
    yield Sentence(start, end, _clauses(text, start, end, lex), lex, own)


def _lexicon(sentence: str, language: str) -> ModuleType:
    """Russian rules for Cyrillic sentences: PM notes mix languages within one message. What
    a sentence quotes (a page's title, a message: «Мёртвая ссылка на "Getting Started"») is
    not the language it is told in."""
    told = _QUOTED.sub(" ", sentence)
    if not (_CYRILLIC.search(told) or _LATIN.search(told)):
        told = sentence
    cyrillic, latin = len(_CYRILLIC.findall(told)), len(_LATIN.findall(told))
    if cyrillic and cyrillic >= 0.3 * latin:
        return lexicon_ru
    if latin:
        return lexicon_en
    return lexicon_ru if language.lower().startswith("ru") else lexicon_en


_QUOTED = re.compile(r'"[^"\n]*"|«[^»\n]*»|“[^”\n]*”')


# «, а» after a denied phrase: what was done instead of it (problems.denied_before_contrast)
_BUT_RATHER = re.compile(r",\s+а\b")


def _clauses(text: str, start: int, end: int, lex: ModuleType) -> list[Span]:
    spans: list[Span] = []
    cursor = start
    # a quoted message is one piece of its clause («выдаёт ошибку "fatal: access denied"»)
    quoted = [m.span() for m in _QUOTED.finditer(text, start, end)]
    for separator in lex.CLAUSE_SEPARATOR.finditer(text, start, end):
        if any(s < separator.start() < e for s, e in quoted):
            continue
        if _MESSAGE_COLON.search(text, max(start, separator.start() - 20), separator.end()):
            continue  # «выдаёт ошибку: …»: the message belongs to its report
        if (
            lex is lexicon_ru
            and _BUT_RATHER.match(separator.group())
            and denied_before_contrast(text[cursor : separator.start()])
        ):
            continue  # «… не у выделенного блока, а у родительского»: one statement
        spans.append(_trim(text, cursor, separator.start()))
        cursor = separator.end()
    spans.append(_trim(text, cursor, end))
    return [span for span in spans if span[1] > span[0]] or [(start, end)]


def _trim(text: str, start: int, end: int) -> Span:
    """Drop surrounding spaces and closing punctuation, keeping the span a slice of text."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in ".,;:!?…"):
        end -= 1
    return start, end


def _cover(sentence: Sentence, start: int, end: int) -> Span:
    """The clauses a span touches: the smallest quote that still reads as a statement."""
    first = next((c for c in sentence.clauses if c[1] > start), sentence.clauses[-1])
    last = next((c for c in reversed(sentence.clauses) if c[0] < end), sentence.clauses[0])
    return (min(first[0], last[0]), max(first[1], last[1]))


def _clause_end(sentence: Sentence, position: int) -> int:
    return next((c[1] for c in sentence.clauses if c[1] > position), sentence.end)


def _phrase(
    text: str,
    start: int,
    end: int,
    lex: ModuleType,
    cutter: re.Pattern[str] | None = None,
    max_words: int = 8,
    *,
    clause_first: bool = False,
) -> Span:
    """A short span for a label: cut at the first cutter, without leading or trailing filler.
    Past max_words, clause_first cuts at the end of a whole first clause when there is one."""
    if cutter is not None:
        cut = next((m for m in cutter.finditer(text, start, end) if m.start() > start), None)
        if cut is not None:
            end = cut.start()
    tokens = [(m.start() + start, m.end() + start) for m in _TOKEN.finditer(text[start:end])]
    while tokens and _bare(text, tokens[0]) in lex.LEADING_STOPWORDS:
        tokens.pop(0)
    if len(tokens) > max_words:
        span = (tokens[0][0], tokens[-1][1])
        clause_end = first_clause_end(text, span, max_words) if clause_first else None
        if clause_end is not None:
            tokens = [(s, min(e, clause_end)) for s, e in tokens if s < clause_end]
        else:
            cut = cut_at_word_limit(text, span, max_words)
            tokens = [t for t in tokens if t[1] <= cut] or tokens[:max_words]
    while tokens and _bare(text, tokens[-1]) in lex.TRAILING_STOPWORDS:
        if _ends_a_phrasal_verb(text, tokens, lex):
            break
        tokens.pop()
    if not tokens:
        return start, start
    start, end = tokens[0][0], tokens[-1][1]
    while start < end and text[start] in _EDGE_PUNCTUATION:
        start += 1
    while end > start and text[end - 1] in _EDGE_PUNCTUATION:
        end -= 1
    return start, end


def _ends_a_phrasal_verb(text: str, tokens: list[Span], lex: ModuleType) -> bool:
    """The last token is the particle of the verb before it ("log in", "shut down")."""
    if lex is not lexicon_en or len(tokens) < 2:
        return False
    particle, verb = _bare(text, tokens[-1]), _bare(text, tokens[-2])
    return particle in lex.PHRASAL_PARTICLES and lemma(verb) in lex.PHRASAL_VERBS


def _bare(text: str, span: Span) -> str:
    return text[span[0] : span[1]].strip(_EDGE_PUNCTUATION).lower()


def _label(text: str, span: Span, sentence: Sentence) -> str:
    """Whitespace collapsed; a capital that is only there because a sentence starts is dropped."""
    words = text[span[0] : span[1]].split()
    while words and all(_a_pictograph(c) for c in words[-1]):
        words.pop()  # "blank panel 😞": the writer's feeling, no word of the label
    if words and words[0].lstrip("—–") and words[0][0] in "—–":
        words[0] = words[0].lstrip("—–")  # '—"Not found"': a list's dash, no word of the label
    if not words:
        return ""
    first = words[0]
    opener = text[sentence.start : span[0]].strip()[-1:] if span[0] > sentence.start else ""
    at_start = span[0] == sentence.start or opener in _SENTENCE_OPENERS
    if at_start and first[:1].isupper() and first[1:] == first[1:].lower():
        words[0] = first.lower()
    return " ".join(words)


def _a_pictograph(character: str) -> bool:
    return unicodedata.category(character) in ("So", "Sk") or character in "\ufe0f\u200d"


def _words_before(text: str, position: int, floor: int, lex: ModuleType, limit: int) -> int:
    """Start of the noun phrase that ends at position (the subject of "the app lags")."""
    start = position
    taken: list[int] = []
    for token in reversed(list(_TOKEN.finditer(text, floor, position))):
        word = token.group()
        bare = word.strip(_EDGE_PUNCTUATION).lower()
        if taken and modifies_a_subject(text, (floor, position), token.start()):
            # «автодополнение в Python не работает», «плагины для Python сломаны»: the noun's
            # phrase
            start = token.start()
            taken.append(start)
            continue
        if bare in lex.SUBJECT_PREPOSITIONS and taken:
            return taken[0]  # «при запуске программа тормозит»: the noun right before the cue
        if word[-1] in ",;:—–" or bare in lex.SUBJECT_BOUNDARY:
            break
        start = token.start()
        taken.append(start)
        if word[0] in '("«':
            break
        if lex is lexicon_en and bare in SUBJECT_OPENERS and opens_the_subject(text[floor:start]):
            break  # "when I open the settings | the app crashes"
        if len(taken) >= limit and not _headless(text[start:position], lex, len(taken) - limit):
            break
    return start


_HEAD_SEARCH = 3  # words past the limit to reach the noun a Russian phrase hangs on


def _headless(phrase: str, lex: ModuleType, past: int) -> bool:
    """«[обработка] горячих клавиш в текстовых полях»: a Russian subject cut at the word limit
    holds only the words that depend on its noun, none of them nominative; it reads on to
    that noun, a few words at most."""
    if lex is not lexicon_ru or past >= _HEAD_SEARCH:
        return False
    return not any(_may_head(word) for word in phrase.split())


def _may_head(word: str) -> bool:
    """A word the phrase may hang on: a noun or pronoun likely to be nominative, or
    a name in another script ("VS Code")."""
    bare = word.strip(_EDGE_PUNCTUATION)
    if not _CYRILLIC.search(bare):
        return any(c.isalpha() for c in bare)
    return may_be_a_subject(bare)
