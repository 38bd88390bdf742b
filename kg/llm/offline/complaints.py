"""Complaints of use: shapes of complaint that need no problem word.

Each rule recognises one shape and makes the clause a pain (called by `problem_at` in
problems): something the app does again and again unasked ("it keeps logging me out"), work
it makes the user redo ("I have to restart it every day"), interruptions ("an ad after every
song"), what it took away or restricts ("they removed offline mode"), a version that was
better ("it was fine until the update"), the device's resources it uses up («съедает всю
батарею»), a request for a fix.
Example: "it keeps logging me out" has no problem word, yet is a pain ("it keeps logging me
out") by the rule of a thing done again and again unasked.
"""

from __future__ import annotations

from functools import lru_cache

from kg.language import Token
from kg.llm.offline import lexicon_en
from kg.llm.offline.negation import _CONDITIONS, _STATEMENT_ENDS, _VERB_NEGATORS, _negated
from kg.llm.offline.reading import Span, _wordset, listed, polarity, read
from kg.llm.offline.rule_words import (
    _RELATIVES,
    FUNCTION_LEMMAS,
    LIKING_LEMMAS,
    NEGATORS,
    PROBLEM_LEMMAS,
    QUALITY_LEMMAS,
)

# the tagger leaves "remains" unlemmatized
_STAYING_EN = _wordset("remain remains remained stay stays stayed")


def _stays(token: Token) -> bool:
    return token.lemma in _STAYING_EN or token.lower in _STAYING_EN


def _a_person(token: Token) -> bool:
    """A pronoun or a noun for people ("I", "my kids", "couriers"), not a part of the app."""
    if token.lower in _PERSON_SUBJECTS:
        return True
    if token.lower in lexicon_en.PEOPLE_NOUNS or token.lemma in lexicon_en.PEOPLE_NOUNS:
        return True
    plural = token.lower.endswith("s") and token.pos == "NOUN"
    return plural and lexicon_en.SEGMENT_HEAD.fullmatch(token.lower) is not None


_WRITER = _wordset("i we")


# Verbs that, negated, tell what someone knows, wants, needs or feels, that something does
# not matter or cost much, or that a fault does not reach it: «не знаю почему», "it doesn't
# matter", "doesn't take long", "the other packs are not affected".
NOT_FAILURE_VERBS = _wordset(listed("not_failure_verbs"))

_HAPPEN = _wordset("happen occur происходить произойти случаться случиться")


def _right_after_negator(tokens: list[Token], i: int) -> bool:
    back = i - 1
    while back >= 0 and (
        (tokens[back].pos == "ADV" and tokens[back].lower not in NEGATORS)
        or (tokens[back].lower in _DEGREE and tokens[i].lemma in QUALITY_LEMMAS)
    ):
        back -= 1  # "don't really like", "not as good as", "doesn't look nice"
    return back >= 0 and tokens[back].lower in _VERB_NEGATORS


# What stands between a negation and the quality it denies: "not as good", "not so easy",
# "doesn't look nice", "isn't very clear".
_DEGREE = _wordset(
    "as so that very too look looks seem seems feel feels sound sounds be been ever always"
)


_THING_PRONOUNS = _wordset("it this that")


# What a user looks for in an app and a review says is missing: "no way to export", "no
# offline mode".
_CAPABILITY_NOUNS = _wordset(listed("capability_nouns"))

# Interruptions a user did not ask for: a quantity of them is a complaint ("lots of pop-ups").
_INTRUSIONS = _wordset(listed("intrusions"))

# What a catalogue offers: too few of them is a shortcoming.
_CONTENTS = _wordset(listed("contents"))

_QUANTITIES = _wordset("lot lots alot many tons ton loads plenty full constant endless so")

# Paying for something, said as an obligation: "you have to pay for every filter".
_PAYING = _wordset("pay buy purchase subscribe")

_OBLIGED = _wordset("have has had need needs must forced")

# Leaving the app: "I uninstalled it", "cancelled my subscription".
# Stems, as taggers lemmatize "cancelled" and "canceled" apart.
_LEAVING = ("uninstall", "delet", "cancel", "remov", "unsubscrib")

_LEFT_THINGS = _wordset("it this that app application program subscription account membership game")

_PEOPLE_SUBJECTS = _wordset("i we you u they people")


def _complains_of_use(tokens: list[Token], i: int) -> bool:
    """What reviewers complain of without a problem word: a capability said to be missing, a
    quantity of ads or pop-ups, having to pay, leaving the app, a request to fix something,
    something done again and again, and what the app used to do."""
    token = tokens[i]
    after = [t.lower for t in tokens[i + 1 : i + 5]]
    if _negated(tokens, i) or any(t.lower in _CONDITIONS for t in tokens[:i]):
        return False
    if token.lower == "no" and (i == 0 or tokens[i - 1].lemma != "be" or after[:1] != ["more"]):
        # "no calling option", "there's no way to undo"; "no way!" alone is an interjection
        for j, word in enumerate(after[:3]):
            if word in _CAPABILITY_NOUNS:
                if any(t.lemma in PROBLEM_LEMMAS for t in tokens[i + j + 2 : i + j + 3]):
                    return False  # "no menu issues": a problem said to be absent
                return word != "way" or after[j + 1 : j + 2] in (["to"], ["of"])
            if tokens[i + 1 + j].pos not in ("ADJ", "NOUN", "VERB", "PROPN"):
                return False
        return False
    if token.lower == "few" and (i == 0 or tokens[i - 1].lower not in ("a", "quite")):
        # "very few options", "few songs to choose from"; not "a few options"
        thing = next((t for t in tokens[i + 1 : i + 3] if t.pos != "ADJ"), None)
        return thing is not None and (thing.lower in _CAPABILITY_NOUNS | _CONTENTS)
    if token.lower in _INTRUSIONS:
        before = [t.lower for t in tokens[max(0, i - 3) : i]]
        if any(w in NEGATORS for w in [t.lower for t in tokens[max(0, i - 5) : i]]):
            return False
        return any(w in _QUANTITIES for w in before) or _intrudes(tokens, i)
    if _redone(tokens, i):
        return True
    if token.lemma in _PAYING and i >= 2 and tokens[i - 1].lower == "to":
        return tokens[i - 2].lower in _OBLIGED
    if token.lemma in _PAYING and i >= 1 and tokens[i - 1].lower == "must":
        return True
    if token.lower.startswith(_LEAVING) and token.lower.endswith(("ed", "ing")):
        subject = [t.lower for t in tokens[:i] if t.pos in ("PRON", "NOUN", "PROPN")]
        if subject and subject[-1] not in ("i", "we"):
            return False  # "you can delete it": advice
        thing = next(
            (t for t in tokens[i + 1 : i + 4] if t.pos == "NOUN" or t.lower in _LEFT_THINGS), None
        )  # past a possessive: "cancelled my subscription"
        return thing is not None and (thing.lower in _LEFT_THINGS or thing.lemma in _LEFT_THINGS)
    if _requests_a_fix(tokens, i):
        return True
    if token.lower in ("fix", "fixed") and _hoped_for(tokens, i):
        return True  # "hope it's fixed soon": a fix wished for presupposes the fault
    if _recurs(tokens, i):
        return True
    accustomed = i > 0 and tokens[i - 1].lemma in ("get", "be", "become")  # "getting used to it"
    if token.lower == "used" and after[:1] == ["to"] and len(after) > 1 and not accustomed:
        # "it used to sync with my watch": a regression; "I used to lose receipts" is the
        # writer's past, "it used to crash" a past problem
        subject = [t.lower for t in tokens[:i] if t.pos in ("PRON", "NOUN", "PROPN")]
        past_problem = any(
            t.lemma in PROBLEM_LEMMAS or t.lower in NEGATORS for t in tokens[i + 2 : i + 6]
        )
        if subject and subject[-1] in _PEOPLE_SUBJECTS:
            # "I used to love this app": the writer's liking is past, a regression
            liked = tokens[i + 2] if i + 2 < len(tokens) else None
            thing = [t.lower for t in tokens[i + 3 : i + 5]]
            return (
                not past_problem
                and liked is not None
                and liked.lemma in LIKING_LEMMAS
                and any(w in _LEFT_THINGS for w in thing)
            )
        return not past_problem
    return False


# How often an interruption comes, and what it does: "an ad after every song", "ads pop up",
# "the banner covers the buttons".
_OFTEN = _wordset("every each constantly constant always everywhere nonstop non-stop")

_INTRUDING = _wordset("pop interrupt cover block play")

_STILL_MORE = _wordset("still longer louder bigger more")


def _intrudes(tokens: list[Token], i: int) -> bool:
    """An ad or a pop-up said to come often, to get in the way, or to be forced on the user
    ("you have to watch an ad to go on"). Not one said to be rare or easy to skip."""
    first, last = _segment(tokens, i)
    piece = tokens[first : last + 1]
    if any(t.lower in _OFTEN | _STILL_MORE for t in piece):
        return True  # "ads after every song", "still see ads", "ads longer than the videos"
    if any(_forms(t) & _INTRUDING for t in tokens[i + 1 : min(last + 1, i + 3)]):
        return True
    return any(
        t.lower == "to" and j > first and tokens[j - 1].lower in _OBLIGED
        for j, t in enumerate(tokens[first:i], first)
    )


# Work the app makes the user do again to get it going: "I have to restart it every day",
# "you need to reinstall it".
_REDONE = _wordset("boot install start enter type login connect launch")

_CHORES = _wordset("uninstall delete clear force")


def _redone(tokens: list[Token], i: int) -> bool:
    token = tokens[i]
    if i < 2 or tokens[i - 1].lower != "to" or tokens[i - 2].lower not in _OBLIGED:
        return False
    word = token.lower.replace("-", "")
    again = word.startswith("re") and len(word) > 4
    if again and _word_forms(word[2:], word[2:]) & (FUNCTION_LEMMAS | _REDONE):
        return True  # "restart", "reinstall", "re-enter"
    return bool(_forms(token) & _CHORES)


# "it keeps logging me out", "it was constantly updating": something the app does again and
# again, unasked.
_KEEP = _wordset("keep keeps kept")

_AGAIN_AND_AGAIN = _wordset("constantly continually continuously repeatedly incessantly")


def _recurs(tokens: list[Token], i: int) -> bool:
    """The app, not the writer, does something again and again, and nothing good is said of
    it ("keeps getting better" is praise; "I keep using it" is the writer's choice)."""
    token = tokens[i]
    if i == 0 or not token.lower.endswith("ing") or not token.text.isalpha():
        return False
    if tokens[i - 1].lower not in _KEEP | _AGAIN_AND_AGAIN:
        return False
    subject = [t for t in tokens[: i - 1] if t.pos in ("PRON", "NOUN", "PROPN")]
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    # "I keep getting logged out": done to the writer, again and again
    done_to = token.lower == "getting" and after is not None and after.lower.endswith("ed")
    people = subject and (subject[-1].lower in _PEOPLE_SUBJECTS or _a_person(subject[-1]))
    if people and not done_to:
        return False  # "I keep using it", "couriers keep closing the app by accident"
    return polarity(" ".join(t.text for t in tokens[i - 1 :])) < 0.3


# Qualities a thing can have that say what is wrong with it; said of the writer ("was I
# wrong", "I'm clumsy with phones") they judge a person, not the product.
_THING_FAULTS = _wordset(listed("thing_faults"))

_WRITER_OBJECTS = _wordset("i me we us")


# "the bugs are gone", "the lag has been fixed": a problem said to be over.
_OVER = _wordset("gone fixed resolved solved over")

_DONE_AWAY = _wordset("removed fixed solved resolved eliminated")

_BEING = _wordset("is are was were be been got get have has had now all finally")


def _said_over(tokens: list[Token], i: int) -> bool:
    """ "the bugs are gone", "the bugs from last year are all gone", "crashes never happen",
    "they removed the annoying banner": the problem is over or absent."""
    after = tokens[i + 1 : i + 4]
    happens = next((k for k, t in enumerate(after, i + 1) if _forms(t) & _HAPPEN), None)
    if happens is not None and _negated(tokens, happens):
        return True
    first, last = _segment(tokens, i)
    if any(
        (t.lower in _DONE_AWAY and not (k and tokens[k - 1].lower == "be"))
        or (t.lower in ("rid", "away") and k and tokens[k - 1].lower in ("got", "took", "taken"))
        for k, t in enumerate(tokens[max(first, i - 4) : i], max(first, i - 4))
    ):
        return True  # "they removed the annoying banner", "got rid of the laggy menu"
    j = i + 1
    while j <= last and (tokens[j].lemma != "be" or tokens[j].lower == "be"):
        j += 1  # "the bugs from last year | are all gone"; not "should be fixed", a request
    if j <= last:
        k = j + 1
        while k <= last and (tokens[k].lower in _BEING or tokens[k].pos == "ADV"):
            k += 1
        if k <= last and tokens[k].lower in _OVER:
            return True
    j = i + 1
    while j < len(tokens) and (tokens[j].lower in _BEING or tokens[j].pos == "ADV"):
        j += 1
    return j > i + 1 and j < len(tokens) and tokens[j].lower in _OVER


_LIMITED_USES = _wordset("use usage functionality support features options choices selection")


def _limited_otherwise(tokens: list[Token], i: int) -> bool:
    """ "limited" says what is wrong when said of the app ("it is very limited") or of what it
    offers ("limited options"), not of anything else ("my limited time", "limited edition")."""
    if tokens[i].lower != "limited":
        return False
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    if after is not None and after.pos in ("NOUN", "PROPN"):
        return after.lower not in _LIMITED_USES | _CAPABILITY_NOUNS | _CONTENTS
    before = tokens[i - 1] if i else None
    return before is not None and before.pos in ("PRON", "DET")


# What the writer's own equipment or connection does: "my router drops out at night", "my
# phone's speaker is broken". A problem of something other than the app, unless the clause
# names the app too ("my phone overheats with this app").
_CONNECTIONS = _wordset("internet connection wifi wi-fi network signal reception speaker")

_APP_REFERENCES = _wordset("it this its app application program update version game")


def _of_the_writers_device(tokens: list[Token], i: int) -> bool:
    subject = _subject_of(tokens, i)
    if subject is None or not (
        subject.lower in DEVICE_WORDS | _CONNECTIONS or subject.lemma in DEVICE_WORDS
    ):
        return False
    first, _ = _segment(tokens, i)
    if not any(t.lower in ("my", "our") for t in tokens[first:i]):
        return False
    return not any(
        t.lower in _APP_REFERENCES or (t.pos == "PROPN" and t.lower not in DEVICE_WORDS)
        for t in tokens
    )


def _asks_about_the_writer(tokens: list[Token], i: int) -> bool:
    """ "Why did I wait so long to get it?": a question about what the writer did, asked in
    praise of the app; the problem verb is the writer's own."""
    if not tokens or tokens[0].lower != "why" or tokens[i].pos != "VERB":
        return False
    subject = _subject_of(tokens, i)
    return subject is not None and subject.lower in _WRITER_OBJECTS


def _the_writer_is(tokens: list[Token], i: int) -> bool:
    """A fault quality whose nearest subject is the writer: "boy, was I wrong"."""
    if tokens[i].lower not in _THING_FAULTS:
        return False
    back = i - 1
    while back >= 0 and tokens[back].pos in ("AUX", "ADV", "PART"):
        back -= 1  # "I'm so wrong", "was I wrong"
    if back >= 0 and tokens[back].lower in _WRITER:
        return True
    # "was I wrong": the subject after its verb
    return back >= 1 and tokens[back].lemma == "be" and tokens[back - 1].lower in _WRITER


# The app, not a person, doing on its own what no one asked for: "it closes every time I open
# the camera", "the timer resets itself". These verbs name something a user also does ("I
# close it at night"), so they need a person not to be the subject and a word that says it
# happens unasked.
_UNBIDDEN = _wordset("close quit exit terminate restart reboot reset reload refresh skip jump")

_BODY = _wordset("eyes ears head")

_MAY = _wordset("may might could would will")

_OUTPUTS = _wordset("sound audio picture image video")

_COSTS = _wordset("fees fee charges costs cost subscription subscriptions")

_SCREEN_PARTS = _wordset(
    "button buttons text box field menu content screen subtitles controls keyboard bar"
)

_CLAIMING = _wordset("want need demand deserve give ask request wait waiting")

_DECLINING = _wordset("drop decline decrease degrade worsen")

_MEASURES = _wordset(listed("measures"))

_SCREEN_COLOURS = _wordset("black blank white grey gray")

_SET_PHRASE_ENDS = {"consuming"} | _wordset(
    "hot warm off order greyed grayed locked place grab win empty hidden back refund refunds"
    " sound audio picture image video cover covers covered block blocks hide hides"
)

_HEATING = _wordset("gets get getting got becomes became runs running")

_HOW = _wordset("really very so too super extremely")

_HOW_FAR = _wordset("way totally completely always slightly bit little")

_FAIR_PRICE = _wordset("nothing less only just fairly")

_PROMPTING = _wordset("ask prompt beg")

_MISBEHAVING = (
    _UNBIDDEN
    | _PROMPTING
    | _DECLINING
    | _wordset("shut log sign kick lock throw boot stop refuse cut hurt forget charge")
)

_UNASKED = _wordset(listed("unasked"))

_UNASKED_PHRASES = (
    ("every", "time"),
    ("after", "every"),
    ("after", "each"),
    ("on", "its"),
    ("on", "their"),
    ("by", "itself"),
    ("by", "themselves"),
    ("for", "no"),
)

# Functions that yield something to see or hear: with "nothing" for their object, a failure.
_YIELDING = _wordset("return show display load play find open sync")

_PERSON_SUBJECTS = _wordset("i we you u he she someone everyone people user users")

# "it logs me out", "keeps kicking us out": the app puts the user out.
_PUTTING_OUT = _wordset("log sign kick lock throw boot")

# "the screen goes black", "it went offline": a state the app falls into.
_FALLING = _wordset("go goes went gone going turn turns turned turning")

_FALLEN_STATES = _wordset("black white grey gray blank offline")

# A device's resources an app uses up: "drains my phone by noon", "eats all my storage".
_RESOURCES = _wordset("battery batteries storage memory space ram data cpu")

_CONSUMING = _wordset("kill eat hog drain suck chew devour burn waste fill")

# «большое потребление памяти», «занимает 3 ГБ оперативной памяти», «грузит процессор на
# 100%»: the memory, processor or battery a program uses up.
_RESOURCES_RU = _wordset("память процессор цп cpu оперативка ram батарея аккумулятор")

_LOAD_NOUNS_RU = _wordset("потребление нагрузка расход использование утечка")

# a leak is too much by itself («утечка памяти»): it counts as its own excess
_EXCESSIVE_RU = _wordset("большой высокий огромный чрезмерный повышенный сильный утечка")

_CONSUMING_RU = _wordset("потреблять занимать есть жрать съедать грузить нагружать расходовать")

_ALL_OF_IT_RU = _wordset("много весь огромный")


def _uses_up_ru(tokens: list[Token], i: int) -> bool:
    """The words around a resource say a program uses up too much of it (see _RESOURCES_RU):
    a load that is high, or a verb of using with an amount («на 100%», «3 ГБ», «всю»)."""
    if tokens[i].lemma not in _RESOURCES_RU:
        return False
    before, after = tokens[max(0, i - 4) : i], tokens[i + 1 : i + 4]
    if any(t.lower in NEGATORS for t in before):
        return False
    if any(t.lemma in _LOAD_NOUNS_RU for t in before):
        return any(t.lemma in _EXCESSIVE_RU for t in before)
    if any(t.lemma in _CONSUMING_RU for t in before):
        return any(t.pos == "NUM" or t.lemma in _ALL_OF_IT_RU for t in before + after)
    return False


_USING_UP = _wordset("use take")

_MUCH = _wordset("lot lots alot much tons all so too")


def _forms(token: Token) -> frozenset[str]:
    """The base forms an English word may have: its lemma and its stem without an inflection
    ending, as a lemmatizer reads some forms wrongly ("playing" as "playe", "gone" as
    "gan")."""
    return _word_forms(token.lower, token.lemma)


@lru_cache(maxsize=65536)
def _word_forms(word: str, lemma: str) -> frozenset[str]:
    if not word.isascii():
        return frozenset((lemma,))
    forms = {word, lemma}
    if not word.isalpha():
        return frozenset(forms)
    for ending in ("ing", "ed", "es", "s", "d"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            stem = word[: -len(ending)]
            forms |= {stem, stem + "e"}
            if len(stem) > 3 and stem[-1] == stem[-2]:
                forms.add(stem[:-1])  # "stopped", "logging"
    return frozenset(forms)


def _verb_like(tokens: list[Token], i: int) -> bool:
    """A verb by its tag, or an -s/-ed form right after its subject that a tagger read as a
    noun ("the timer resets itself")."""
    token = tokens[i]
    if token.pos == "VERB":
        return True
    back = i - 1
    while back >= 0 and tokens[back].pos == "ADV":
        back -= 1
    if back < 0 or tokens[back].pos not in ("PRON", "NOUN", "PROPN"):
        return False
    if token.lower.endswith(("s", "ed")):
        return True
    # "settings reset after every update": a plural subject, then a bare form that no noun
    # follows
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    plural = tokens[back].lower.endswith("s") or tokens[back].lower in ("they", "we", "i")
    return plural and (after is None or after.pos in ("ADP", "ADV", "PUNCT"))


# Words that say the app did something no one asked for: "it restarts randomly", "it deleted
# my chats for no reason", "it updates without warning".
_WHOM_ASKED = _wordset("me us you anyone first")

_UNPROMPTED = _wordset("randomly reason warning permission explanation notice telling asking")

_OUT_OF = _wordset("force sync")


def _done_unprompted(tokens: list[Token], i: int) -> bool:
    token = tokens[i]
    before = [t.lower for t in tokens[max(0, i - 3) : i]]
    if token.lower == "reason" and before[-2:] != ["for", "no"]:
        return False
    if (
        token.lower in ("warning", "permission", "explanation", "notice")
        and "without" not in before
    ):
        return False
    if token.lower in ("telling", "asking"):
        # "charges you without telling you"; not "works without asking for an account"
        after = [t.lower for t in tokens[i + 1 : i + 2]]
        if before[-1:] != ["without"] or (after and after[0] not in _WHOM_ASKED):
            return False
    first, _ = _segment(tokens, i)
    if any(
        t.lower in _PERSON_SUBJECTS and tokens[j + 1].lemma in ("can", "could", "may")
        for j, t in enumerate(tokens[first : i - 1], first)
    ):
        return False  # "I can shuffle randomly": what the writer may do
    verbs = [j for j in range(first, i) if _verb_like(tokens, j)]
    if token.lower == "randomly" and not verbs:
        verbs = [j for j in range(i + 1, min(len(tokens), i + 3)) if _verb_like(tokens, j)]
    if not verbs:
        return False
    subject = _subject_of(tokens, verbs[0])
    return subject is None or subject.lower not in _PERSON_SUBJECTS


def _subject_of(tokens: list[Token], i: int) -> Token | None:
    """The nearest word before the verb at i, within its piece of the clause, that can be
    its subject (a pronoun, a noun or a name)."""
    first, _ = _segment(tokens, i)
    return next((t for t in reversed(tokens[first:i]) if t.pos in ("PRON", "NOUN", "PROPN")), None)


def _misbehaves(tokens: list[Token], i: int) -> bool:
    """What the app does wrong, named by a verb phrase rather than a problem word: it closes,
    restarts or skips unasked, force-closes, shuts down, logs the user out, goes black or
    offline, falls out of sync, or uses up the device's battery or storage."""
    token = tokens[i]
    forms = _forms(token)
    cue = forms & _MISBEHAVING or token.lower in _FALLING | _RESOURCES | _UNPROMPTED | _OUT_OF
    cue = cue or token.lower in _SCREEN_COLOURS | _SET_PHRASE_ENDS
    if not cue or any(t.lower in _CONDITIONS for t in tokens[:i]):
        return False
    if token.lower in _UNPROMPTED:
        return _done_unprompted(tokens, i)  # its own "without" is no negation
    if token.lower in _OUTPUTS and i and tokens[i - 1].lower in ("no", "without"):
        return True  # "no sound on videos", "videos play without sound": the output fails
    if _negated(tokens, i):
        return False
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    following = [t.lower for t in tokens[i + 1 : i + 4]]
    subject = _subject_of(tokens, i)
    by_a_person = subject is not None and _a_person(subject)
    if token.lower == "force" and after is not None and after.lemma in ("close", "closing", "quit"):
        return True  # "keeps force closing": the system ends the app
    if "shut" in _forms(token) and following[:1] in (["down"], ["off"]):
        return not by_a_person  # "it shuts down" (not "I shut it down")
    if _forms(token) & _PUTTING_OUT and following[:2] in ([w, "out"] for w in ("me", "us", "you")):
        return True
    if token.lower in _FALLING and following[:1] and following[0] in _FALLEN_STATES:
        return not by_a_person
    if token.lower == "empty" and i and (tokens[i - 1].lemma == "be" or _stays(tokens[i - 1])):
        return not by_a_person  # "my favourites list is empty after the update", "… stays empty"
    if token.lower == "hidden" and following[:1] and following[0] in _COSTS:
        return True  # "hidden fees"
    if forms & {"cover", "block", "hide"} and _verb_like(tokens, i) and not by_a_person:
        # "the keyboard covers the text box": a part of the screen hides another
        return any(t.lower in _SCREEN_PARTS for t in tokens[i + 1 : i + 5])
    if token.lower == "back" and i >= 2 and tokens[i - 1].lower == "money":
        # "I want my money back", "give me my money back"
        return any(_forms(t) & _CLAIMING for t in tokens[max(0, i - 5) : i - 1])
    if token.lower in ("refund", "refunds") and any(
        _forms(t) & _CLAIMING for t in tokens[max(0, i - 4) : i]
    ):
        return True  # "I want a refund", "still waiting for a refund"
    if token.lower in ("greyed", "grayed") and following[:1] == ["out"]:
        return True  # "the export button is greyed out"
    if token.lower == "locked" and following[:1] == ["behind"]:
        return True  # "filters are locked behind premium"
    if token.lower == "place" and [t.lower for t in tokens[max(0, i - 3) : i]] == [
        "all",
        "over",
        "the",
    ]:
        return not by_a_person  # "the readings are all over the place"
    if forms & _DECLINING and subject is not None and subject.lower in _MEASURES:
        return True  # "the picture quality dropped", "calls drop"
    if token.lower == "grab" and i and tokens[i - 1].lower == "cash":
        return True  # "a cash grab"
    if token.lower == "win" and [t.lower for t in tokens[max(0, i - 2) : i]] == ["pay", "to"]:
        return True  # "pay to win"
    if token.lower == "consuming" and i and tokens[i - 1].lower == "time":
        return True  # "very time consuming"
    if token.lower in _SCREEN_COLOURS and following[:1] == ["screen"]:
        return True  # "I get a black screen"
    if token.lower in ("hot", "warm") and i and tokens[i - 1].lower in _HEATING | _HOW:
        return not by_a_person  # "my phone gets really hot"
    if token.lower == "off" and i and tokens[i - 1].lower in _HOW_FAR:
        return not by_a_person and i >= 2 and tokens[i - 2].lemma == "be"  # "GPS is way off"
    if token.lower == "order" and [t.lower for t in tokens[max(0, i - 2) : i]] == ["out", "of"]:
        return True  # "messages arrive out of order"
    if "forget" in forms and _verb_like(tokens, i):
        # "it forgets my settings"; "it forgets nothing" praises
        return subject is not None and not by_a_person and following[:1] != ["nothing"]
    if "charge" in forms and following[:1] and following[0] in ("me", "us", "you"):
        # "charged me twice", "auto renewed and charged me"; not "charged me nothing"
        return not following[1:2] or following[1] not in _FAIR_PRICE
    if "stop" in forms and after is not None and after.lower.endswith("ing"):
        before = tokens[i - 1].lower if i else ""
        return (i == 0 or before in _PLEAS) and after.lower not in ("working",)
    if "refuse" in forms and following[:1] == ["to"]:
        # "it refuses to start" (not "I refuse to pay", nor "couriers may refuse to install
        # it", a risk)
        modal = i and tokens[i - 1].lower in _MAY
        return not by_a_person and not modal
    if "cut" in forms and following[:1] in (["out"], ["off"], ["in"]) and _verb_like(tokens, i):
        return not by_a_person  # "the sound cuts out" (not "you can cut out the background")
    if "hurt" in forms and following[:2] in ([p, b] for p in ("my", "your", "our") for b in _BODY):
        return not by_a_person  # "the bright theme strains my eyes"
    if forms & _PROMPTING and following[:1] and following[0] in ("me", "us", "you", "for"):
        # "it asks me to rate it every single day": prompts that never stop
        first, last = _segment(tokens, i)
        return not by_a_person and any(t.lower in _OFTEN for t in tokens[first : last + 1])
    if token.lower == "go" and i >= 2 and tokens[i - 1].lower == "to":
        # "the ads need to go", "this layout has to go": a part the writer wants gone
        ending = not following or following[0] in _STATEMENT_ENDS | {",", "!"}
        return tokens[i - 2].lemma in ("need", "have") and ending and not by_a_person
    if "stop" in forms and _verb_like(tokens, i) and not by_a_person:
        # "it stopped", "music stops after ten seconds"; "it stopped loading" is read above
        ends = after is None or after.pos in ("PUNCT", "ADP", "ADV", "NUM")
        return ends or after.lower in ("every", "each")
    if token.lower == "sync" and i >= 2 and [t.lower for t in tokens[i - 2 : i]] == ["out", "of"]:
        return True
    if token.lower in _RESOURCES:
        before = tokens[max(0, i - 5) : i]
        verbs = [j for j, t in enumerate(before) if t.lemma in _CONSUMING | _USING_UP]
        if not verbs or any(t.lower in NEGATORS for t in before):
            return False
        verb = before[verbs[-1]]
        return verb.lemma in _CONSUMING or any(t.lower in _MUCH for t in before[verbs[-1] :])
    if not (_forms(token) & _UNBIDDEN) or not _verb_like(tokens, i) or by_a_person:
        return False
    if i and tokens[i - 1].lower in ("to", "can", "could", "will", "would"):
        return False  # "to close it", "you can reset it": what someone may do
    first, last = _segment(tokens, i)
    words = [t.lower for t in tokens[first : last + 1]]
    pairs = set(zip(words, words[1:], strict=False))
    return any(w in _UNASKED for w in words) or any(p in pairs for p in _UNASKED_PHRASES)


# Taking something from the user: "it erased my saved routes", "my notes got wiped", "they took
# away the offline mode". Past forms: "it removes backgrounds" offers a tool.
_REMOVING = _wordset("delete erase wipe remove")

_WHERE = _wordset("where where's wheres")

_CHORE_VERBS = _wordset("mean require involve")

_GONE_CUES = _wordset("longer anymore more gone took taken")

_PASSIVE = _wordset("got get gets getting was were been is are be")

_REMOVED_OBJECTS = _wordset("my our all the your his her their every")

# Where something that was there is no longer: "no longer supported", "not there anymore".
_STILL_USED = _wordset("use using open opening play playing bother")


def _unwanted(tokens: list[Token]) -> bool:
    """The words name a problem or an interruption: taking those away is a fix ("they removed
    the ads", "the bugs are gone")."""
    return any(
        t.lemma in PROBLEM_LEMMAS or t.lower in PROBLEM_LEMMAS or t.lower in _INTRUSIONS
        for t in tokens
    )


def _taken_away(tokens: list[Token], i: int) -> bool:
    """Something the user had is gone: data deleted or wiped, a feature removed or taken
    away, a thing "gone", "no longer" there or working, or not there "anymore". Not when what
    is gone is a problem or an ad, nor the writer's own choice ("I no longer need paper")."""
    token = tokens[i]
    if token.lower not in _GONE_CUES and token.lemma != "get" and not _forms(token) & _REMOVING:
        return False
    first, last = _segment(tokens, i)
    piece = tokens[first : last + 1]
    if _unwanted(piece) or any(t.lower in _CONDITIONS | {"unless"} for t in tokens[:i]):
        return False
    subject = _subject_of(tokens, i)
    writer = subject is not None and subject.lower in _WRITER_OBJECTS | _PERSON_SUBJECTS
    after = [t.lower for t in tokens[i + 1 : i + 4]]
    if token.lower == "longer" and i and tokens[i - 1].lower == "no":
        # "my device is no longer supported"; the writer only when they left the app ("I no
        # longer use it"); not a chore gone ("a count no longer means typing by hand")
        if after and _word_forms(after[0], after[0]) & (NOT_FAILURE_VERBS | _CHORE_VERBS):
            return False
        return not writer or bool(after) and after[0] in _STILL_USED
    if token.lower == "anymore" or (token.lower == "more" and i and tokens[i - 1].lower == "any"):
        negator = next(
            (j for j, t in enumerate(piece) if t.lower in _VERB_NEGATORS or t.lower == "no"), None
        )
        if negator is None:
            return False
        # whose it is that is no more: the subject before the negation ("I never forget …")
        said_of = [t for t in piece[:negator] if t.pos in ("PRON", "NOUN", "PROPN")]
        writer = bool(said_of) and said_of[-1].lower in _WRITER_OBJECTS | _PERSON_SUBJECTS
        return not writer or any(t.lower in _STILL_USED for t in piece)
    if _negated(tokens, i):
        return False
    if token.lower == "gone":
        before = tokens[i - 1].lower if i else ""
        where = any(t.lower in _WHERE for t in tokens[:i])
        return not writer and (before in _PASSIVE | _wordset("'s all now completely") or where)
    if token.lower in ("took", "taken") and after[:1] == ["away"]:
        return not writer
    if token.lemma == "get" and after[:2] == ["rid", "of"]:
        return not writer and token.lower != "get"
    if not (_forms(token) & _REMOVING) or not token.lower.endswith("ed"):
        return False
    if i and tokens[i - 1].lower in _PASSIVE:
        return not writer  # "my notes got deleted"
    if writer or not after or after[0] not in _REMOVED_OBJECTS:
        return False
    return polarity(" ".join(t.text for t in piece)) < 0.3  # not "removed the glare nicely"


# Functions the app performs only in part: "it only works on wifi", "you can only save three
# filters", "only shows the last ten messages".
_SMALL_NUMBERS = _wordset("one two three four five six ten")

_QUOTAS = _wordset("skips tries uses times minutes hours days lives messages photos pictures")

_LIMITED = FUNCTION_LEMMAS | _wordset("support access view have hold store accept handle")


def _restricted(tokens: list[Token], i: int) -> bool:
    """ "only" before what the app does: a function limited, said as a shortcoming. Not what
    the writer does with it ("I only use it for notes") unless they "can" only do it, nor
    praise ("it only takes a second")."""
    token = tokens[i]
    if token.lower != "only" or i + 1 >= len(tokens):
        return False
    verb = tokens[i + 1]
    if verb.pos == "NUM" or verb.lower in _SMALL_NUMBERS:
        # "only 3 free songs a day": a quota of what the app offers (not "only $2")
        thing = next((t for t in tokens[i + 2 : i + 5] if t.pos != "ADJ"), None)
        return thing is not None and thing.lower in _CONTENTS | _CAPABILITY_NOUNS | _QUOTAS
    if not (_forms(verb) & _LIMITED) or verb.pos in ("ADJ", "DET", "NUM"):
        return False
    can = i and tokens[i - 1].lemma in ("can", "could")
    subject = _subject_of(tokens, i)
    if subject is not None and subject.lower in _WRITER_OBJECTS and not can:
        return False
    first, last = _segment(tokens, i)
    return polarity(" ".join(t.text for t in tokens[first : last + 1])) < 0.5


# A question that objects rather than asks: "why does it want my location?", "what happened
# to the search bar?", "where did my playlists go?"
_DEMANDING = _wordset("need want require ask demand")


def _asks_why(tokens: list[Token], i: int) -> bool:
    if tokens[i].lower not in ("happened", "go") and not _forms(tokens[i]) & _DEMANDING:
        return False
    words = [t.lower for t in tokens if t.pos != "PUNCT"]
    if not words:
        return False
    token = tokens[i]
    opener = next((j for j, t in enumerate(tokens[:4]) if t.lower == "why"), None)
    asking = opener is not None and not any(
        t.pos in ("PRON", "NOUN", "PROPN", "VERB") for t in tokens[:opener]
    )  # "First, why …", "So why …"; not "I know why you need it"
    if asking and _forms(token) & _DEMANDING and i >= 2:
        # "why does it need …", "why do you want …": the app's demand is questioned
        subject = _subject_of(tokens, i)
        return subject is not None and subject.lower not in _WRITER_OBJECTS
    if (
        words[1:3] == ["happened", "to"]
        and words[0] in ("what", "whatever")
        and token.lower == "happened"
    ):
        return True
    if words[0] == "where" and token.lower == "go" and "did" in words[:3]:
        return not any(w in _WRITER_OBJECTS for w in words[1:4])  # not "where did I go wrong"
    return False


# Something else said to be better: an older version or the same service elsewhere ("the old
# layout was so much better", "the web version is way better"). This app, worse.
_PRAISING_COMPARATIVES = _wordset("better nicer faster easier smoother cleaner simpler superior")

_HOW_MUCH = _wordset("much way far lot a so even")

_OTHER_VERSIONS = _wordset(listed("other_versions"))


def _outdone(tokens: list[Token], i: int) -> bool:
    """ "the old layout was so much better", "the web version is better"; and the app as it
    was, told beside a wish to have it back ("switch it back, it looked so much nicer")."""
    if tokens[i].lower not in _PRAISING_COMPARATIVES:
        return False
    back = i - 1
    while back > 0 and (tokens[back].pos == "ADV" or tokens[back].lower in _HOW_MUCH):
        back -= 1  # "was so much better", "is a lot better", "looked so much nicer"
    if back < 0:
        return False
    first, _ = _segment(tokens, back)
    subject = tokens[first:back]
    if any(t.lower == "than" for t in tokens[i + 1 : i + 3]):
        return False  # "better than I expected", "better than the rest"
    if tokens[back].lower in _WAS and any(t.lower in _THING_PRONOUNS for t in subject):
        return any(t.lower in _BACK_THEN for t in tokens)
    if tokens[back].lemma != "be":
        return False
    return any(t.lower in _OTHER_VERSIONS for t in subject) and not any(
        t.lower in DEVICE_WORDS or t.lemma in DEVICE_WORDS for t in subject
    )


_WAS = _wordset("was were looked seemed felt sounded worked")

_BACK_THEN = _wordset("back before")


# It was good until something changed: "worked fine until the update", "it was a great app
# until they added ads". (Not "great until I found something better": the writer moved on.)
_WAS_GOOD = _wordset(
    "great good fine perfect perfectly well amazing awesome excellent flawless flawlessly"
)

_PAST_STATES = _wordset("was were worked ran")


def _good_until(tokens: list[Token], i: int) -> bool:
    if tokens[i].lower != "until" or i + 1 >= len(tokens):
        return False
    before = tokens[max(0, i - 5) : i]
    if not any(t.lower in _WAS_GOOD for t in before) or not any(
        t.lower in _PAST_STATES for t in before
    ):
        return False
    after = tokens[i + 1]
    return after.lower not in _WRITER_OBJECTS  # "until I found something better"


def good_until(text: str, span: Span) -> bool:
    """The span says the app was good until something changed."""
    tokens = read(text, span).tokens
    return any(_good_until(tokens, i) for i, t in enumerate(tokens) if t.lower == "until")


# "It works on my laptop but not on my tablet": the verb denied by ellipsis. (What works
# elsewhere, "other readers open it fine", says where, not what goes wrong.)
_WORKING_VERBS = _wordset("work run load play sync open")


def _fails_here(tokens: list[Token], i: int) -> bool:
    if tokens[i].lower != "not" or not i or tokens[i - 1].lower != "but":
        return False
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    return (
        after is not None
        and after.pos == "ADP"
        and any(_forms(t) & _WORKING_VERBS for t in tokens[: i - 1])
    )


# Giving up on the app: "I stopped using it", "I don't bother opening it any more", "switched
# to another app".
_GIVING_UP = _wordset("stop stopped quit quitting")

_USING = _wordset("using opening playing")

_MOVING = _wordset("switched switching went going moved moving")

_ELSEWHERE = _wordset("another other different old previous web")

_SUBORDINATORS = _wordset("if unless until when whenever before once")


def _leaves(tokens: list[Token], i: int) -> bool:
    token = tokens[i]
    if token.lower not in _GIVING_UP | _MOVING and token.lemma != "bother":
        return False
    if token.lemma != "bother" and _negated(tokens, i):
        return False  # "I can't stop playing it": praise
    if any(t.lower in _SUBORDINATORS for t in tokens[:i]):
        return False  # "it works until I stop using it": when, not that the writer left
    subject = _subject_of(tokens, i)
    if subject is not None and subject.lower not in _WRITER_OBJECTS:
        return False
    after = tokens[i + 1 : i + 4]
    if token.lower in _GIVING_UP and after and after[0].lower in _USING:
        thing = [t for t in after[1:] if t.pos != "DET"][:1]
        return not thing or thing[0].lower in _LEFT_THINGS or thing[0].lemma in _LEFT_THINGS
    if token.lemma == "bother" and _right_after_negator(tokens, i):
        return subject is not None and bool(after) and after[0].lower in _USING | {"with"}
    if token.lower in _MOVING and [t.lower for t in after[:1]] in (["to"], ["back"]):
        # "switched to another app", "went back to the old one", "going back to using paper"
        rest = [t.lower for t in tokens[i + 2 : i + 6]]
        return any(w in _ELSEWHERE | {"using"} for w in rest[:3])
    return False


def _of_another_subject(tokens: list[Token], i: int) -> bool:
    """ "the ratings that a video store could never offer": a relative clause with a noun for
    its subject says what something else cannot do, to set the product off against it."""
    for back in range(i - 1, max(-1, i - 9), -1):
        token = tokens[back]
        if token.lower in _RELATIVES:
            return back + 1 < i and tokens[back + 1].pos in ("DET", "NOUN", "PROPN", "ADJ")
        if token.pos == "PUNCT" or token.lower in _SEGMENT_BREAKS:
            return False
    return False


def _absent_thing(tokens: list[Token], index: int) -> bool:
    """A thing said to be missing, not a problem said to be absent («нет проблем»)."""
    if index >= len(tokens) or tokens[index].pos != "NOUN":
        return False
    return tokens[index].lemma not in PROBLEM_LEMMAS


def _hoped_for(tokens: list[Token], j: int) -> bool:
    return any(t.lower in _HOPING for t in tokens[max(0, j - 5) : j])


_PLEAS = _wordset("please pls plz kindly пожалуйста")

_OUGHT = _wordset("should must")

_URGING = _wordset("just so now")

_AT_ONCE = _wordset("already asap soon please pls plz")

_HOPING = _wordset("hope hoping hopefully wish")

_FIXING = _wordset("fix resolve solve")


def _requests_a_fix(tokens: list[Token], i: int) -> bool:
    """ "please fix …", "they need to fix …", "you should fix …": the makers are asked to fix
    something, which presupposes it is broken ("please fix the sync", "please fix it")."""
    if tokens[i].lower not in _FIXING:
        return False
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    if after is not None and after.lower in _AT_ONCE:
        return True  # "fix already", "fix it asap"
    if i == 0 or tokens[i - 1].lower in _URGING:
        # "Fix the sync already", "just fix it": an imperative with its object
        return after is not None and after.pos in ("DET", "PRON", "NOUN", "PROPN")
    before = tokens[i - 1].lower
    if before in _PLEAS | _OUGHT:
        return True
    return before == "to" and i >= 2 and tokens[i - 2].lemma in ("need", "have")


# Words that end the piece of a clause a problem word belongs to ("I'm sorry but this app is
# crap": the problem is said after "but").
_SEGMENT_BREAKS = _wordset(listed("segment_breaks"))


def _segment(tokens: list[Token], at: int) -> tuple[int, int]:
    """The piece of the clause around the problem word, between punctuation and connectives."""

    def breaks(i: int) -> bool:
        token = tokens[i]
        punctuation = token.pos == "PUNCT" and token.text not in ("'", "’", "-", "&")
        return (punctuation and not _inside_a_word(tokens, i)) or token.lower in _SEGMENT_BREAKS

    first = at
    while first > 0 and not breaks(first - 1):
        first -= 1
    last = at
    while last + 1 < len(tokens) and not breaks(last + 1):
        last += 1
    return first, last


def _inside_a_word(tokens: list[Token], i: int) -> bool:
    """A dot or a slash with a word right on both sides: part of a name ("example.com",
    "news/mail"), not a break between phrases."""
    if tokens[i].text not in (".", "/") or not 0 < i < len(tokens) - 1:
        return False
    before, after = tokens[i - 1], tokens[i + 1]
    return (
        before.start + len(before.text) == tokens[i].start
        and tokens[i].start + 1 == after.start
        and (after.text[:1].islower() or after.text[:1].isdigit())
    )


# The devices and platforms an app runs on: where it is used, never one of its features.
DEVICE_WORDS = _wordset(listed("device_words"))
