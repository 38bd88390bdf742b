"""Features: capabilities of the product a sentence names.

From the ability, use, request and operation rules (uses, requests) a feature is made
(`_features`) with a noun or verb phrase label (feature_phrases); a group of people or a
judgement of the product is none, and reporting verbs ("users say") name none.
Example: "Being able to share lists with my family is the best part" gives the feature "share
lists".
"""

from __future__ import annotations

import re
from dataclasses import replace
from types import ModuleType

from kg.language import analyse, is_english_word, lemma
from kg.llm.offline.clauses import purpose_spans
from kg.llm.offline.feature_phrases import (
    list_item_spans,
    names_no_feature,
    not_a_feature_name,
    spared_spans,
    without_judgement,
)
from kg.llm.offline.labels import FEELING_START, LONE_LETTER_END, RAISING_START, TEXTED_FUNCTION_END
from kg.llm.offline.pain_spans import problem_part_spans
from kg.llm.offline.parts import names_a_connection, names_a_device, part_noun_spans
from kg.llm.offline.requests import advice_spans, recommended_statement
from kg.llm.offline.sentences import (
    Finding,
    Sentence,
    Span,
    _bare,
    _clause_end,
    _cover,
    _label,
    _phrase,
)
from kg.llm.offline.uses import (
    activity_spans,
    behaviour_of_a_thing,
    capability_spans,
    conjunct_uses,
    done_by_hand,
    kept_in_state_uses,
    operation_spans,
    shared_object_uses,
    use_spans,
    verb_phrase_spans,
    wh_object_uses,
)


def _features(
    text: str,
    sentence: Sentence,
    requests: list[tuple[int, Span]],
    competitors: list[Finding],
    planned_spans: list[Span],
    alternatives: list[Finding],
    *,
    mentions: bool = True,
) -> list[Finding]:
    lex = sentence.lex
    found: list[Finding] = []
    candidates: list[tuple[int, int, str]] = []
    for pattern in lex.FEATURE_PATTERNS:
        for match in pattern.finditer(text, sentence.start, sentence.end):
            if lex.FEATURE_EXCLUDED_BEFORE.search(text, sentence.start, match.start()):
                continue
            candidates.append((match.start(), match.start("f"), "planned"))
    whole = (sentence.start, sentence.end)
    phrases: list[tuple[int, Span, str]] = [(cue, phrase, "planned") for cue, phrase in requests]
    if lex.LANG == "en":
        phrases += [(c, p, "planned") for c, p in advice_spans(text, whole)]
    instruction = recommended_statement(text, whole)
    if instruction is not None and not phrases:
        label_at, statement = instruction
        label = _label(text, statement, sentence)
        if label:
            # quoted from the "Recommendation:" label on: the quote shows it is recommended
            quote = (label_at, statement[1])
            found.append(Finding("feature", label, quote, statement[0], origin="planned"))
    purposes = purpose_spans(text, whole)
    parts: list[Span] = []
    if mentions and lex.LANG == "en" and sentence.in_message_language:
        parts += [
            span
            for clause in sentence.clauses
            for span in problem_part_spans(text, clause, lex.SOFTWARE_PARTS)
            if not _names_people(text[span[0] : span[1]], lex)
        ]
        parts += [
            span
            for span in part_noun_spans(text, whole, lex.SOFTWARE_PARTS)
            if not _people_reporting(text[span[0] : span[1]], lex)
        ]
        parts += [
            span
            for span in list_item_spans(text, whole)
            if not _names_people(text[span[0] : span[1]], lex)
        ]
        phrases += [
            (c, p, "mentioned")
            for c, p in [
                *capability_spans(text, whole),
                *[
                    (c, p)
                    for c, p in use_spans(text, whole)
                    if not _names_people(text[p[0] : p[1]], lex)  # "great for teachers"
                ],
                *verb_phrase_spans(text, whole),
                *activity_spans(text, whole),
                *wh_object_uses(text, whole),
                *kept_in_state_uses(text, whole),
            ]
            if not any(cue <= c < clause[1] for cue, clause in purposes)
            and not any(s <= c < e for s, e in planned_spans)  # a goal's or risk's own words
            # "the player stutters on old phones": how a thing behaves, no function anyone uses
            and not behaviour_of_a_thing(text, whole, p[0])
        ]
    if mentions and lex.LANG == "en" and sentence.in_message_language:
        # "lets you tag and archive invoices": each verb with the object they share
        for cue_start, phrase, label in shared_object_uses(text, whole):
            quote = _cover(sentence, cue_start, phrase[1])
            found.append(Finding("feature", label, quote, phrase[0], origin="mentioned"))
    for cue_start, phrase, origin in phrases:
        if origin == "planned":
            phrase = _with_its_complement(text, phrase, _clause_end(sentence, phrase[0]), lex)
        label = _label(text, phrase, sentence)
        if label and not any(label in f.label or f.label in label for f in found):
            found.append(
                Finding(
                    "feature",
                    label,
                    _cover(sentence, cue_start, phrase[1]),
                    phrase[0],
                    origin=origin,
                )
            )
    if mentions and lex.LANG == "en" and sentence.in_message_language:
        # "enjoy comedy and drama": what is joined to a use is one more
        uses = [p for c, p, origin in phrases if origin == "mentioned"]
        for quote, label in conjunct_uses(text, whole, uses):
            if not any(label in f.label or f.label in label for f in found):
                found.append(Finding("feature", label, quote, quote[0], origin="mentioned"))
    for competitor in competitors:
        name_end = text.find(competitor.label, competitor.at) + len(competitor.label)
        offered = lex.FEATURE_OFFERED.match(text[name_end : sentence.end])
        if offered is not None:
            candidates.append((competitor.at, name_end + offered.start("f"), "offered"))
    described: list[Span] = []  # the rest of the clause of a planned or offered feature
    for cue_start, start, origin in candidates:
        end = _clause_end(sentence, start)
        phrase = _phrase(text, start, end, lex, lex.FEATURE_CUTTER, lex.FEATURE_MAX_WORDS)
        phrase = _with_its_complement(text, phrase, end, lex)
        label = _label(text, phrase, sentence)
        if label:
            described.append((phrase[1], end))
            # "build a bedtime timer" read as a use from the plan's own words gives way to
            # what is planned
            found = [
                f
                for f in found
                if not (
                    f.origin == "mentioned" and cue_start <= f.at < phrase[0] and label in f.label
                )
            ]
        if label and not any(f.label == label or label in f.label for f in found):
            # "компиляторы" of a request whose pattern reads on to "… для всех языков", "sleep
            # reports" of "offers weekly sleep reports": the whole noun phrase is the one
            # feature
            found = [f for f in found if not (phrase[0] <= f.at < phrase[1] and f.label in label)]
            quote = _cover(sentence, cue_start, phrase[1])
            found.append(Finding("feature", label, quote, phrase[0], origin=origin))
    # The parts a sentence names come last: a plan or a request that names one says more.
    for part in parts:
        label = _label(text, part, sentence)
        # a bare word found before gives way to the part's fuller name ("shares" to "shares
        # to any folder")
        found = [
            f
            for f in found
            if not (f.origin == "mentioned" and " " not in f.label and part[0] <= f.at < part[1])
            or f.label not in label
        ]
        if label and not any(label in f.label or f.label in label for f in found):
            quote = _cover(sentence, part[0], part[1])
            found.append(Finding("feature", label, quote, part[0], origin="mentioned"))
    if mentions and lex.LANG == "en" and sentence.in_message_language:
        # An operation on the app ("install", "update") is its own feature each time it is
        # named, unless a longer label already holds that very word.
        for span in operation_spans(text, whole):
            label = _label(text, span, sentence)
            if label and not any(_holds_word(f, span) for f in found):
                # "videos won't load": the part it is said of is in this label, not apart; a
                # label cut inside the operation's words ("let me log" of "log in") gives way
                found = [
                    f
                    for f in found
                    if not (span[0] <= f.at < span[1])
                    and not (f.at < span[0] < f.at + len(f.label) < span[1])
                ]
                quote = _cover(sentence, span[0], span[1])
                found.append(Finding("feature", label, quote, span[0], origin="mentioned"))
    # What the rest of its clause says a planned or offered feature does ("a planner that
    # suggests recipes") describes that feature, no feature of its own.
    found = [
        f for f in found if f.origin != "mentioned" or not any(s <= f.at < e for s, e in described)
    ]
    # A device the app runs on, or its connection, is where it is used, not a feature of it;
    # nor is what the app spares its user ("without printing the forms").
    spared = spared_spans(text, whole) if lex.LANG == "en" else []
    # Another tool named in the words, or what it comes in ("paper forms", "a messenger's
    # group chats"), makes them a workaround, told already as the alternative; so does work
    # said to be done by hand.
    tools = [a.quote for a in alternatives if a.origin == "tool"]
    found = [
        f
        for f in found
        if f.origin == "planned"
        or not (
            any(s < f.at + len(f.label) and f.at < e for s, e in tools)
            # "copying receipts by hand": the manual way it is done now
            or done_by_hand(text, (f.at, _clause_end(sentence, f.at)), (f.at, f.at + len(f.label)))
        )
    ]
    if lex.LANG == "en":
        found = [_feature_name(f) for f in _without_judgement(found, lex)]
    return [
        f
        for f in found
        if not names_a_device(f.label)
        and not (lex.LANG == "en" and _a_group_of_people(f.label, lex))
        and not (lex.LANG == "en" and names_a_connection(f.label))
        and not names_no_feature(f.label)
        and not not_a_feature_name(f.label)
        and (f.origin == "planned" or not any(s <= f.at < e for s, e in spared))
    ]


# A head that says only that something is wanted ("support", "an option") names the feature
# with its complement: "add support for dark mode", "an option for bulk export".
_BARE_FEATURE_HEADS = frozenset({"support", "option", "options", "setting", "settings"})

_COMPLEMENT = re.compile(r"\s+(?:for|of)\s+", re.IGNORECASE)


def _with_its_complement(text: str, phrase: Span, end: int, lex: ModuleType) -> Span:
    head = _bare(text, phrase).split()
    after = _COMPLEMENT.match(text, phrase[1], end)
    if not head or head[-1] not in _BARE_FEATURE_HEADS or after is None:
        return phrase
    rest = _phrase(text, after.end(), end, lex, lex.FEATURE_CUTTER, lex.FEATURE_MAX_WORDS)
    return (phrase[0], rest[1]) if rest[1] > rest[0] else phrase


def _a_group_of_people(label: str, lex: ModuleType) -> bool:
    """ "ebay users", "movie lovers": a noun phrase headed by people is a segment, not a
    feature; "pictures of my friends" and "share with the wife" name a thing and a use."""
    words = analyse(label)
    head = words[: next((k for k, w in enumerate(words) if w.pos == "ADP"), len(words))]
    return (
        bool(head) and head[0].pos != "VERB" and _names_people(" ".join(w.text for w in head), lex)
    )


def _feature_name(finding: Finding) -> Finding:
    """A feature's name as a feature is named; the quote keeps the words as written. A lone
    letter left at the end by a word cut short or texted goes ("shuffle play feature f**ks",
    "video calling n likes"), as does a texted function word ("the call feature dnt work")
    and a verb that only frames the one after it ("seem to upload my profile picture") or
    tells a feeling about it ("love movies");
    an operation named alone in the past is the operation ("I opened the app", "it updated":
    "open", "update")."""
    label = LONE_LETTER_END.sub("", finding.label)
    label = TEXTED_FUNCTION_END.sub("", label)
    label = RAISING_START.sub("", label)
    label = FEELING_START.sub("", label)
    if " " not in label and label.isascii() and label.lower().endswith("ed"):
        verb = lemma(label)
        if verb != label.lower() and is_english_word(verb):
            label = verb
    return finding if label == finding.label else replace(finding, label=label)


def _without_judgement(found: list[Finding], lex: ModuleType) -> list[Finding]:
    """Each feature named without the words that judge it or tell what went wrong with it
    ("slow checkout" is the checkout, "keeps losing my orders" the orders); one that names
    nothing else is none, and two that come to the same name are one."""
    kept: list[Finding] = []
    for f in found:
        label = without_judgement(f.label, lex.SOFTWARE_PARTS)
        if not label or any(k.label.casefold() == label.casefold() for k in kept):
            continue
        if label != f.label:
            shift = f.label.find(label)
            f = replace(f, label=label, at=f.at + max(shift, 0))
        kept.append(f)
    return kept


# How many times the writer tried something: the writer's effort, not a measure of the fault.
_WRITERS_TRIES = re.compile(
    r"(?<![\w-])(?:пробовал\w*|попробовал\w*|пытал\w*|перезапуска\w*|перезапустил\w*|"
    r"переустанавлива\w*|переустановил\w*|tried|retried|restarted|reinstalled|rebooted)"
    r"(?![\w-])[^.;!?]{0,25}?\d+\s*(?:раз\w*|times?)(?![\w-])",
    re.IGNORECASE,
)


def _holds_word(found: Finding, span: Span) -> bool:
    """The finding's label was cut from the text around this very span."""
    return found.at <= span[0] and span[1] <= found.at + len(found.label) + 2


_RELATIVE_PRONOUNS = frozenset(
    ("who", "whom", "whose", "that", "which", "кто", "который", "которые")
)


def _names_people(phrase: str, lex: ModuleType) -> bool:
    """ "my husband", "requesters", "nurses who work nights": a person or a group of people
    (the head before a relative clause), not a part of the product."""
    words = phrase.split()
    cut = next((k for k, w in enumerate(words) if k and w.lower() in _RELATIVE_PRONOUNS), None)
    head = words[(cut or len(words)) - 1].lower()
    if head in lex.PEOPLE_NOUNS or lemma(head) in lex.PEOPLE_NOUNS:
        return True
    plural = head.endswith(("s", "men", "people"))  # "nurses", "firemen", "salespeople"
    return plural and lex.SEGMENT_HEAD.fullmatch(head) is not None


def _people_reporting(phrase: str, lex: ModuleType) -> bool:
    """ "participants report", "staff mention": people and the verb by which they report, not
    a part named "report" or "note"."""
    words = phrase.split()
    if len(words) < 2 or words[-1].lower() not in lex.REPORTING_VERBS:
        return False
    return _names_people(" ".join(words[:-1]), lex)
