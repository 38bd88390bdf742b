"""Segments: the groups of people a message speaks of.

A plural noun of people with its modifiers, a share of them ("40% of couriers") or a role
becomes a segment (`_segments`); a word inside a product's name or a quoted title is not one.
Example: "Most night-shift drivers keep the app open all day" gives the segment "night-shift
drivers".
"""

from __future__ import annotations

import re
from types import ModuleType

from kg.llm.offline import lexicon_en, lexicon_ru, report_ru
from kg.llm.offline.feature_phrases import modifies_the_next_noun
from kg.llm.offline.organisations import _GLUED
from kg.llm.offline.parts import addressed
from kg.llm.offline.reading import read
from kg.llm.offline.sentences import _COUNT_BEFORE, _WORD, Finding, Sentence, _cover, _trim


def _segments(text: str, sentence: Sentence) -> list[Finding]:
    lex = sentence.lex
    heads = list(lex.SEGMENT_HEAD.finditer(text, sentence.start, sentence.end))
    found: list[Finding] = []
    consumed_until = sentence.start
    for index, head in enumerate(heads):
        if head.start() < consumed_until:
            continue
        described = lex.segment_head(head)
        if described is None:
            continue
        label, needs_modifier = described
        if _inside_a_name(text, head.start(), head.end(), sentence.start):
            continue  # "Microsoft Teams Rooms": a head word inside a product's name
        if _GLUED.match(text, head.start()):
            continue  # "parseHeaders": a name in code, not people
        following = heads[index + 1] if index + 1 < len(heads) else None
        if (
            lex.NOUN_COMPOUNDS
            and following is not None
            and not text[head.end() : following.start()].strip()
        ):
            continue  # "shop owners": this head is the next one's modifier
        if lex is lexicon_en and modifies_the_next_noun(text, head.end(), sentence.end):
            continue  # "user interface", "user friendly", "the family app": a compound's first word
        start, modifiers = _modifiers(text, sentence, head.start(), lex)
        if needs_modifier and not modifiers:
            continue
        if (
            lex is lexicon_en
            and head["head"].lower() in lexicon_en.DEVICE_PERSON_NOUNS
            and any(m.lower() in lexicon_en.DEVICE_MODIFIERS for m in modifiers)
        ):
            continue  # "DVD players", "crappy speakers": devices
        before = _word_before(text, sentence.start, start)
        if before in lex.NOT_SEGMENT_AFTER or lex.graded_adjective(head["head"], before):
            continue
        lead = text[sentence.start : start]
        if lex is lexicon_en and _SAID_OF_A_THING.search(lead):
            continue  # "this app is a life saver", "it's my record keeper": the app, described
        if _COUNT_BEFORE.search(lead):
            continue  # "fleets of 20+ drivers", "по 50–200 преподавателей": a size, not a group
        if lex.names_one(head["head"], lead):
            continue  # "a courier at a mid-size delivery firm": one person or company
        if lex.COMPOSITION_BEFORE.search(lead):
            continue  # "сеть из трёх салонов", "a chain of 12 stores": what a business is made of
        end = head.end()
        tail = lex.segment_tail(label, text[end : sentence.end])
        if tail is not None:
            word = tail.group(1)
            # a name in Latin letters keeps its case («пользователи Windows»)
            label = f"{label} {word if word.isascii() and word[:1].isupper() else word.lower()}"
            end += tail.end()
            consumed_until = end
        if addressed(text, (sentence.start, sentence.end), start, end):
            continue  # "Dear developers, please fix …": the reader addressed, not a segment
        if (
            lex is lexicon_ru
            and not modifiers
            and report_ru.names_the_makers(text, (sentence.start, sentence.end), label)
        ):
            continue  # «Спасибо разработчикам», «разработчики исправят»: the makers
        full = " ".join([*modifiers, label])
        role = "oblique" if before in lex.OBLIQUE_BEFORE else ""
        found.append(
            Finding(
                "segment",
                full,
                _cover(sentence, start, end),
                start,
                origin=role,
                named=(start, end),
            )
        )
    # "users", "clients" name nobody in particular: the people of a segment, or its customers.
    found = [f for f in found if f.label not in lex.GENERIC_SEGMENTS]
    return _share_clauses(text, found)


# A person noun said of a thing, as what the thing is: "it is a life saver", "this app is a
# real time saver", "which is my record keeper".
_SAID_OF_A_THING = re.compile(
    r"\b(?:it|this|that|which|app|application|program|software|tool|product)"
    r"(?:\s+(?:is|was|has\s+been|becomes?|became)|['’]s)\s+"
    r"(?:(?:a|an|my|our|the|such|real|really|truly|true|absolute|total|huge|great|big)\s+)+$",
    re.IGNORECASE,
)


def _inside_a_name(text: str, start: int, end: int, floor: int) -> bool:
    """A capitalised word, not opening its sentence, followed by another capitalised word
    ("Teams Rooms"), or inside a quoted title (the show "Mad Men")."""
    if not text[start : start + 1].isupper() or not text[floor:start].strip():
        return False
    if _quoted_at(text, floor, start):
        return True
    following = _WORD.match(text, end + 1) if text[end : end + 1] == " " else None
    return following is not None and following.group()[:1].isupper()


def _quoted_at(text: str, floor: int, position: int) -> bool:
    """Inside quotation marks opened since `floor` and not yet closed."""
    before = text[floor:position]
    return before.count('"') % 2 == 1 or before.count("“") > before.count("”")


def _share_clauses(text: str, found: list[Finding]) -> list[Finding]:
    """Segments named in one clause split its words: each quote reaches the next segment only.

    "small shop owners with one or two stores and a couple of part-time cashiers" is evidence
    for the owners up to "part-time cashiers", and for the cashiers from there.
    """
    for finding in found:
        own = finding.named or finding.quote
        start, end = finding.quote
        others = [
            f.named for f in found if f is not finding and f.named and start <= f.named[0] < end
        ]
        if any(other[1] <= own[0] for other in others):
            start = own[0]
        end = min([other[0] for other in others if other[0] >= own[1]], default=end)
        finding.quote = _trim(text, start, end)
    return found


def _word_before(text: str, floor: int, position: int) -> str:
    """The word right before position, lower-cased; empty across punctuation."""
    words = list(_WORD.finditer(text, floor, position))
    if not words or text[words[-1].end() : position].strip():
        return ""
    return words[-1].group().lower()


def _modifiers(
    text: str, sentence: Sentence, head_start: int, lex: ModuleType
) -> tuple[int, list[str]]:
    """Words before a head that name the segment ("small shop", "частным")."""
    words = list(_WORD.finditer(text, sentence.start, head_start))
    # "Walk users through …", "agencies, including vendors": a verb or a preposition before
    # the head is not part of the group's name (a participle such as "paying" may be).
    # Nor is an adverb, an auxiliary or a verb said of a subject ("very", "can", "allows",
    # "recommends" in "very user friendly", "I can shop", "allows users to …").
    not_names = {
        t.start
        for t in read(text, (sentence.start, head_start)).tokens
        if t.pos in ("ADP", "ADV", "AUX")
        or (t.pos == "VERB" and (t.lemma == t.lower or t.lower.endswith("s")))
        or (
            lex is lexicon_en
            and t.lower.endswith("ing")
            and t.lower not in lexicon_en.PARTICIPLE_ADJECTIVES
            and t.pos == "VERB"
        )
    }
    modifiers: list[str] = []
    start = head_start
    cursor = head_start
    index = len(words) - 1
    while index >= 0 and len(modifiers) < lex.MAX_MODIFIERS:
        word = words[index]
        if text[word.end() : cursor].strip() or word.start() - sentence.start in not_names:
            break  # punctuation between words ends the phrase
        initial = not text[sentence.start : word.start()].strip()
        label = lex.modifier_label(word.group(), initial)
        joiner = word.group().lower() == lex.MODIFIER_JOINER
        if label is None and joiner and modifiers and index > 0:
            before = words[index - 1]
            initial = not text[sentence.start : before.start()].strip()
            joined = lex.modifier_label(before.group(), initial)
            if joined is None or text[before.end() : word.start()].strip():
                break
            modifiers[:0] = [joined, word.group().lower()]
            start = cursor = before.start()
            index -= 2
            continue
        if label is None:
            break
        modifiers.insert(0, label)
        start = cursor = word.start()
        index -= 1
    return start, modifiers
