"""Offline sameness of two short mentions (EN + RU), for the resolution confirmation.

Precision first: a wrong merge corrupts evidence (one node holding nine unrelated bugs), a
missed merge costs a duplicate node that a person can merge. Two mentions are the same only
when all of these hold:
- their codes agree: numbers, versions and model numbers ("cs3" is not "cs2", "dsc-w170" is
  not "dsc-w120"); a version said on one side only is a doubt, so not the same (a catalogue
  number on one side only is not: shops append their own);
- for names of offerings (product, competitor, alternative, feature) their edition words agree
  ("photoshop" is not "photoshop extended", "office 2007" is not "office 2007 academic");
- their informative words agree: every informative lemma of the shorter one is in the longer
  one and they share at least two; or they share a model number and half of the shorter one's
  informative lemmas.
Informative means a content lemma that is not generic: negations, light verbs ("work",
"работать"), and words that any complaint or product name uses ("problem", "error", "app",
"version") are no evidence that two mentions name one thing: «не работает X» and «не работает
Y» are two bugs.
Synonyms: the few general themes of product feedback in CONCEPTS count as one word each.
No word-vector model is installed, so paraphrases that share no words are not found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kg.language import is_cyrillic, lemma
from kg.language.lemmas import is_stopword, words
from kg.pipeline.resolve import codes_of, unmatched_codes

_WORD = re.compile(r"[\w-]+", re.UNICODE)


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Function words for `concepts` (its crude stems do not know kg.language's lists).
STOPWORDS = _wordset(
    """the a an of on in to and or is are was be with for at it its they them their we our from
    when that this there whenever very too so by as get gets still и в во на с со по для что это
    у из при их они мы наш когда как же бы то а но или уже очень все"""
)

# Stem prefixes (lower-case) → concept: words that product feedback in general uses for one
# theme (slowness, connectivity, crashes, price). A word belongs to the first concept whose
# prefix it starts with.
CONCEPTS: dict[str, tuple[str, ...]] = {
    "SLOW": (
        "slow",
        "lag",
        "freez",
        "froze",
        "hang",
        "stuck",
        "sluggish",
        "тормоз",
        "медлен",
        "завис",
        "подвиса",
    ),
    "NETWORK": (
        "internet",
        "signal",
        "network",
        "connect",
        "3g",
        "4g",
        "lte",
        "wifi",
        "wi-fi",
        "offline",
        "coverage",
        "reception",
        "интернет",
        "связ",
        "сеть",
        "сети",
        "сигнал",
    ),
    "CRASH": ("crash", "вылет", "падает", "падают", "сбой", "сбоя", "сбои"),
    "PRICE": (
        "price",
        "pricing",
        "cost",
        "expensive",
        "цен",
        "стоимост",
        "дорого",
        "дороже",
        "подорож",
    ),
}


def _concept_of(word: str) -> str | None:
    return next((name for name, stems in CONCEPTS.items() if word.startswith(stems)), None)


def concepts(text: str) -> set[str]:
    """Concept names and crude five-letter stems of the words of a short text."""
    found: set[str] = set()
    for word in _WORD.findall(text.lower()):
        if word in STOPWORDS or len(word) < 2:
            continue
        found.add(_concept_of(word) or word[:5])
    return found


# Lemmas that say nothing about which thing is meant: light verbs, words for "a problem",
# the product itself, and vague qualities. General lists, not taken from any data set.
GENERIC = _wordset(
    """work use make do take give go come get have need want try seem keep start stop show see
    look find put set happen cause allow able unable issue problem bug error fail failure broken
    wrong bad good great nice new old time way case thing stuff something anything nothing user
    people someone anyone everyone always often sometimes again now anymore app application
    program software tool product version edition feature support help
    работать делать сделать использовать стать перестать начать мочь хотеть пытаться получаться
    получиться происходить произойти появляться появиться проблема ошибка баг вопрос помощь
    помочь нужный плохой хороший новый старый время раз случай вещь человек пользователь всегда
    часто иногда снова постоянно сейчас теперь приложение программа версия функция"""
)
# Edition words: for names of offerings, "pro" and "standard" are two products.
EDITION = _wordset(
    """upgrade upsell crossgrade trial academic student teacher education oem full lite light
    basic standard plus pro professional premium deluxe ultimate extended enterprise business
    home personal family express starter platinum gold server"""
)
_EDITION_SPELLINGS = {"pro": "professional", "light": "lite"}
OFFERING_TYPES = frozenset({"product", "competitor", "alternative", "feature"})
MIN_SHARED = 2  # fewer shared informative words is never enough


@dataclass(frozen=True)
class Signature:
    words: frozenset[str]  # informative lemmas (concept names for theme words)
    editions: frozenset[str]
    codes: frozenset[str]


def signature(text: str) -> Signature:
    found: set[str] = set()
    editions: set[str] = set()
    for word in words(text.lower()):
        if any(ch.isdigit() for ch in word):
            continue  # a code, compared apart
        for part in re.split(r"[-/]", word):
            # Short Latin tokens are abbreviations ("ca", "cs", "pc"): the lemmatiser would
            # read them as inflected words ("ca" → "can").
            base = part if len(part) <= 3 and not is_cyrillic(part) else lemma(part)
            if len(base) < 2 or is_stopword(base) or base in GENERIC:
                continue
            if part in EDITION:  # as written: the lemmatiser reads "extended" as "extend"
                editions.add(_EDITION_SPELLINGS.get(part, part))
            found.add(_concept_of(base) or base)
    return Signature(frozenset(found), frozenset(editions), codes_of(text))


def _strong(code: str) -> bool:
    """A model or catalogue number, not a short version such as "2", "7.5" or "cs3"."""
    if code.isdigit():
        return len(code) >= 6
    return len(code) >= 5 and not code.replace(".", "").isdigit()


def same_thing(a: str, b: str, node_type: str = "") -> tuple[bool, float]:
    """(same, share of the shorter mention's informative words found in the other)."""
    left, right = signature(a), signature(b)
    only_left, only_right = unmatched_codes(left.codes, right.codes)
    shorter = min(len(left.words), len(right.words))
    shared = left.words & right.words
    overlap = len(shared) / shorter if shorter else 0.0
    if only_left and only_right:
        return False, overlap
    # Codes on one side only: a version is a doubt ("office" / "office 2007"), a catalogue
    # number is not (shops append their own).
    lone = left.codes or right.codes if not (left.codes and right.codes) else frozenset()
    if any(not _strong(c) for c in lone):
        return False, overlap
    if node_type in OFFERING_TYPES and left.editions != right.editions:
        return False, overlap
    model_shared = any(_strong(c) for c in (left.codes - only_left))
    if model_shared and shorter and overlap >= 0.5:
        return True, overlap
    return len(shared) >= MIN_SHARED and overlap == 1.0, overlap
