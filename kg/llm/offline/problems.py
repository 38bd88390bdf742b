"""Problems: whether a clause states a malfunction or a difficulty, and why not when not.

`problem_at` is the question the pain rules ask: a problem word said of something real (not
negated, not hypothetical, not an idiom of praise, not a term of the trade such as "garbage
collection"), a negated function ("won't open", «не открывается»), a lacking quality ("sound
not clear"), an inability ("can't log in") or one of the shapes in complaints. Kinds of label:
pain, through the pain rules that call it.
Example: "the app won't open since the update" states a problem (a negated function) and
gives a pain; "can't complain, it works" does not (an idiom of praise) and gives nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kg.language import Token, analyse, cases, grammemes, is_cyrillic, lemma
from kg.language.lemmas import russian_morphology
from kg.llm.offline import lexicon_en
from kg.llm.offline.complaints import (
    _HAPPEN,
    _PERSON_SUBJECTS,
    _SEGMENT_BREAKS,
    _THING_PRONOUNS,
    _WRITER,
    _WRITER_OBJECTS,
    _YIELDING,
    DEVICE_WORDS,
    NOT_FAILURE_VERBS,
    _a_person,
    _absent_thing,
    _asks_about_the_writer,
    _asks_why,
    _complains_of_use,
    _fails_here,
    _forms,
    _good_until,
    _leaves,
    _limited_otherwise,
    _misbehaves,
    _of_another_subject,
    _of_the_writers_device,
    _outdone,
    _restricted,
    _right_after_negator,
    _said_over,
    _segment,
    _subject_of,
    _taken_away,
    _the_writer_is,
    _unwanted,
    _uses_up_ru,
)
from kg.llm.offline.feature_phrases import _WHOLE_PRODUCT
from kg.llm.offline.labels import (
    _AS_THAN,
    _NOTHING,
    _PERCEIVED,
    _REVIEW_FORMS,
    _REVIEW_WORDS,
    GENERIC_PROBLEMS,
)
from kg.llm.offline.negation import (
    _CONDITIONS,
    FIX_LEMMAS,
    _negated,
    _verb_here,
    against_the_present,
)
from kg.llm.offline.reading import Reading, _wordset, listed
from kg.llm.offline.rule_words import (
    _EXCESS,
    _PRAISING_EXCESS,
    _SUBJECT_PRONOUNS,
    ABSENCE,
    CEASE,
    FUNCTION_LEMMAS,
    FUNCTION_POS,
    GENERIC_NOUNS,
    GENERIC_VERBS,
    LIKING_LEMMAS,
    NEGATORS,
    NOT_INABILITY,
    PROBLEM_LEMMAS,
    QUALITY_LEMMAS,
)


def problem_at(reading: Reading) -> int | None:
    """Index of the word that makes the clause a problem, or None when it is not one.

    A word that says what goes wrong ("freezes", "won't open") is preferred to one that only
    says something does ("nothing but trouble, it freezes constantly")."""
    tokens = reading.tokens
    quoted = _quoted(tokens)
    # the report's own words first: «выдаёт ошибку "cannot open file"» is reported by
    # «выдаёт ошибку», the quoted message is what it says
    outside = _problem_among(tokens, [i for i in range(len(tokens)) if not quoted[i]])
    if outside is not None or not any(quoted):
        return outside
    return _problem_among(tokens, [i for i in range(len(tokens)) if quoted[i]])


_QUOTE_MARKS = frozenset('"“”«»')


_MESSAGE_NOUNS = _wordset("ошибка сообщение исключение error message exception")


def _names_a_message(token: Token) -> bool:
    return token.lemma in _MESSAGE_NOUNS or _EXCEPTION_NAME.fullmatch(token.text) is not None


def _quoted(tokens: list[Token]) -> list[bool]:
    """Which tokens stand inside quotation marks, or in a message after "error:"."""
    inside, flags = False, []
    for i, token in enumerate(tokens):
        if token.text == ":" and i and _names_a_message(tokens[i - 1]):
            return [*flags, False] + [True] * (len(tokens) - i - 1)
        if token.text in _QUOTE_MARKS:
            inside = token.text in "«“" or (token.text == '"' and not inside)
            flags.append(False)
        else:
            flags.append(inside)
    return flags


# An exception's class names the error it reports ("ModuleNotFoundError", "IOException").
_EXCEPTION_NAME = re.compile(r"[A-Z]\w*(?:Error|Exception)")


def _review_cue(tokens: list[Token], i: int) -> bool:
    """The English constructions reviews complain in without a problem word, tried only on a
    word one of them can turn on (most words are none)."""
    token = tokens[i]
    if not token.text.isascii():
        return False
    named = token.lower in _REVIEW_WORDS or token.lemma in _REVIEW_WORDS
    if not named and not _forms(token) & _REVIEW_FORMS:
        return False
    return (
        _misbehaves(tokens, i)
        or _taken_away(tokens, i)
        or _restricted(tokens, i)
        or _asks_why(tokens, i)
        or _outdone(tokens, i)
        or _leaves(tokens, i)
        or _fails_here(tokens, i)
        or _good_until(tokens, i)
    )


def _problem_among(tokens: list[Token], indexes: list[int]) -> int | None:
    generic = unable = verdict = None
    for i in indexes:
        token = tokens[i]
        if _EXCEPTION_NAME.fullmatch(token.text):
            return i
        negated = _negated(tokens, i)
        if (
            token.lemma in PROBLEM_LEMMAS
            or token.lower in PROBLEM_LEMMAS
            or (
                token.text.isascii()
                and token.lower.endswith("ing")
                and _forms(token) & PROBLEM_LEMMAS
            )
        ):  # "it's been glitching": a lemmatizer may leave the -ing form
            if _set_aside(tokens, i):
                continue
            if negated or _the_writer_is(tokens, i) or _said_over(tokens, i):
                continue
            if _asks_about_the_writer(tokens, i) or _limited_otherwise(tokens, i):
                continue
            if [t.lower for t in tokens[max(0, i - 2) : i]] == ["used", "to"]:
                continue  # "it used to lag": a problem of the past
            if _ceased(tokens, i):
                continue
            if _of_the_writers_device(tokens, i):
                continue
            if _only_a_verdict(tokens, i):
                # "you can only save three, which is useless": the fault beside the verdict
                verdict = i if verdict is None else verdict
                continue
            if token.lemma not in GENERIC_PROBLEMS and token.lower not in GENERIC_PROBLEMS:
                return i
            generic = i if generic is None else generic
        elif (
            _states_a_failure(tokens, i, negated)
            or _uses_up_ru(tokens, i)
            or _changed_by_an_update(tokens, i)
        ):
            if not _set_aside(tokens, i):
                return i
        elif (
            unable is None
            and (
                _after_inability(tokens, i)
                or _complains_of_use(tokens, i)
                or _review_cue(tokens, i)
            )
            and not _set_aside(tokens, i)
        ):
            unable = i  # a word a tagger missed as a verb: a failure named outright goes first
    if unable is not None:
        return unable
    drawback = against_the_present(tokens)  # its negation sits in a condition, read past above
    if drawback is not None and drawback in indexes:
        return drawback
    if generic is not None:
        return generic
    return verdict


def _set_aside(tokens: list[Token], i: int) -> bool:
    """The word would name a problem, but its place says otherwise: a supposition, an idiom,
    what the product spares, a dispute, a trifle or what should be. Asked only of a word that
    would name one: most words name none."""
    return (
        _in_a_condition(tokens, i)
        or _asked_indirectly(tokens, i)
        or _a_technical_term(tokens, i)
        or _idiom(tokens, i)
        or _spared(tokens, i)
        or _disputed(tokens, i)
        or _minimized(tokens, i)
        or _what_should_be(tokens, i)
    )


# "to check what fails", «проверить, что сломается»: a question the writer will answer, not a
# fault told
_ASKING_VERBS = _wordset("see check test know find verify determine посмотреть проверить узнать")

_QUESTION_OPENERS = _wordset("what whether что ли")


def _asked_indirectly(tokens: list[Token], i: int) -> bool:
    before = [t for t in tokens[max(0, i - 3) : i] if t.pos != "PUNCT"]
    return (
        len(before) >= 2
        and before[-1].lower in _QUESTION_OPENERS
        and (before[-2].lemma in _ASKING_VERBS or before[-2].lower in _ASKING_VERBS)
    )


# "garbage collection": a term of the trade, no judgement
_TERMS_AFTER = {"garbage": _wordset("collection collector collect collected collecting")}


def _a_technical_term(tokens: list[Token], i: int) -> bool:
    after = _TERMS_AFTER.get(tokens[i].lower)
    return after is not None and i + 1 < len(tokens) and tokens[i + 1].lower in after


_PERSONAL = _wordset("i you he she it we they я ты он она оно мы вы они")


def _in_a_condition(tokens: list[Token], i: int) -> bool:
    """The word sits in the condition of an "if" ("if you get errors, restart it", "if it
    fails for you, try the web version"): a supposition or advice. "If I open a big file it
    freezes" states a problem: its problem word is in the main clause, after a new subject."""
    subjects = 0
    for back in range(i - 1, -1, -1):
        token = tokens[back]
        if token.pos == "PUNCT" or token.lower in ("then", "то"):
            return False
        if token.lower in _CONDITIONS:
            return subjects <= 1
        if token.lower in _PERSONAL:
            subjects += 1
    return False


def _spared(tokens: list[Token], i: int) -> bool:
    """ "instead of waiting in line", "saved me from losing my data": what the product
    spares, not what happens."""
    if i >= 2 and tokens[i - 1].lower == "of" and tokens[i - 2].lower == "instead":
        return True
    before = tokens[max(0, i - 4) : i]
    froms = [j for j, t in enumerate(before) if t.lower == "from"]
    return bool(froms) and any(_forms(b) & _SPARING for b in before[: froms[-1]])


# Verbs of sparing someone a trouble: "saved me from losing my notes", "keeps me from
# forgetting".
_SPARING = _wordset("save protect prevent keep stop spare")


# Verbs that report what someone says of a thing, and verbs of taking it as true.
_SAYING = _wordset("say claim complain write tell insist")

_BELIEVING = _wordset("believe trust listen buy")


def _disputed(tokens: list[Token], i: int) -> bool:
    """The problem is what others say, and the writer denies it: "don't believe the reviews
    that say it is slow", "never listen to people who claim it crashes"."""
    for back in range(i - 1, -1, -1):
        token = tokens[back]
        if token.lower in _SEGMENT_BREAKS or token.text in (".", ";", "!", "?"):
            return False
        if token.lemma in _BELIEVING and _right_after_negator(tokens, back):
            return any(t.lemma in _SAYING for t in tokens[back + 1 : i])
    return False


def _what_should_be(tokens: list[Token], i: int) -> bool:
    """ "stuff that should be hard to find", "a puzzle should be difficult": what ought to be
    so, not a report that it is. "It shouldn't be this slow" complains: it is negated."""
    back = i - 1
    while back >= 0 and tokens[back].pos == "ADV" and tokens[back].lower not in NEGATORS:
        back -= 1  # "should be really hard"
    return back >= 1 and tokens[back].lower == "be" and tokens[back - 1].lower == "should"


_MINOR = _wordset("minor small slight tiny few")

_ONLY = _wordset("only just very")


def _minimized(tokens: list[Token], i: int) -> bool:
    """ "works well with only minor hiccups", "with just a few glitches": the problem is named
    to say how little it matters, a concession inside praise."""
    before = [t.lower for t in tokens[max(0, i - 4) : i]]
    if not before or before[-1] not in _MINOR:
        return False
    rest = [w for w in before[:-1] if w != "a"]
    return len(rest) >= 2 and rest[-1] in _ONLY and rest[-2] == "with"


def _idiom(tokens: list[Token], i: int) -> bool:
    """A problem word inside an idiom that names no problem: "hang in there", "a coffee break",
    "the update we've been waiting for" (what is awaited, named by a stranded "for")."""
    token = tokens[i]
    after = [t.lower for t in tokens[i + 1 : i + 3]]
    if token.lower.startswith("hang") and after == ["in", "there"]:
        return True
    if token.lemma == "wait" and after[:1] == ["for"]:
        following = tokens[i + 2] if i + 2 < len(tokens) else None
        if following is None or following.pos == "PUNCT":
            return True
    losing = token.lemma in ("lose", "lost") or token.lower in ("lose", "lost", "losing")
    if losing and any(t.lower in _BODY_WEIGHT for t in tokens[i + 1 : i + 4]):
        return True  # "I lost ten pounds": weight lost is no data lost
    if _hard_to_go_wrong(tokens, i):
        return True  # "hard to go wrong with this app": praise
    if token.lower == "hard" and (
        after[:2] == ["not", "to"]
        or (after[:2] == ["to", "find"] and any(t.lower in _BETTER for t in tokens[i + 3 : i + 6]))
    ):
        return True  # "hard not to love it", "hard to find a better app": praise
    before = tokens[i - 1] if i else None
    # "a break", "coffee break": a pause (taggers often read the bare form as a verb)
    return token.lower == "break" and before is not None and before.pos in ("NOUN", "DET")


_BODY_WEIGHT = _wordset("pounds pound lbs kilos kg weight inches stone")

_HARDLY = _wordset("hard difficult impossible tough")


def _hard_to_go_wrong(tokens: list[Token], i: int) -> bool:
    """The word is "hard" or "wrong" of "hard to go wrong" (either may be read as the problem)."""
    words = [t.lower for t in tokens]
    for start in (i, i - 3):  # "hard" at i, or "wrong" at i with "hard" three words before
        if start >= 0 and words[start : start + 4][1:] == ["to", "go", "wrong"]:
            return words[start] in _HARDLY
    return False


_BETTER = _wordset("better best superior")


def _states_a_failure(tokens: list[Token], i: int, negated: bool) -> bool:
    """A function negated ("doesn't sync"), a thing absent («нет кнопки»), or a function
    that ceased ("stopped syncing", «перестаёт работать»)."""
    token = tokens[i]
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    if negated and token.lemma in FUNCTION_LEMMAS and _verb_here(tokens, i):
        if after is not None and token.lemma == "мочь" and after.lemma in NOT_FAILURE_VERBS:
            return False  # «не могу понять»: what the writer knows
        if _no_effect(tokens, i) or _writer_chose_not_to(tokens, i):
            return False
        # "never saw a glitch", "doesn't show any errors": a problem said to be absent
        return not any(t.lemma in PROBLEM_LEMMAS for t in tokens[i + 1 : i + 4])
    if negated and _fails_to_act(tokens, i):
        return True
    if _denied_by_its_subject(tokens, i):
        return True
    compared = token.text.isascii() and token.lower.endswith(("er", "est"))
    if (
        negated
        and token.lemma in LIKING_LEMMAS | QUALITY_LEMMAS
        and _right_after_negator(tokens, i)
        and not compared  # "has never been easier", "couldn't be better": praise
    ):
        return True  # "don't like" (taggers read "like" as a preposition), "wasn't worth"
    if negated and token.pos == "VERB" and _unable(tokens, i):
        return True
    if negated and token.lemma == "have" and _lacks(tokens, i):
        return True
    if negated and token.lemma in _KNOWING and _right_after_negator(tokens, i):
        subject = _subject_of(tokens, i)
        if subject is not None and subject.lower in _THING_PRONOUNS | _WHOLE_PRODUCT:
            return True  # "it doesn't remember my login": what the app should know
    if negated and token.lower in _FIXED and any(t.lower in _STILL_YET for t in tokens):
        return True  # "how is this still not fixed", "not resolved yet": the fault stays
    if (
        negated
        and token.lemma == "make"
        and [t.lower for t in tokens[i + 1 : i + 3]]
        in (
            ["any", "difference"],
            ["a", "difference"],
        )
    ):
        return True  # "reinstalling it doesn't make any difference": the fault stays
    if token.lower in _EXCESS and after is not None and after.pos in ("ADJ", "ADV", "DET"):
        # "too many ways to list", "too good to be true": praise
        praise = any(t.lemma in _PRAISING_EXCESS for t in tokens[i + 1 : i + 6])
        much = after.lower == "much" and not (i + 2 < len(tokens) and tokens[i + 2].pos == "NOUN")
        return not negated and not praise and not much and after.lower not in ("good", "well")
    if token.lower in ABSENCE and _absent_thing(tokens, i + 1):
        return True
    if _lacks_a_quality(token):
        return True
    if _contrasted(tokens, i):
        return True
    if negated and token.lower in _PERCEIVED and _right_after_negator(tokens, i):
        return True  # «не видно изменений»: what should show does not
    if token.lemma == "do" and after is not None and after.lower == "nothing":
        return tokens[i - 1].lower not in _SPEAKERS_AND_READERS if i else False  # "does nothing"
    if after is not None and after.lower == "nothing" and _forms(token) & _YIELDING:
        # "the search returns nothing", "it shows nothing": what should come does not
        subject = _subject_of(tokens, i)
        return subject is not None and subject.lower not in _PERSON_SUBJECTS
    if token.lemma in _HAPPEN and any(t.lower in _NOTHING for t in tokens[max(0, i - 3) : i]):
        return True  # "nothing happens", «ничего не происходит»; not "this doesn't happen"
    if _wrong_result(tokens, i) or (not negated and _shown_garbled(tokens, i)):
        return True
    if not negated and (_shown_blank_ru(tokens, i) or _shown_empty_en(tokens, i)):
        return True
    if token.lemma in CEASE and after is not None and after.lower == "being":
        after = tokens[i + 2] if i + 2 < len(tokens) else None  # "stopped being shown"
        return after is not None and after.lemma in FUNCTION_LEMMAS
    if token.lemma in CEASE and after is not None and _a_thing_ceased(tokens, i):
        return True  # «отладчик перестал останавливаться на точках останова»
    if token.text.isascii() and negated:
        return False  # "can't stop playing it", "don't ever stop updating it": praise
    if token.lemma in CEASE and after is not None and _a_part_ceased(tokens, i):
        return True
    if token.lemma not in CEASE or after is None or not _forms(after) & FUNCTION_LEMMAS:
        return False
    # "it stopped loading" is a failure; "couriers stop opening the app" is what people do.
    following = tokens[i + 2] if i + 2 < len(tokens) else None
    return following is None or following.pos not in ("DET", "NOUN", "PROPN", "PRON")


# «пустой экран», «открывается пустая страница», «сайт отображается совершенно пустым»: what
# a failure leaves on the screen (English reads "blank" as a problem by itself; «пустой» is
# neutral until it is what is shown)
_BLANK_RU = _wordset("пустой белый чёрный серый")

_SHOWN_SURFACES_RU = _wordset("экран страница окно вкладка область прямоугольник")

_SHOWING_RU = _wordset(listed("showing_ru"))


def _shown_blank_ru(tokens: list[Token], i: int) -> bool:
    if tokens[i].lemma not in _BLANK_RU:
        return False
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    if after is not None and after.lemma in _SHOWN_SURFACES_RU:
        shown = any(t.lemma in _SHOWING_RU for t in tokens[:i] + tokens[i + 2 :])
        return after.lemma == "экран" or shown
    # «Вкладка пустая», «Экран чёрный»: said of the surface as its predicate
    before = tokens[i - 1] if i else None
    if (
        before is not None
        and before.lemma in _SHOWN_SURFACES_RU
        and (tokens[i].lemma == "пустой" or before.lemma == "экран")
        and grammemes(tokens[i].text) & {"nomn", "ADJS"}
    ):
        return True
    # «отображается в браузере совершенно пустым»: the emptiness a thing is shown in
    return (
        tokens[i].lemma == "пустой"
        and "ablt" in grammemes(tokens[i].text)
        and any(t.lemma in _SHOWING_RU for t in tokens[:i])
    )


# "the preview opens an empty pop-up": English reads "blank" as a problem by itself; "empty"
# is one when it is what is shown (or what a thing is or stays, see _misbehaves)
_SHOWN_SURFACES_EN = _wordset(
    "page screen window tab box popup pop-up dialog panel pane area frame list view"
)

_SHOWING_EN = _wordset("open show display appear load come pop return")


def _shown_empty_en(tokens: list[Token], i: int) -> bool:
    if tokens[i].lower != "empty":
        return False
    rest = [t for t in tokens[i + 1 : i + 4] if t.pos in ("NOUN", "PROPN", "ADJ")]
    surface = any(t.lemma in _SHOWN_SURFACES_EN or t.lower in _SHOWN_SURFACES_EN for t in rest)
    return surface and any(t.lemma in _SHOWING_EN for t in tokens[:i] + tokens[i + 1 :])


_NO_THING = _wordset("nothing none no")

_MORE = _wordset("more less better worse")


def _denied_by_its_subject(tokens: list[Token], i: int) -> bool:
    """ "Nothing is selectable", "none of the buttons respond", "no link works": the subject
    denies the function or quality of every thing it covers."""
    token = tokens[i]
    able = token.pos == "ADJ" and (token.lemma in QUALITY_LEMMAS or token.lower.endswith("able"))
    acting = token.pos == "VERB" and token.lemma in FUNCTION_LEMMAS
    if not token.text.isascii() or not (able or acting):
        return False
    start = i
    while start > 0 and tokens[start - 1].pos != "PUNCT" and i - start < 6:
        start -= 1
    subject = tokens[start]
    if subject.lower not in _NO_THING:
        return False
    between = tokens[start + 1 : i]
    if any(t.pos == "VERB" or t.lower in _SUBJECT_PRONOUNS for t in between):
        return False  # "no matter what I do, it loads": another clause's subject
    if token.lower.endswith(("er", "est")) or any(t.lower in _AS_THAN | _MORE for t in between):
        return False  # "nothing is more reliable", "none is as fast": praise by comparison
    if any(t.lemma in PROBLEM_LEMMAS for t in tokens[start : i + 2]):
        return False  # "no problems downloading", "nothing crashes": a problem said absent
    if subject.lower == "no":
        return bool(between) and between[0].pos == "NOUN"
    return True


_PEOPLE_PRONOUNS = _wordset("я мы ты вы они")


def _a_part_ceased(tokens: list[Token], i: int) -> bool:
    """ "notifications stopped coming through", "it stopped responding": an English thing
    named before "stopped" and an -ing form after it, whatever the verb (not a problem that
    stopped, "it stopped crashing", nor people: "I stopped going to the gym")."""
    after = tokens[i + 1]
    if not after.text.isascii() or not after.lower.endswith("ing"):
        return False
    if _forms(after) & PROBLEM_LEMMAS or after.lower in PROBLEM_LEMMAS:
        return False
    subject = _subject_of(tokens, i)
    if subject is None or subject.lower in _WRITER_OBJECTS | {"they"} or _a_person(subject):
        return False
    return (
        subject.pos in ("PRON", "PROPN")
        or subject.lower.endswith("s")
        or subject.text[:1].isupper()  # "IntelliSense stopped suggesting imports": a name
        or subject.lemma in lexicon_en.SOFTWARE_PARTS  # "the debugger stopped pausing"
    )


def _ceased(tokens: list[Token], i: int) -> bool:
    """ "it stopped crashing": the problem ceased ("it won't stop crashing": it goes on)."""
    ceasing = bool(i) and tokens[i - 1].text.isascii() and bool(_forms(tokens[i - 1]) & CEASE)
    return ceasing and not _negated(tokens, i - 1)


def said_by_a_thing(text: str, start: int, at: int) -> bool:
    """The word before `at` is a thing's name, not a person's: "the linter complains about
    valid code" is a tool's error, not a user's grievance."""
    before = [t for t in analyse(text[start:at]) if t.pos != "PUNCT"]
    if not before or before[-1].pos not in ("NOUN", "PROPN"):
        return False
    return not _a_person(before[-1])


def _a_thing_ceased(tokens: list[Token], i: int) -> bool:
    """«Перестал» with any infinitive said of a thing: a Russian program that stopped doing
    something is broken, whatever it stopped doing. Said of people («клиенты перестали
    заходить», «я перестал пользоваться») it is what they do, and the function list decides."""
    after = tokens[i + 1]
    if not is_cyrillic(after.text) or "INFN" not in grammemes(after.text):
        return False
    subjects = [
        t
        for t in tokens[:i]
        if t.pos in ("NOUN", "PROPN", "PRON")
        and ("nomn" in cases(t.text) or not is_cyrillic(t.text))
    ]
    if not subjects:
        return False  # «перестал открываться» with no subject: left to the function list
    subject = subjects[-1]
    return subject.lower not in _PEOPLE_PRONOUNS and _may_be_a_thing(subject.text)


@lru_cache(maxsize=10_000)
def _may_be_a_thing(word: str) -> bool:
    """Some reading of the word is an inanimate noun («редактор» is a person or a program;
    «пользователи» are only people). Words in other scripts are things."""
    if not is_cyrillic(word):
        return True
    parses = [p for p in russian_morphology().parse(word.lower()) if p.tag.POS == "NOUN"]
    return not parses or any("inan" in p.tag for p in parses)


# Operations a person performs on the app: with the writer as subject and no "can't", not
# doing one is a choice ("I never opened it"), not a failure ("it never opened").
_DONE_BY_THE_USER = _wordset(listed("done_by_the_user"))

_ABILITY_MODALS = _wordset("can could ca cannot cant couldnt able")


def _writer_chose_not_to(tokens: list[Token], i: int) -> bool:
    """ "I downloaded it but never opened it", "we didn't update": the writer is the subject
    of an operation they did not do. "I can't open it" is a failure: it has its modal."""
    if tokens[i].lemma not in _DONE_BY_THE_USER:
        return False
    for back in range(i - 1, -1, -1):
        token = tokens[back]
        if token.lemma in _ABILITY_MODALS or token.lower in _ABILITY_MODALS:
            return False
        if token.pos == "PUNCT" and token.text not in ("'", "’"):
            return False
        if token.lower in _WRITER:
            return True
        if token.pos in ("NOUN", "PROPN", "PRON"):
            # an object ("downloaded this app") belongs to an earlier verb whose subject the
            # denied verb may share; any other nominal is the denied verb's own subject
            head = back
            while head and tokens[head - 1].pos in ("DET", "ADJ", "NUM"):
                head -= 1
            if not (head and tokens[head - 1].pos in ("VERB", "ADP")):
                return False
    return False


# Verbs that, with "nothing", report a fix that did not help, not a new failure: «ничего не
# изменилось», "nothing changed".
_NO_EFFECT = _wordset("change help измениться изменяться поменяться меняться помочь помогать дать")

_SPEAKERS_AND_READERS = _wordset("i we you u я мы вы ты")

_NOT_STATED_FORMS = frozenset({"impr", "1per", "2per", "INFN", "GRND"})


def _no_effect(tokens: list[Token], i: int) -> bool:
    """ "nothing changed", «ничего не дало»: a fix that did not help."""
    nothing = any(t.lower in _NOTHING for t in tokens[max(0, i - 3) : i])
    return nothing and tokens[i].lemma in _NO_EFFECT


_DO_MODALS = _wordset("do does did will wo would can ca could should")

_DO_NOT = _wordset("dont doesnt didnt wont cant couldnt wouldnt shouldnt")


def _after_do_not(tokens: list[Token], i: int) -> bool:
    """A word a tagger read as a noun right after "didn't", "won't", "can't" is the verb they
    deny ("alarms didn't ring"); after "is not" a noun is what something is not."""
    back = i - 1
    while back >= 0 and tokens[back].pos == "ADV" and tokens[back].lower not in NEGATORS:
        if tokens[back].lower in _FOCUS:
            return False  # "not just notes but photos": a focus, not a denial
        back -= 1
    if back < 0 or tokens[back].lower not in NEGATORS:
        return False
    if tokens[back].lower in _DO_NOT:
        return True
    return back > 0 and tokens[back - 1].lower in _DO_MODALS


_FOCUS = _wordset("just only merely simply")


def _fails_to_act(tokens: list[Token], i: int) -> bool:
    """A thing's action negated: "the debugger does not stop at breakpoints", «подсказки не
    появляются», «файл не сохранён». Not what the writer or the reader does, knows or wants
    ("I don't know", «мы не используем», «не понимаю»), advice («не закрывайте», "don't
    close it"), a problem said to be absent («не зависает», "doesn't crash any more"), nor a
    fix that changed nothing («ничего не изменилось»)."""
    token = tokens[i]
    verb = token.pos == "VERB" or (token.text.isascii() and _after_do_not(tokens, i))
    if not verb or not _right_after_negator(tokens, i):
        return False
    goes_off = token.lemma == "go" and i + 1 < len(tokens) and tokens[i + 1].lower == "off"
    if token.lemma in NOT_FAILURE_VERBS | PROBLEM_LEMMAS | FIX_LEMMAS and not goes_off:
        return False  # "the alarm doesn't go off" is an event that failed
    if any(t.lemma in PROBLEM_LEMMAS for t in tokens[i + 1 : i + 4]):
        return False
    if grammemes(token.text) & _NOT_STATED_FORMS:
        return False
    first, _ = _segment(tokens, i)
    before = tokens[first:i]
    if any(t.lower in _SPEAKERS_AND_READERS for t in before) or _no_effect(tokens, i):
        return False
    if any(t.lemma in PROBLEM_LEMMAS and _negated(tokens, j) for j, t in enumerate(before, first)):
        return False  # «никаких ошибок не выводится»: a problem said to be absent
    grammar = grammemes(token.text)
    active_past = "past" in grammar and "VERB" in grammar  # not «не сохранён», a state
    if (
        active_past
        and not token.lower.endswith(("ся", "сь"))
        and not any(t.pos in ("NOUN", "PROPN", "PRON") for t in before)
    ):
        return False  # «не нашёл похожих задач»: with no subject, what the writer did
    if token.text.isascii():
        if any(t.lemma in PROBLEM_LEMMAS or t.lower in PROBLEM_LEMMAS for t in before):
            return False  # "crashes don't happen with it": a problem said to be absent
        # English needs its subject: "Don't close the window" is advice, "not to open" a
        # purpose
        words = [t for t in before if t.pos != "PUNCT"]
        negator = next((j for j, t in enumerate(words) if t.lower in NEGATORS), 0)
        subject = any(t.pos in ("NOUN", "PROPN", "PRON") for t in words[:negator])
        return subject and not any(t.lower == "to" for t in words[negator - 1 : negator + 1])
    return True


# Verbs of choosing: with them "instead of" is a choice ("we use X instead of Y"), not a fault.
_CHOOSING = _wordset(listed("choosing"))


_INSTEAD = _wordset("instead вместо")


def _contrasted(tokens: list[Token], i: int) -> bool:
    """A phrase denied against another after a verb: «воспринимает команду не X, а Y»,
    «открывается в домашней папке, а не в папке проекта». The product did the one where the
    other was meant (what «вместо» says). Not «не только …», nor a verb denied (its own rule),
    nor a sentence without a verb («это не баг, а фича»)."""
    if tokens[i].lower != "не" or i + 1 >= len(tokens):
        return False
    following = tokens[i + 1]
    if following.pos in ("VERB", "PART", "PUNCT") or following.lower == "только":
        return False
    words = [j for j in range(i) if tokens[j].pos != "PUNCT"]
    after_a = bool(words) and tokens[words[-1]].lower == "а"
    before_a = any(t.lower == "а" for t in tokens[i + 2 : i + 8])
    if not (after_a or before_a):
        return False
    if any(t.lower in _SPEAKERS_AND_READERS for t in tokens[:i]):
        return False  # «я работаю не в офисе, а дома»: what the writer does
    if any(t.lemma in _OUGHT_RU for t in tokens[:i]):
        return False  # «значение должно быть строкой, а не null»: what ought to be
    return any(t.pos == "VERB" for t in tokens[:i])


_OUGHT_RU = _wordset("должен должный")


def denied_before_contrast(piece: str) -> bool:
    """«подсвечивается не у выделенного блока» before «, а у родительского»: a phrase of the
    verb denied, whose replacement follows «а». The two halves are one statement, read whole
    by _contrasted; a denied verb («не работает, а …») ends its clause as usual."""
    tokens = analyse(piece)
    for i in range(len(tokens) - 1, -1, -1):
        if tokens[i].lower != "не":
            continue
        following = tokens[i + 1] if i + 1 < len(tokens) else None
        if following is None or following.pos in ("VERB", "PART", "PUNCT"):
            return False
        if following.lower == "только":
            return False
        return len(tokens) - i <= 6 and any(t.pos == "VERB" for t in tokens[:i])
    return False


def _lacks_a_quality(token: Token) -> bool:
    """A Russian quality written with its «не» («неудобно», «некорректный», «нечёткий»): the
    product lacks what it should have, like "not clear"."""
    word = token.lower.replace("ё", "е")
    if not word.startswith("не") or len(word) < 6 or token.pos not in ("ADJ", "ADV", "VERB"):
        return False
    rest = word[2:]
    return rest in QUALITY_LEMMAS or lemma(rest) in QUALITY_LEMMAS


def _wrong_result(tokens: list[Token], i: int) -> bool:
    """ "it prints raw code instead of the chart", «показывает квадраты вместо букв»: the
    product did one thing where it should have done another. Not a choice someone made ("we
    use X instead of Y") and not a chore spared ("instead of waiting in line")."""
    token = tokens[i]
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    if token.lower == "instead" and after is not None and after.lower == "of":
        thing = tokens[i + 2] if i + 2 < len(tokens) else None
    elif token.lower == "вместо":
        thing = after
    else:
        return False
    if (
        thing is None
        or thing.lower == "того"
        or (thing.pos == "VERB" and thing.lower.endswith("ing"))
    ):
        return False
    # the verb may come first ("it opens X instead of Y") or after («вместо букв выводит
    # квадраты», "instead of the page, it shows markup")
    verbs = [t for t in tokens if t.pos == "VERB" and t is not thing]
    return bool(verbs) and not any(t.lemma in _CHOOSING for t in tokens)


# Verbs of showing, and what text garbled by a wrong font or encoding shows as.
_SHOWING = _wordset(listed("showing"))

_GARBLE = _wordset(listed("garble"))


def _shown_garbled(tokens: list[Token], i: int) -> bool:
    """ "letters show as squares", «русские буквы выводятся как знаки вопроса»: text shown
    as the placeholders of a wrong font or encoding."""
    if tokens[i].lemma not in _SHOWING or i + 2 >= len(tokens):
        return False
    if tokens[i + 1].lower not in ("as", "like", "как"):
        return False
    shown = [t for t in tokens[i + 2 : i + 5] if t.pos in ("NOUN", "ADJ")]
    return any(t.lemma in _GARBLE or t.lower in _GARBLE for t in shown)


_KNOWING = _wordset("remember understand know")

_FIXED = _wordset("fixed resolved solved addressed")

_STILL_YET = _wordset("still yet")

_SERVICE_NOUNS = _wordset("game site service store library catalog catalogue player")


def _lacks(tokens: list[Token], i: int) -> bool:
    """ "It doesn't have a dark mode", "the app didn't have the song": the app, not a person,
    lacks something, and the thing is no problem or ad ("doesn't have any ads")."""
    if not _right_after_negator(tokens, i):
        return False
    after = tokens[i + 1 : i + 5]
    if not after or after[0].lower == "to" or _unwanted(after):
        return False  # "you don't have to pay"
    subject = _subject_of(tokens, i)
    return (
        subject is None
        or subject.lower in _THING_PRONOUNS
        or subject.pos == "PROPN"
        or subject.lemma in _WHOLE_PRODUCT | _SERVICE_NOUNS
    )


def _unable(tokens: list[Token], i: int) -> bool:
    """ "can't see the photos", "could not make my purchase", "cannot be sent": someone is
    unable to do something with the product, unless an idiom of praise says it."""
    if tokens[i].lemma in NOT_INABILITY:
        return False
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    if tokens[i].lemma == "be" and after is not None and after.lower.endswith(("er", "est")):
        return False  # "couldn't be happier", "can't be better"
    for back in range(i - 1, max(-1, i - 4), -1):
        word = tokens[back]
        if word.lemma in ("can", "could") or word.lower in ("cannot", "cant", "couldnt", "ca"):
            return True
        if word.pos not in ("PART", "ADV", "AUX") and word.lower not in NEGATORS:
            return False
    return False


# "can't be happier", "couldn't be easier": what follows "be" is said in _unable.
_NOT_INABILITY_BY_PLACE = NOT_INABILITY | _wordset("be")

_INVERTED_SUBJECTS = _wordset("i we you u")

_PAYING_UP = _wordset("paying premium subscribing upgrading buying pro")

_INABILITY = _wordset("can could")

_CONTRACTED_INABILITY = _wordset("cannot cant couldnt")


def _after_inability(tokens: list[Token], i: int) -> bool:
    """The word right after "can't", "couldn't", "unable to" or "not able to" is what someone
    cannot do, whatever a tagger calls it ("i can't tweet", "haven't been able to open it");
    "can't get it to load" fails at the verb after "get". Not an idiom of praise ("can't live
    without it"), nor a problem said to be absent ("can't find a single bug")."""
    token = tokens[i]
    if i == 0 or not token.text.isalpha() or token.pos in FUNCTION_POS:
        return False
    back = i - 1
    if back >= 1 and tokens[back].lower in _INVERTED_SUBJECTS:
        back -= 1  # "why can't I attach a file?": the question puts the subject after "can't"
    before = tokens[back].lower
    two_before = tokens[back - 1] if back >= 1 else None
    unable = before in _CONTRACTED_INABILITY or (
        before in NEGATORS and two_before is not None and two_before.lemma in _INABILITY
    )
    if before == "to" and two_before is not None and two_before.lower in ("able", "unable"):
        unable = two_before.lower == "unable" or _negated(tokens, i - 2)
    if not unable or _of_another_subject(tokens, i):
        return False
    following = [t.lower for t in tokens[i + 1 : i + 4]]
    paywalled = any(
        w == "without" and following[j + 1 : j + 2] and following[j + 1] in _PAYING_UP
        for j, w in enumerate(following)
    )  # "can't message anyone without paying": the function is held back for money
    if ("without" in following and not paywalled) or any(
        t.lemma in PROBLEM_LEMMAS for t in tokens[i + 1 : i + 5]
    ):
        return False
    if token.lemma == "get":  # "can't get it to work", "couldn't get the video playing"
        return any(t.lemma in FUNCTION_LEMMAS for t in tokens[i + 2 : i + 5])
    return token.lemma not in _NOT_INABILITY_BY_PLACE and token.lower not in _NOT_INABILITY_BY_PLACE


# Words that say whose or how common a problem is, not what it is ("others have the same
# problem", "a known issue", "a widespread problem").
_VAGUE_WORDS = _wordset(listed("vague_words"))


# Words that judge a whole thing rather than say what goes wrong with it.
VERDICT_LEMMAS = _wordset(listed("verdict_lemmas"))

_VERDICT_OBJECTS = _wordset("money effort")


_RECENT = _wordset("new newest latest last recent current updated")

_TIERS = _wordset("free paid pro premium lite basic trial")

_BECOMING = _wordset("getting becoming became become gets got turning")


_SINCE = _wordset("since after")

_UPDATES = _wordset("update updates updating upgrade redesign")


# "looks different", «стал выглядеть по-другому»: how a thing appears or behaves, changed.
_DIFFERENT = _wordset("different differently иначе по-другому по-иному")

_APPEARING = _wordset(listed("appearing"))

# «после обновления», «с обновления», «после апдейта»: since an update, said in Russian
_AFTER_UPDATE_RU = re.compile(r"(?<![\w-])(?:после|с|со)\s+(?:\w+\s+)?(?:обновлени|апдейт)\w*")


def _changed_by_an_update(tokens: list[Token], i: int) -> bool:
    """ "after the update the font looks different", «после обновления шрифт стал выглядеть
    по-другому»: what an update changed unasked, a regression."""
    if tokens[i].lower not in _DIFFERENT or _negated(tokens, i):
        return False
    if not any(t.lower in _APPEARING for t in tokens[max(0, i - 3) : i]):
        return False
    joined = " ".join(t.lower for t in tokens)
    return since_an_update(tokens) or _AFTER_UPDATE_RU.search(joined) is not None


def since_an_update(tokens: list[Token]) -> bool:
    """ "useless since the last update", "nothing but problems after the update": a state the
    app fell into when it changed, a regression."""
    return any(
        t.lower in _SINCE and any(u.lower in _UPDATES for u in tokens[j + 1 : j + 5])
        for j, t in enumerate(tokens)
    )


def _worsening(tokens: list[Token], at: int) -> bool:
    before = [t.lower for t in tokens[max(0, at - 4) : at]]
    after = [t.lower for t in tokens[at + 1 : at + 4]]
    return (
        any(w in _BECOMING for w in before)
        or before[-3:] == ["more", "and", "more"]
        or after == ["by", "the", "day"]
    )


def _only_a_verdict(tokens: list[Token], at: int) -> bool:
    """ "this tool is the worst ever", "so irritating", "utterly useless": a verdict on the
    product as a whole, which rates it, and says no problem a team could act on."""
    if tokens[at].lemma not in VERDICT_LEMMAS and tokens[at].lower not in VERDICT_LEMMAS:
        return False
    if _worsening(tokens, at) or since_an_update(tokens):
        return False  # "more and more useless by the day", "useless since the update"
    first, last = _segment(tokens, at)
    if any(
        t.lower in ("version", "versions") and j and tokens[j - 1].lower in _RECENT | _TIERS
        for j, t in enumerate(tokens[first : last + 1], first)
    ):
        return False  # "the latest version", "the free version": an update or a tier
    # an operation on the app is something specific to judge ("I hate the new updates")
    ignored = (
        GENERIC_NOUNS
        | GENERIC_VERBS
        | _VAGUE_WORDS
        | GENERIC_PROBLEMS
        | DEVICE_WORDS
        | VERDICT_LEMMAS
        | _VERDICT_OBJECTS
    ) - APP_OPERATIONS
    return not any(
        t.pos in ("NOUN", "PROPN", "VERB") and t.lemma not in ignored and t.lower not in ignored
        for t in tokens[first : last + 1]
    )


# What a user does to the app itself, the operations reviews rate ("can't install", "the new
# update", "won't open", "have to log in again"): each is a function of the product even as a
# bare verb. Getting the app (download, buy) is not one of its functions.
APP_OPERATIONS = _wordset(listed("app_operations"))
