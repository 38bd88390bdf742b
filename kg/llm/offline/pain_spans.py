"""Pain labels: the words of a clause that name a problem, and the part it is a problem of.

Once a clause is a problem (problems), `pain_span` takes its label: the subject and the
failing verb with what it says, past a fronted phrase and before a trailing conjunct;
`problem_part_spans` finds the part of the product it is about; labels are cut to a word
limit at a clause boundary (`cut_at_word_limit`, `first_clause_end`).
Example: "After the last update, the search bar freezes when I type fast" gives the pain
"search bar freezes when I type fast", the fronted phrase left out.
"""

from __future__ import annotations

import re

from kg.language import Token, analyse, grammemes
from kg.llm.offline.complaints import _requests_a_fix, _segment
from kg.llm.offline.feature_phrases import _ASPECT_VERBS, _a_failed_screen, _content_bounds
from kg.llm.offline.negation import is_hypothetical
from kg.llm.offline.non_problems import (
    _asks_for_a_fix,
    _expects,
    _names_no_problem,
    _praised,
    _quoted_message_end,
    _reason_for_praise,
    _told_apart,
    _wishes,
)
from kg.llm.offline.problems import _INSTEAD, _only_a_verdict, problem_at
from kg.llm.offline.reading import Span, _wordset, listed, read
from kg.llm.offline.rule_words import (
    _FEATURE_WORDS,
    _MAX_LABEL_WORDS,
    GENERIC_NOUNS,
    NEGATORS,
    PROBLEM_LEMMAS,
)

# Words that front a phrase of time or condition before a clause's subject, with no comma
# ("since the last update the widget …", "when saving a large file the editor …").
FRONTING_WORDS = _wordset("since after before until when whenever once while if")

# the words that open an English subject's noun phrase
SUBJECT_OPENERS = _wordset("the a an my our your his her their its this these")


# Words a determiner may follow inside the subject's own phrase ("the sync between my
# phone", "the icon of the app") or inside an amount's ("about a second").
_INSIDE_A_PHRASE = _wordset(listed("inside_a_phrase"))


def opens_the_subject(before: str) -> bool:
    """A determiner after these words of an English clause opens its subject when a phrase of
    time or condition was fronted without a comma and the determiner follows that phrase's
    last word ("when I open the settings | the app crashes"). After a preposition or an -ing
    form it is inside a phrase ("between | my phone", "compiling | the shell service"); with
    no such phrase before it, it opens the verb's object ("it deleted | my chats")."""
    words = [w.strip(".,;:!?\"'()").lower() for w in before.split()]
    if not words or not any(w in FRONTING_WORDS for w in words):
        return False
    last = words[-1]
    return last.isalpha() and not last.endswith("ing") and last not in _INSIDE_A_PHRASE


# Where the tags are known, a pronoun, an auxiliary or an adjective before the determiner
# keeps it inside the fronted phrase too ("when I saw it | the …" is read on).
_INSIDE_A_PHRASE_POS = frozenset(("ADP", "DET", "ADJ", "PRON", "AUX", "CONJ"))


def _past_a_fronted_phrase(tokens: list[Token], first: int, at: int) -> int:
    """An English piece that opens on a fronted phrase of time or condition starts at its
    subject ("since the last update | the widget no longer refreshes"), found by words, not
    tags: the tagger often reads the phrase's last noun as a verb ("update", "file")."""
    opener = next(
        (k for k in (first - 1, first) if 0 <= k < at and tokens[k].lower in FRONTING_WORDS),
        None,
    )
    if opener is None or not tokens[opener].text.isascii():
        return first
    for k in range(opener + 2, at):
        if (
            tokens[k].lower in SUBJECT_OPENERS
            and tokens[k - 1].pos not in _INSIDE_A_PHRASE_POS
            and opens_the_subject(" ".join(t.text for t in tokens[opener:k]))
        ):
            return k
    return first


def pain_span(text: str, clause: Span) -> Span | None:
    """The words of a problem a clause states, when its grammar says it states one."""
    reading = read(text, clause)
    wish = _wishes(text, clause) and not _told_apart(text, reading, clause)
    if is_hypothetical(reading) or _expects(reading.tokens) or wish:
        return None
    at = problem_at(reading)
    if at is None or _asks_for_a_fix(reading.tokens, at) or _names_no_problem(reading.tokens, at):
        return None
    if _only_a_verdict(reading.tokens, at):
        return None
    if reading.tokens[at].text.isascii() and (
        _praised(text, reading, at) or _reason_for_praise(reading.tokens, at)
    ):
        return None
    tokens = reading.tokens
    # the piece that holds the problem word: "I'm sorry but this app is crap" → "this app is crap"
    first, last = _segment(tokens, at)
    first = _past_a_fronted_phrase(tokens, first, at)
    message_end = _quoted_message_end(tokens, at)
    if message_end is not None:
        last = message_end  # the error with its message
    if tokens[at].lower == "не" and first > 1 and tokens[first - 1].text == ",":
        # «терминал открывается в домашней папке, а не в …»: from the verb's subject on
        verb = max(j for j in range(first - 1) if tokens[j].pos == "VERB")
        subject = verb - 1 if verb and tokens[verb - 1].pos in ("NOUN", "PROPN", "PRON") else verb
        first = max(_segment(tokens, first - 2)[0], subject)
        last = min(last, first + _MAX_LABEL_WORDS + 2)
        if last - first + 1 > _MAX_LABEL_WORDS:
            first, last = _content_bounds(tokens, first, last)
            return reading.span(first, last)
    if tokens[at].lower in _INSTEAD and last + 2 < len(tokens) and tokens[last + 1].text == ",":
        last = _segment(tokens, last + 2)[1]  # "instead of the page, it shows markup"
    if last - first < 2:
        first, last = 0, len(tokens) - 1  # a lone word needs its clause to read as a statement
    if last - first + 1 > _MAX_LABEL_WORDS:
        first = _window_start(tokens, max(0, at - 4), at)
        last = _noun_run_end(tokens, min(len(tokens) - 1, first + _MAX_LABEL_WORDS - 1))
        first = _past_a_conjunct_tail(tokens, first, at)
    first, last = _content_bounds(tokens, first, last)
    if (
        last + 1 < len(tokens)
        and _requests_a_fix(tokens, last)
        and tokens[last + 1].pos
        in (
            "PRON",
            "DET",
        )
    ):
        last += 1  # "please fix this": the request keeps what it points at
    if at < first <= last:
        first = at  # "too many ads", «не видно изменений»: the problem word is what is wrong
    if first > last or not any(t.pos in ("VERB", "ADJ", "NOUN") for t in tokens[first : last + 1]):
        return None
    return reading.span(first, last)


def _past_a_conjunct_tail(tokens: list[Token], first: int, at: int) -> int:
    """ "… for Ubuntu x86-64 | and get build errors": a window that opens on the tail of the
    conjunct before a coordinated predicate starts on that predicate."""
    joined = [
        j
        for j in range(first, at)
        if tokens[j].pos in ("CONJ", "CCONJ") and tokens[j + 1].pos in ("VERB", "AUX")
    ]
    return joined[-1] + 1 if joined else first


_BEFORE_PROBLEM_POS = frozenset({"AUX", "PART", "ADV"})

_MODIFIER_POS = frozenset({"DET", "ADJ", "NUM"})

_NOMINAL_POS = frozenset({"NOUN", "PROPN", "ADJ", "DET", "NUM"})


def _window_start(tokens: list[Token], first: int, at: int) -> int:
    """Where a label cut to a window before the problem word starts, never mid-phrase: the
    window takes in the modifiers of its first noun ("the | characters in the terminal"), and
    steps past a prepositional phrase it would open inside ("for some | reason are not
    shown")."""
    if tokens[first].pos not in _NOMINAL_POS:
        return first
    start = first
    while start > 0 and tokens[start - 1].pos in _MODIFIER_POS:
        start -= 1
    if start > 0 and tokens[start - 1].pos == "ADP":
        while first < at and tokens[first].pos in _NOMINAL_POS:
            first += 1
        while first < at and tokens[first].pos == "ADP":  # and past the ones that follow
            first += 1
            while first < at and tokens[first].pos in _NOMINAL_POS:
                first += 1
        return first
    return start


# "a problem with syncing", "the lack of filters": the part follows these words.
_TROUBLE_WITH = _wordset("problem issue trouble bug glitch error lack")

_TROUBLE_LINKS = _wordset("with of in when")


def _part_name(tokens: list[Token], first: int, last: int) -> tuple[int, int] | None:
    """A noun phrase naming a part of the product, or None (a person is checked by the caller;
    the product as a whole, a pronoun or a generic word is not a part)."""
    if last < first or tokens[last].pos != "NOUN" or tokens[last].lemma in GENERIC_NOUNS:
        return None
    if tokens[last].lemma in PROBLEM_LEMMAS:
        return None
    while (
        first < last
        and tokens[first].pos not in ("NOUN", "VERB")
        and not _names_the_part(tokens, first)
    ):
        first += 1  # "new", "whole": the qualities of the moment are not the part's name
    return first, last


def _noun_phrase_before(tokens: list[Token], end: int) -> tuple[int, int] | None:
    last = end
    first = last
    # "search bar", "calling feature": nouns, adjectives and -ing words before the head
    while (
        first > 0
        and last - first < 3
        and (
            tokens[first - 1].pos in ("NOUN", "ADJ")
            or (tokens[first - 1].pos == "VERB" and tokens[first - 1].lower.endswith("ing"))
            or _names_the_part(tokens, first - 1)
        )
    ):
        first -= 1
    return _part_name(tokens, first, last)


def _names_the_part(tokens: list[Token], i: int) -> bool:
    """A capitalised word right after "the" names the part after it: "the Home button", "the
    Trending tab" (taggers read a proper noun); an adjective capitalised for weight does not
    ("the Main mode of communication")."""
    return (
        tokens[i].pos == "PROPN"
        and i > 0
        and tokens[i - 1].lower == "the"
        and analyse(tokens[i].lower)[0].pos != "ADJ"
    )


def _noun_phrase_after(tokens: list[Token], start: int) -> tuple[int, int] | None:
    i = start
    while i < len(tokens) and tokens[i].pos in ("DET", "PRON", "ADV"):
        i += 1
    last = i
    while last + 1 < len(tokens) and last - i < 3 and tokens[last + 1].pos == "NOUN":
        last += 1
    if i >= len(tokens) or tokens[i].pos not in ("NOUN", "VERB", "ADJ"):
        return None
    if tokens[i].pos == "VERB" and not tokens[i].lower.endswith("ing"):
        return None
    if tokens[last].pos == "VERB":  # "trouble with syncing": the activity is the part
        return (i, last) if last == i else None
    return _part_name(tokens, i, last)


def problem_part_spans(text: str, clause: Span, parts: frozenset[str]) -> list[Span]:
    """The parts of the product a problem is said of: the subject of the problem word ("my
    search bar isn't working", "messages cannot be sent"), what a negative adjective qualifies
    ("a terrible date picker"), and what "a problem with" or "the lack of" names. Never a
    pronoun, the product as a whole, or a generic word; a part is named by a word for one
    (parts, "feature") or by an activity ("a problem with syncing"): the subject of a problem
    is as often the weather, a coffee break or the reviewer's own phone."""
    reading = read(text, clause)
    if is_hypothetical(reading):
        return []
    at = problem_at(reading)
    if at is None:
        return []
    tokens = reading.tokens
    named: list[tuple[int, int] | None] = []
    before = at - 1
    while before >= 0 and (
        tokens[before].pos in _BEFORE_PROBLEM_POS
        or tokens[before].lower in NEGATORS
        or tokens[before].lemma in _ASPECT_VERBS
    ):
        before -= 1
    if before >= 0 and tokens[before].pos == "NOUN":
        named.append(_noun_phrase_before(tokens, before))
    if tokens[at].pos == "ADJ" and at + 1 < len(tokens):
        named.append(_noun_phrase_after(tokens, at + 1))
    trouble = tokens[at].lemma in _TROUBLE_WITH
    if trouble and at + 1 < len(tokens) and tokens[at + 1].lower in _TROUBLE_LINKS:
        named.append(_noun_phrase_after(tokens, at + 2))
    return [
        reading.span(*found)
        for found in named
        if found is not None
        and _names_a_part(tokens[found[0] : found[1] + 1], parts)
        and not _a_failed_screen(tokens, *found)
    ]


def _names_a_part(tokens: list[Token], parts: frozenset[str]) -> bool:
    return any(
        t.lemma in parts
        or t.lower in parts
        or t.lemma in _FEATURE_WORDS
        or (t.pos == "VERB" and t.lower.endswith("ing"))
        for t in tokens
    )


def _noun_run_end(tokens: list[Token], last: int) -> int:
    """A cut at the word limit never ends inside a compound noun: "the status" of "the status
    page" names something else. The run is followed a few words at most."""
    if tokens[last].pos not in ("NOUN", "PROPN", "ADJ"):
        return last
    limit = min(len(tokens) - 1, last + 3)
    while last < limit and tokens[last + 1].pos in ("NOUN", "PROPN"):
        last += 1
    return last


def noun_phrase_end(text: str, end: int, limit: int) -> int:
    """`end`, or further when it falls inside a compound noun ("delays in the checkout|
    process" ends after "process")."""
    reading = read(text, (end, limit))
    tokens = reading.tokens
    last = -1
    while last + 1 < min(len(tokens), 3) and tokens[last + 1].pos in ("NOUN", "PROPN"):
        last += 1
    if last < 0 or text[end:limit][: tokens[0].start].strip():
        return end
    return reading.span(last, last)[1]


def cut_at_word_limit(text: str, span: Span, max_words: int) -> int:
    """Where a phrase cut to max_words (words as spaces part them) ends: past the limit only
    to finish a compound noun."""
    words = list(_SPACED.finditer(text, span[0], span[1]))
    if len(words) <= max_words:
        return span[1]
    cut = words[max_words - 1].end()
    reading = read(text, span)
    tokens = reading.tokens
    last = next((i for i, t in enumerate(tokens) if t.end + reading.offset >= cut), None)
    if last is None:
        return cut
    last = _noun_run_end(tokens, last)
    adjunct = _cut_adjunct(tokens, last)
    if adjunct is not None:
        return reading.span(adjunct, adjunct)[1]
    return max(cut, reading.span(last, last)[1])


def _cut_adjunct(tokens: list[Token], last: int) -> int | None:
    """«… сломана | начиная с версии [3.2]», "… fails | since version [3]": a cut that leaves a
    preposition after the verb without the number it names ends before the preposition (and
    a gerund that governs it); the statement is whole without its circumstance. The last word
    kept, or None when nothing is left hanging. `last`: the last word kept at the limit, its
    compound noun finished."""
    if last + 1 >= len(tokens) or tokens[last + 1].pos not in ("NUM", "X"):
        return None  # the phrase is whole, or only its words after the noun are cut
    verb = next(
        (
            i
            for i in range(last, -1, -1)
            if tokens[i].pos in ("VERB", "AUX") and "GRND" not in grammemes(tokens[i].text)
        ),
        None,
    )
    opened = next((i for i in range(last, verb or 0, -1) if tokens[i].pos == "ADP"), None)
    if verb is None or opened is None or opened <= verb:
        return None
    end = opened - 1
    if end > verb and "GRND" in grammemes(tokens[end].text):
        end -= 1  # «начиная с …»
    return end if end >= verb else None


_SPACED = re.compile(r"\S+")

# Words that join two clauses of equal rank.
_COORDINATORS = _wordset("and or but so yet nor и а но или")

_SUBJECT_MODIFIERS = frozenset({"DET", "ADJ", "NUM"})


def _opens_a_clause(tokens: list[Token], i: int) -> bool:
    """tokens[i:] read as a subject and its finite verb: "requesters don't …", "my phone
    never charges", "it logs me out", «кнопка не нажимается»."""
    j = i
    if j < len(tokens) and tokens[j].pos == "PRON":
        j += 1  # "it", "they", or a possessive before its noun ("my phone")
    while j < len(tokens) and tokens[j].pos in _SUBJECT_MODIFIERS:
        j += 1
    nouns = j
    while j < len(tokens) and tokens[j].pos in ("NOUN", "PROPN"):
        j += 1
    if j == i or (j == nouns and tokens[j - 1].pos != "PRON"):
        return False  # no subject: "and fast", "and the"
    while j < len(tokens) and (tokens[j].pos == "ADV" or tokens[j].lower in NEGATORS):
        j += 1  # "never", «не»
    return j < len(tokens) and tokens[j].pos in ("VERB", "AUX")


def first_clause_end(text: str, span: Span, max_words: int) -> int | None:
    """Where the first clause of a span too long for a label ends, when a coordinator or a
    comma opens a second clause within max_words ("the form times out and reviewers don't
    see any of it" → "the form times out"): cut at the word limit, the label would end on a
    dangling word ("… and reviewers don't see any"). None when there is no such boundary."""
    reading = read(text, span)
    tokens = reading.tokens
    for i, token in enumerate(tokens):
        if token.lower not in _COORDINATORS and token.text != ",":
            continue
        before = [t for t in tokens[:i] if t.pos != "PUNCT"]
        if len(before) < 2:
            continue
        end = reading.span(i - 1, i - 1)[1]
        if len(text[span[0] : end].split()) > max_words:
            return None
        after = i + 1
        if token.text == "," and after < len(tokens) and tokens[after].lower in _COORDINATORS:
            after += 1
        if _opens_a_clause(tokens, after):
            return end
    return None
