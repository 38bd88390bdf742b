"""Parts and platforms: what a phrase names that is not a feature of the product.

Whether a phrase names a platform ("Android"), a language ("in French"), a device ("my
tablet"), a connection ("on wifi") or whom a statement addresses: such a phrase says where a
problem happens, not what the product does (`names_a_device`, `names_a_platform`);
`part_noun_spans` finds the parts of the product a problem is about.
Example: "crashes on my Galaxy tablet" gives the pain "crashes on my Galaxy tablet" and no
feature "Galaxy tablet".
"""

from __future__ import annotations

import re

from kg.language import cases, grammemes, tagged
from kg.llm.offline.complaints import _PLEAS, DEVICE_WORDS
from kg.llm.offline.feature_phrases import (
    _FEATURE_HEADS,
    _REPORTING,
    _WHAT_FOR,
    _a_failed_screen,
    _adjective_heading,
    _before_adverbs,
    _compound_head,
    _in_complex_preposition,
    _no_noun_after,
    _object_phrase,
    _part_name_as_verb,
    _verb_slot,
    _with_its_verb,
)
from kg.llm.offline.pain_spans import _noun_phrase_before
from kg.llm.offline.reading import Span, _within, _wordset, listed, read
from kg.llm.offline.rule_words import _FEATURE_WORDS
from kg.llm.offline.uses import _DEVICE_NAMES, _LONE_MODEL_WORDS, _MODEL_WORDS, _complement_end

_ADDRESS_WORDS = _wordset("dear уважаемый дорогой hi hello hey привет здравствуйте")


def addressed(text: str, sentence: Span, start: int, end: int) -> bool:
    """The people named are the ones the text speaks to: "Dear developers, …", «Уважаемые
    разработчики, исправьте …», "Developers, please …". A list of subjects ("Students,
    teachers and parents use it") is not an address."""
    reading = read(text, sentence)
    before = [t for t in _within(reading, sentence[0], start) if t.pos != "PUNCT"]
    named = _within(reading, start, end)
    if any(t.lemma in _ADDRESS_WORDS or t.lower in _ADDRESS_WORDS for t in [*before, *named[:1]]):
        return True
    if before or not text[end:].lstrip().startswith((",", "!")):
        return False
    words = [t for t in _within(reading, end, sentence[1]) if t.pos != "PUNCT"][:3]
    return any(t.lower in _PLEAS or "impr" in grammemes(t.text) for t in words)


# Operating systems, runtimes, languages and version control a report names as its
# environment: what a product runs on or works with, never its rival.
_PLATFORMS = _wordset(listed("platforms"))


def modifies_a_subject(text: str, stretch: Span, at: int) -> bool:
    """The Russian preposition at `at` opens a phrase that modifies the nominative noun right
    before it («автодополнение | в Python», «кнопка | на панели»), so the subject reads on."""
    reading = read(text, stretch)
    before = _within(reading, stretch[0], at)
    here = _within(reading, at, stretch[1])[:1]
    if not here or here[0].pos != "ADP" or here[0].text.isascii() or not before:
        return False
    noun = before[-1]
    return noun.pos == "NOUN" and "nomn" in cases(noun.text)


def names_a_platform(name: str) -> bool:
    """ "Windows 11", "Ubuntu", "Python 3.12": the environment, not a rival product."""
    words = name.lower().split()
    return bool(words) and words[0] in _PLATFORMS


# The languages people speak and write, and the words that name a variety of one: what a
# dictionary, a locale or a translation is in, never a rival product.
_HUMAN_LANGUAGES = _wordset(listed("human_languages"))

_LANGUAGE_VARIETIES = _wordset(listed("language_varieties"))


def names_a_language(name: str) -> bool:
    """ "French", "British English", "Simplified Chinese": a language, not a rival product."""
    words = name.lower().split()
    return (
        bool(words)
        and words[-1] in _HUMAN_LANGUAGES
        and all(w in _HUMAN_LANGUAGES | _LANGUAGE_VARIETIES for w in words)
    )


def names_a_device(phrase: str) -> bool:
    """ "Kindle Fire HD", "my iPhone 6", "HTC mobile": the phrase names a device, not a
    feature (its head, past the model's name, is a device)."""
    found = re.findall(r"[A-Za-z][A-Za-z0-9]*", phrase)
    if len(found) == 1 and found[0][0].isupper() and found[0].lower() in _LONE_MODEL_WORDS:
        return True  # "apps for Fire": the Kindle Fire, named short
    words = [w.lower() for w in found]
    if words[-2:] == ["operating", "system"]:
        return True  # what the device runs, like the device
    while len(words) > 1 and (words[-1] in _MODEL_WORDS or any(c.isdigit() for c in words[-1])):
        words.pop()
    if not words:
        return False
    # "kindle has an application", "iPhone worked better": said of the device
    heads = {words[-1], words[-1].removesuffix("s")}  # "Kindles" too
    return bool(heads & DEVICE_WORDS) or words[0] in _DEVICE_NAMES


# The connection a device has: where the app runs, like the device, never a feature of it.
_DEVICE_CONNECTIONS = _wordset("connection connectivity wifi signal reception network internet")


def names_a_connection(phrase: str) -> bool:
    """ "a good WiFi connection", "poor reception": a noun phrase headed by the device's
    connection ("connect to a hotspot", a verb's phrase, is a function)."""
    words = phrase.split()
    if not words:
        return False
    first = tagged(words[0])[0]
    return first.pos != "VERB" and words[-1].lower() in _DEVICE_CONNECTIONS


def part_noun_spans(text: str, sentence: Span, parts: frozenset[str]) -> list[Span]:
    """Noun phrases headed by a name of a software part ("the dark theme", "search filters").
    A sentence that names a part is about it whether or not it carries a feeling word: "has a
    lot of popups", "the checkbox option comes in handy" rate the part in words no sentiment
    lexicon scores."""
    reading = read(text, sentence)
    tokens = reading.tokens
    found = []
    for i, token in enumerate(tokens):
        if token.lemma not in parts or not (token.pos == "NOUN" or _adjective_heading(tokens, i)):
            continue
        if _a_failed_screen(tokens, i, i):
            continue  # "only a black screen": what a failure shows, no part of the product
        if i + 1 < len(tokens) and tokens[i + 1].pos == "NOUN":
            if tokens[i + 1].lemma in _FEATURE_HEADS and _no_noun_after(tokens, i + 1):
                # "the backup feature": a word for features names the part before it
                first, _ = _noun_phrase_before(tokens, i) or (i, i)
                found.append(reading.span(first, i + 1))
            continue  # a modifier: the phrase's head comes later ("video quality")
        if _in_complex_preposition(tokens, i):
            continue  # "in order to": a connective, not the part
        if _part_name_as_verb(tokens, i):
            continue
        if token.lemma in _REPORTING and i + 1 < len(tokens) and tokens[i + 1].lower == "that":
            continue  # "I note that …", "staff report that …": a verb of saying, no part
        phrase = (i, i) if token.pos == "ADJ" else _noun_phrase_before(tokens, i)
        if phrase is None:
            continue
        if i + 1 < len(tokens) and tokens[i + 1].pos == "VERB" and _compound_head(tokens, i + 1):
            found.append(reading.span(phrase[0], i + 1))  # "looking for voice calling"
            continue
        span = reading.span(*phrase)
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if token.lemma in _FEATURE_WORDS and after is not None and after.lower in _WHAT_FOR:
            # "the option of muting chats", "options for exporting": the rest says which
            what = _object_phrase(text, (after.start + reading.offset, sentence[1]), True)
            doing = tokens[i + 2] if i + 2 < len(tokens) else None
            if what is not None:
                span = (span[0], what[1])
            elif doing is not None and doing.pos == "VERB" and doing.lower.endswith("ing"):
                span = (span[0], doing.end + reading.offset)  # "options for exporting"
        elif (
            i and _verb_slot(tokens[_before_adverbs(tokens, i)]) and _complement_end(tokens, i) > i
        ):
            # "it shares to any folder": a part's name used as a verb, with what follows
            # (not with the devices it is used on: "syncs with my laptop" is the sync)
            last = _complement_end(tokens, i)
            if not any(t.lower in DEVICE_WORDS for t in tokens[i : last + 1]):
                span = reading.span(i, last)
        else:
            span = _with_its_verb(text, reading, phrase[0], span, sentence[1])
        found.append(span)
    return found
