"""Are two short statements the same finding? The sentence encoder's cosine, with guards.

A sentence encoder puts a statement and its paraphrase or translation close together, but also
a statement and its denial ("speed matters" / "speed does not matter") and two statements on one
topic ("payout is slow" / "delivery is slow"): its cosine measures topic as much as claim. So:
- below ASK_FROM two statements are never the same;
- from SAME_AT they are the same unless a guard says otherwise: one denies what the other says
  (`negated` differs), each names someone or somewhere the other does not (`names_differ`:
  "florists in Hull" / "florists in York"), one says nothing particular (`says_which`: "Error"),
  each has a word the other turns around by its prefix («вход» / «выход», "enable" /
  "disable"), they say the same of two different things (`things_differ`: "the login page
  lags" / "the payment page lags"), or they name different numbers, versions or models (the
  caller's code guard, kg.pipeline.resolve) — `kept_apart` holds all but the last;
- in between they are a question: the model is asked in openai mode, the offline rules
  (kg.llm.offline.similarity) answer otherwise.
Both bars were chosen on the dev half of the paraphrase pairs and the dev splits of the
duplicate sets (benchmarks/results/semantic.json), never on their test halves.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kg.language.lemmas import GENERIC, content_lemmas, is_cyrillic, lemma
from kg.language.names import closest_name, names_similarity
from kg.language.tokens import analyse

SAME_AT = 0.8
ASK_FROM = 0.55

# A word of negation standing alone: in "no-op" or "non-stop" the word is part of a name.
_NEGATION = re.compile(
    r"(?<![\w-])(?:not|no|never|without|cannot|can't|won't|doesn't|don't|didn't|isn't|aren't"
    r"|wasn't|не|нет|ни|без|нельзя)(?![\w-])|n't\b",
    re.IGNORECASE,
)


def negated(text: str) -> bool:
    """Whether the statement says "not": its denial means the opposite, however close."""
    return bool(_NEGATION.search(text.lower()))


_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-ZА-ЯЁ][\w-]*", re.UNICODE)


def proper_names(text: str) -> frozenset[str]:
    """Capitalised words not opening the text or a sentence: names of people, places, brands."""
    return frozenset(w.casefold() for w in _NAME.findall(text.strip()))


def names_differ(a: str, b: str) -> bool:
    """Each statement names someone or something the other does not: a sentence vector hardly
    sees a name, while the name says which thing is meant."""
    left, right = proper_names(a), proper_names(b)
    return bool(left - right) and bool(right - left)


def says_which(text: str) -> bool:
    """Whether the statement has a word that tells which thing it means: "Error" and «ошибка»
    name no particular problem, and two such titles are two bugs, however close their vectors."""
    return bool(content_lemmas(text) - GENERIC)


# Prefixes that change what a word does (a closed class in both languages), the empty one
# included: «вход» / «выход», «открывать» / «закрывать», "able" / "unable", "enable" / "disable".
_PREFIX_LIST = """в во вы за от ото до по при пере раз рас про под подо над с со у о об обо из
ис на не en dis un in im re de"""
_PREFIXES = frozenset(_PREFIX_LIST.split()) | {""}
_MIN_STEM = 3


def _prefixed_pair(a: str, b: str) -> bool:
    shared = 0
    while shared < min(len(a), len(b)) and a[-1 - shared] == b[-1 - shared]:
        shared += 1
    return (
        a != b
        and shared >= _MIN_STEM
        and a[: len(a) - shared] in _PREFIXES
        and b[: len(b) - shared] in _PREFIXES
    )


def turned_around(a: str, b: str) -> bool:
    """Each statement has a word the other has with another prefix: in Russian and often in
    English the prefix turns the action around («вход» / «выход», «открывается» /
    «закрывается», "enable" / "disable"), which a sentence vector barely sees."""
    left, right = content_lemmas(a), content_lemmas(b)
    return any(_prefixed_pair(x, y) for x in left - right for y in right - left)


_NOMINAL_RUN = frozenset({"NOUN", "PROPN", "ADJ", "DET", "NUM"})


def core_nouns(text: str) -> frozenset[str]:
    """Lemmas of the nouns that are not inside a prepositional phrase: what the statement is
    about and acts on ("the login page lags"), not where or when ("in basements")."""
    tokens = analyse(text)
    found = set()
    for i, token in enumerate(tokens):
        if token.pos not in {"NOUN", "PROPN"}:
            continue
        before = i - 1
        while before >= 0 and tokens[before].pos in _NOMINAL_RUN:
            before -= 1
        if before < 0 or tokens[before].pos != "ADP":
            found.add(token.lemma)
            # a hyphenated modifier names a kind of the thing ("the sign-up form")
            found |= {t.lemma for t in tokens[before + 1 : i] if "-" in t.text}
    return frozenset(found)


def things_differ(a: str, b: str) -> bool:
    """The two statements say the same of two different things: the same frame (at least half
    the shorter one's content words shared) with another noun in it on each side, where the
    noun is what the statement is about or acts on ("the login page lags" / "the payment page
    lags", «таймер сбрасывается» / «фильтр сбрасывается»). A sentence vector reads the frame
    and puts them together. Another place or time in the same frame ("in basements" / "in
    underground parking") changes no finding, and neither does a word added on one side."""
    left, right = content_lemmas(a), content_lemmas(b)
    if 2 * len(left & right) < min(len(left), len(right)):
        return False
    return bool(core_nouns(a) - right) and bool(core_nouns(b) - left)


def kept_apart(a: str, b: str) -> bool:
    """The guards under which two statements are never one, whatever their cosine."""
    return (
        negated(a) != negated(b)
        or names_differ(a, b)
        or not (says_which(a) and says_which(b))
        or turned_around(a, b)
        or things_differ(a, b)
    )


def same_by_meaning(text: str, names: Sequence[str]) -> bool:
    """Whether `text` states what one of `names` states (no code guard: the caller's)."""
    name, cosine = closest_name(text, names)
    return cosine >= SAME_AT and not kept_apart(text, name)  # the cheap test first


_NOMINAL = frozenset({"NOUN", "PROPN", "ADJ"})
_OF = frozenset({"of", "for"})


def subject_phrase(label: str, subject: str) -> str:
    """The words of `label` that name its subject: the subject word with the nouns and
    adjectives that modify it before ("delivery speed") and its complement after ("speed of
    payout"; in Russian the genitive nouns that follow, «скорость выплат»). The subject word
    itself when the label does not contain it."""
    wanted = [lemma(w) for w in subject.split()]
    tokens = analyse(label)
    at = next((i for i, t in enumerate(tokens) if wanted and t.lemma == wanted[-1]), None)
    if at is None:
        return subject
    start = at
    while start > 0 and tokens[start - 1].pos in _NOMINAL:
        start -= 1
    end = at + 1
    if is_cyrillic(tokens[at].text):
        while end < len(tokens) and tokens[end].pos == "NOUN":
            end += 1  # «скорость | выплат»: the genitive nouns that follow
    elif end + 1 < len(tokens) and tokens[end].lower in _OF:
        after = end + 1  # "speed of | the | fast payout": one noun, its words before it
        while after < len(tokens) and tokens[after].pos in {"DET", "ADJ"}:
            after += 1
        if after < len(tokens) and tokens[after].pos in {"NOUN", "PROPN"}:
            end = after + 1
    return label[tokens[start].start : tokens[end - 1].end]


def same_subject(a: Sequence[str], b: Sequence[str], subject: str) -> bool:
    """Whether two statements sharing a subject word speak of the same thing, each given as its
    label and the words it was quoted from (a label may keep the bare subject where its quote
    narrows it). When both narrow the subject ("speed of payout" / "delivery speed") the
    narrowed phrases must mean the same (SAME_AT); a statement on the bare subject speaks of
    every narrowing of it."""
    bare = " ".join(subject.split()).casefold()
    left, right = _narrowest(a, subject), _narrowest(b, subject)
    if left.casefold() in (bare, right.casefold()) or right.casefold() == bare:
        return True
    return names_similarity(left, [right]) >= SAME_AT


def _narrowest(texts: Sequence[str], subject: str) -> str:
    """The longest subject phrase among the texts (the label's, else its quotes')."""
    return max((subject_phrase(t, subject) for t in texts if t), key=len, default=subject)
