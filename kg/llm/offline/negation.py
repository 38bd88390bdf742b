"""Negation and hypotheticals: whether a word that names a problem is said of a real one.

A problem word in a negation's scope ("nothing lags", «ничего не тормозит»), in a hypothetical
("if it ever crashed", «если бы») or in a wish set against the present (`against_the_present`)
is no pain; a negated function ("doesn't sync", «не открывается») is one (`_negated`, read by
the problem rules). Kinds of label: none directly; these rules keep pains from being made.
Example: "I have never had it freeze on me" gives nothing (the writer never had the
problem), while "it never saves my draft" gives the pain "never saves my draft".
"""

from __future__ import annotations

from kg.language import Token, grammemes, is_cyrillic
from kg.llm.offline.reading import Reading, _wordset
from kg.llm.offline.rule_words import (
    _SUBJECT_PRONOUNS,
    ABSENCE,
    CEASE,
    HYPOTHETICAL,
    NEGATORS,
    PROBLEM_LEMMAS,
)


def _negated(tokens: list[Token], index: int) -> bool:
    """A negator up to four words before, with no clause boundary between. A negator's scope
    ends at the noun it negates: in "no problems downloading" the download is not negated.
    "Have yet to" denies the whole verb phrase after it ("I have yet to run into a problem")."""
    if (
        _yet_to_come(tokens, index)
        or _genitive_of_negation(tokens, index)
        or _said_absent(tokens, index)
    ):
        return True
    for back in range(index - 1, max(-1, index - 5), -1):
        token = tokens[back]
        if token.pos == "PUNCT" or token.lower in ("but", "но", "а", "however"):
            return False
        if token.lower in NEGATORS or token.lemma in NEGATORS:
            return not _alternative(tokens, back, index)
        if token.pos in ("NOUN", "PROPN") and tokens[index].pos not in ("NOUN", "PROPN"):
            return False
        if token.lower in _SUBJECT_PRONOUNS:
            return False  # "couldn't be happier I downloaded it": a new clause, its own subject
        if token.text.isascii() and token.lemma in CEASE:
            return False  # "it doesn't stop crashing": the negation is the stop's, it crashes on
    return False


def _genitive_of_negation(tokens: list[Token], index: int) -> bool:
    """«Ошибок не нашёл», «проблем не было»: a Russian noun in the genitive before the verb
    denied is what is said not to be there. («Ошибки не исправлены» names errors that are.)"""
    token = tokens[index]
    if token.pos != "NOUN" or not is_cyrillic(token.text):
        return False
    forms = grammemes(token.text)
    if "gent" not in forms or "nomn" in forms:
        return False
    owner = index - 1
    while owner >= 0 and tokens[owner].pos in ("ADJ", "DET", "NUM"):
        owner -= 1
    if owner >= 0 and tokens[owner].pos in ("NOUN", "PROPN"):
        return False  # «подчёркивание ошибок не появляется»: the genitive of what it belongs to
    for at in range(index + 1, min(len(tokens) - 1, index + 5)):  # «ошибок при импорте не …»
        if tokens[at].pos in ("PUNCT", "VERB", "CONJ"):
            return False
        if tokens[at].lower == "не":
            verb = tokens[at + 1]
            return verb.pos in ("VERB", "AUX") and verb.lemma not in FIX_LEMMAS
    return False


_ABSENT_VERBS = (ABSENCE - {"нет"}) | _wordset("отсутствовали отсутствовала отсутствовал")


def _said_absent(tokens: list[Token], index: int) -> bool:
    """«Ошибки отсутствуют», «проблемы с памятью отсутствуют»: a Russian word of trouble
    whose clause goes on to say it is absent."""
    token = tokens[index]
    if token.lemma not in PROBLEM_LEMMAS or not is_cyrillic(token.text):
        return False
    for at in range(index + 1, min(len(tokens), index + 5)):
        if tokens[at].pos in ("PUNCT", "CONJ") or tokens[at].lower in NEGATORS:
            return False
        if tokens[at].lower in _ABSENT_VERBS:
            return True
    return False


def _yet_to_come(tokens: list[Token], index: int) -> bool:
    """ "have yet to" (or "has", "had") before the word, in its clause."""
    for back in range(index - 1, max(0, index - 9), -1):
        if tokens[back].pos == "PUNCT" or tokens[back].lower in ("but", "however"):
            return False
        if tokens[back].lower == "yet" and back + 1 < index and tokens[back + 1].lower == "to":
            return tokens[back - 1].lemma == "have"
    return False


def _alternative(tokens: list[Token], negator: int, index: int) -> bool:
    """ "like or not like", "use it or not use it": the word and its denial joined by "or"
    weigh two choices; neither is stated. "It crashes or doesn't open" denies another verb."""
    if negator == 0 or tokens[negator - 1].lower != "or":
        return False
    return any(t.lemma == tokens[index].lemma for t in tokens[max(0, negator - 4) : negator - 1])


def _verb_here(tokens: list[Token], index: int) -> bool:
    """A verb by its tag, or by its place: right after a negated auxiliary ("doesn't sync")."""
    if tokens[index].pos == "VERB":
        return True
    back = index - 1
    while back >= 0 and tokens[back].pos == "ADV" and tokens[back].lower not in NEGATORS:
        back -= 1  # "won't even open", "doesn't really sync"
    before = tokens[back].lower if back >= 0 else ""
    return before in NEGATORS and tokens[index].pos in ("NOUN", "ADJ")


def is_hypothetical(reading: Reading) -> bool:
    """A modal that makes the clause a supposition. A negated modal reports what happened:
    "it wouldn't open", "I could not make my purchase"."""
    tokens = reading.tokens
    words = {t.lower for t in tokens}
    if "if" in words and "ever" in words:
        return True
    if against_the_present(tokens) is not None:
        return False  # "I'd give it five stars if it didn't crash": it crashes
    return any(
        t.lower in HYPOTHETICAL
        and not (i + 1 < len(tokens) and tokens[i + 1].lower in NEGATORS)
        and not _in_a_relative_clause(tokens, i)
        and not _opens_its_own_clause(tokens, i)
        for i, t in enumerate(tokens)
    )


def _opens_its_own_clause(tokens: list[Token], i: int) -> bool:
    """ "please fix the spell check and I would pay for premium": the modal is said of a new
    subject after a conjunction, a clause of its own; what comes before it is no
    supposition."""
    return (
        i >= 3
        and tokens[i - 1].lower in _SUBJECT_PRONOUNS
        and tokens[i - 2].lower in ("and", "but", "so")
        and not any(t.lower in _CONDITIONS for t in tokens[: i - 2])
    )


_RELATIVE_OPENERS = _wordset("that which")


def _in_a_relative_clause(tokens: list[Token], i: int) -> bool:
    """ "there are a few bugs that could be fixed": the modal is the relative clause's, said
    of a noun before it; the clause that names the noun is no supposition."""
    return (
        i >= 2
        and tokens[i - 1].lower in _RELATIVE_OPENERS
        and tokens[i - 2].pos in ("NOUN", "PROPN")
    )


_CONDITIONS = _wordset("if если")


# Negators of a verb or an adjective; "nothing like", "no good reason" are other constructions.
_VERB_NEGATORS = NEGATORS - _wordset(
    "no nothing nobody none neither nor without ничего никто никакой"
)


# Asking for a fix names no new problem: "please solve my problem", «помогите с решением
# проблемы».
FIX_LEMMAS = _wordset(
    "solve fix resolve correct address help решить решение исправить помочь помогать"
)


# What frames a counterfactual: a wish, or a rating or a verdict the app would earn.
_WISHING = _wordset("wish wished wishing")

_WOULD = _wordset("would 'd d")

_EARNED = _wordset(
    "give rate be perfect great better nice awesome amazing excellent five 5 stars star"
)

_CONDITION_OPENERS = _wordset("if without except")

# What the condition takes away from the present: "if it didn't crash", "without the pop-ups",
# "if there were fewer ads", "if it stopped logging me out", "if they fixed the sync".
_TAKEN_FROM_NOW = _wordset("without fewer less stop stopped fix fixed")

_STARS = _wordset("stars star 5 five")

_STATEMENT_ENDS = frozenset(".!?;")

_COUNTERFACTUAL_CUES = _WISHING | _WOULD | {"without"}


def against_the_present(tokens: list[Token]) -> int | None:
    """Where a counterfactual names a drawback of the present ("I wish it didn't need a
    connection", "I'd give it five stars without the pop-ups", "would be perfect if it stopped
    logging me out"): the index of its negation or of the word that takes the thing away.
    A wish for something new ("I wish it had a timer", "would be great if it exported to PDF") and
    the writer's own past ("I wish I hadn't waited") name none."""
    if not any(t.lower in _COUNTERFACTUAL_CUES for t in tokens):
        return None
    frame = None
    for i, token in enumerate(tokens):
        if token.lower in _WISHING:
            frame = i
            break
        if token.lower in _WOULD and any(t.lower in _EARNED for t in tokens[i + 1 : i + 5]):
            opener = next(
                (j for j in range(i + 1, len(tokens)) if tokens[j].lower in _CONDITION_OPENERS),
                None,
            )
            if opener is not None:
                frame = opener - 1
                break
    if frame is None:
        opener = next((j for j, t in enumerate(tokens) if t.lower == "without"), None)
        if opener is None or not any(t.lower in _STARS for t in tokens):
            return None
        frame = opener - 1  # "without the pop-ups, five stars"
    for j in range(frame + 1, len(tokens)):
        token = tokens[j]
        if token.text in _STATEMENT_ENDS:
            return None  # the counterfactual ends with its sentence
        following = tokens[j + 1] if j + 1 < len(tokens) else None
        if token.lower == "had" and following is not None and following.lower in NEGATORS:
            return None  # "I wish I hadn't waited so long": the writer's past
        after = tokens[j + 2].lower if j + 2 < len(tokens) else ""
        if following is not None and following.lower == "be" and after.endswith(("er", "est")):
            continue  # "couldn't be happier": praise
        if token.lower in _VERB_NEGATORS or token.lower in _TAKEN_FROM_NOW:
            return j
        if token.lower == "no" and j + 1 < len(tokens) and tokens[j + 1].pos != "PUNCT":
            return j  # "if there were no ads"
    return None
