"""Uses and capabilities: features named by what someone does with the product.

An ability ("I can edit photos", `capability_spans`), a use ("I use it to ...",
`use_spans`), an activity, something kept in a state, or an operation performed on the app
(`operation_spans`, `verb_phrase_spans`) names a feature by the verb and its object; a way of
doing the job by hand or with another tool is a workaround (`workaround_spans`).
Example: "I mostly use it to split bills with friends" gives the feature "split bills".
"""

from __future__ import annotations

import re

from kg.language import Token, grammemes, lemma
from kg.llm.offline import lexicon_en
from kg.llm.offline.complaints import DEVICE_WORDS, _a_person, _forms
from kg.llm.offline.feature_phrases import (
    _DETERMINERS,
    _POSSESSIVES,
    _WHOLE_PRODUCT,
    _an_amount,
    _behaves,
    _content_bounds,
    _nouns_after_determiners,
    _object_head,
    _object_phrase,
    _past_form,
    _verb_slot,
)
from kg.llm.offline.labels import _PHRASAL_OPERATIONS, GENERIC_PROBLEMS
from kg.llm.offline.negation import is_hypothetical
from kg.llm.offline.pain_spans import _SPACED, _noun_phrase_before
from kg.llm.offline.problems import APP_OPERATIONS
from kg.llm.offline.reading import Reading, Span, _within, _wordset, listed, polarity, read
from kg.llm.offline.rule_words import (
    _PHRASE_STOPS,
    ABILITY_EN,
    GENERIC_NOUNS,
    GENERIC_VERBS,
    NEGATORS,
    PROBLEM_LEMMAS,
)

# "prefer X to Y", "prefer X over Y": the object is one of two things weighed.
_PREFERS_ONE_TO_ANOTHER = re.compile(
    # not "prefer it to sync on its own": there "to" opens what is wanted of it
    r"prefer(?:s|red)?\s+(?!(?:it|them|this|that)\s+to\b)(?:[\w'-]+\s+){1,6}?"
    r"(?:to|over|rather\s+than|instead\s+of)\s+\w",
    re.IGNORECASE,
)


def capability_spans(text: str, sentence: Span) -> list[tuple[int, Span]]:
    """(cue start, phrase) for each capability an English sentence says someone uses."""
    found = []
    tokens = read(text, sentence).tokens
    for cue in ABILITY_EN.finditer(text, sentence[0], sentence[1]):
        if _compares(tokens, cue.start() - sentence[0]):
            continue  # "just like iTunes", "looks like others": a comparison, not a liking
        if _PREFERS_ONE_TO_ANOTHER.match(text, cue.start(), sentence[1]):
            continue  # "I prefer paper to screens": a choice between two media, not a use
        phrase = _object_phrase(text, (cue.end(), sentence[1]), True)
        if phrase is not None:
            found.append((cue.start(), phrase))
    return found


# Words that praise what the product is for, or name it as a means: "great for budgeting", "an
# app for meal planning", "easy to set up", "a good way to track expenses".
_GOOD_FOR = _wordset(listed("good_for"))

_MEANS = _wordset("app application program tool way software")

# Verbs too vague to name a use on their own ("nice to see", "good to go").
_VAGUE_USES = _wordset("see go read hear watch look find")


def use_spans(text: str, sentence: Span) -> list[tuple[int, Span]]:
    """(cue start, phrase) for what a sentence says the product is good for or used for: "great
    for budgeting", "an app for meal planning", "easy to set up and share", and the use a
    compound names ("a route planning app")."""
    reading = read(text, sentence)
    tokens = reading.tokens
    found: list[tuple[int, Span]] = []
    for cue, i in _use_cues(reading):
        found += [(cue, span) for span in _uses_after(text, reading, i, sentence[1])]
    for i, token in enumerate(tokens[:-1]):
        # "a meal planning app", "a handy packing tool": the -ing form before a word for
        # the means names the use, with the noun it is done to when one comes first
        if (
            token.pos in ("VERB", "NOUN")
            and token.lower.endswith("ing")
            and token.text.isalpha()
            and tokens[i + 1].lemma in _MEANS - {"way"}
            and tokens[i + 1].pos == "NOUN"
        ):
            first = i - 1 if i and tokens[i - 1].pos == "NOUN" else i
            found.append((tokens[first].start + reading.offset, reading.span(first, i)))
    return found


# Words in -ing that name no activity.
_NOT_ACTIVITIES = _wordset(listed("not_activities"))

# Before an -ing form these make it a noun for an activity: "ideal for journaling", "the
# convenience of messaging", "my budgeting", "no scrolling" ("some getting used to" is none).
_ACTIVITY_LEADS = _wordset("for of my your our their his her no")

# "for warming up", "no giving up": an -ing form with its particle is a phrasal verb's.
_VERB_PARTICLES = _wordset("out up off down away back")


def activity_spans(text: str, sentence: Span) -> list[tuple[int, Span]]:
    """(start, phrase) for each -ing form used as a noun for an activity with no object of
    its own ("a small fee for messaging", "it improved my budgeting")."""
    reading = read(text, sentence)
    tokens = reading.tokens
    found = []
    for i, token in enumerate(tokens[1:], 1):
        if not (token.lower.endswith("ing") and token.text.isalpha()):
            continue
        if token.pos not in ("NOUN", "VERB") or token.lower in _NOT_ACTIVITIES:
            continue
        if tokens[i - 1].lower not in _ACTIVITY_LEADS:
            continue
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if after is not None and after.pos in ("NOUN", "PROPN", "PRON", "DET", "ADJ", "NUM"):
            continue  # an object or the noun it qualifies follows: other rules read those
        if after is not None and after.lower in _VERB_PARTICLES:
            continue
        found.append((token.start + reading.offset, reading.span(i, i)))
    return found


# Verbs of getting at content whose object may be a clause: "find what you are after",
# "choose what to hear", "play whatever they like".
_CHOOSING_CONTENT = _wordset("find choose pick watch play listen search browse")

_WH_OBJECTS = _wordset("what whatever which whichever")

_WH_CLAUSE_WORDS = 5


def wh_object_uses(text: str, sentence: Span) -> list[tuple[int, Span]]:
    """(start, phrase) for a verb of getting at content with a clause for its object ("quick
    to find what you are after"): the clause says what is found, so the whole is the use."""
    reading = read(text, sentence)
    tokens = reading.tokens
    found = []
    for i, token in enumerate(tokens[:-2]):
        if token.lemma not in _CHOOSING_CONTENT and token.lower not in _CHOOSING_CONTENT:
            continue
        j = i + 1
        if tokens[j].lower in ("to", "for", "through") and token.lemma in ("listen", "search"):
            j += 1
        if tokens[j].lower not in _WH_OBJECTS:
            continue
        last = j
        while (
            last + 1 < len(tokens)
            and last - j < _WH_CLAUSE_WORDS
            and tokens[last + 1].pos not in ("PUNCT", "CONJ")
            and tokens[last + 1].lower not in _PHRASE_STOPS
        ):
            last += 1
        while last > j and tokens[last].pos == "ADP":
            last -= 1  # "what I am searching for": the clause's own stranded preposition
        if last > j:
            found.append((token.start + reading.offset, reading.span(i, last)))
    return found


# "keep my recipes sorted", "keeps my inbox tidy": keeping something in a state the product
# brings about names what it does.
_KEPT_STATES = _wordset("organized organised synced synchronized sorted tidy")


def kept_in_state_uses(text: str, sentence: Span) -> list[tuple[int, Span]]:
    """(start, phrase) for "keep" with what is kept and the state it is kept in."""
    reading = read(text, sentence)
    tokens = reading.tokens
    found = []
    for i, token in enumerate(tokens):
        if token.lemma != "keep" and token.lower not in ("keep", "keeps", "kept", "keeping"):
            continue
        for k in range(i + 1, min(len(tokens), i + 5)):
            if tokens[k].lower in _KEPT_STATES:
                if any(t.lower in ("it", "this") for t in tokens[i + 1 : k]):
                    break  # "the makers keep it tidy": the product itself, kept by its makers
                found.append((token.start + reading.offset, reading.span(i, k)))
                break
            if tokens[k].pos in ("PUNCT", "CONJ", "VERB"):
                break
    return found


def _use_cues(reading: Reading) -> list[tuple[int, int]]:
    """(cue start, index of the first word after it) for "great for", "an app for", "easy to"."""
    tokens = reading.tokens
    cues = []
    for i, token in enumerate(tokens[:-2]):
        link = tokens[i + 1]
        praised = token.lower in _GOOD_FOR and token.pos in ("ADJ", "ADV", "PROPN")
        means = token.lemma in _MEANS and token.pos == "NOUN"
        if not (praised or means) or link.lower not in ("for", "to"):
            continue
        if link.lower == "to" and not (praised or (i and tokens[i - 1].lower in _GOOD_FOR)):
            continue  # "switched the app to dark mode"; but "a great app to keep notes"
        cues.append((token.start + reading.offset, i + 2))
    return cues


def shared_object_uses(text: str, sentence: Span) -> list[tuple[int, Span, str]]:
    """(cue start, quote span, label) for verbs that share one object after an ability or a use:
    "lets you tag and archive invoices" names "tag invoices" and "archive invoices"."""
    reading = read(text, sentence)
    starts = [
        (cue.start(), cue.end())
        for cue in ABILITY_EN.finditer(text, sentence[0], sentence[1])
        if not _compares(reading.tokens, cue.start() - sentence[0])
    ]
    tokens = reading.tokens
    # after "for" a noun may follow ("great for notes and lists"); after "to", a verb
    starts += [
        (cue, tokens[i].start + reading.offset)
        for cue, i in _use_cues(reading)
        if tokens[i - 1].lower == "to"
    ]
    found = []
    for cue, after in starts:
        found += [(cue, span, label) for span, label in _shared_object(text, after, sentence[1])]
    return found


def _shared_object(text: str, start: int, end: int) -> list[tuple[Span, str]]:
    """Words joined in the slot of a verb ("to tag and archive", "can sort and filter") are verbs,
    whatever a tagger says: each goes with the object after the last one."""
    reading = read(text, (start, end))
    tokens = reading.tokens
    i = 0
    while i < len(tokens) and (tokens[i].pos in ("PART", "PRON", "ADV") or tokens[i].lower == "to"):
        i += 1
    verbs: list[int] = []
    joined = False  # the last link has a conjunction: "a, b and c", not "a, B"
    while i < len(tokens) and tokens[i].pos in ("VERB", "NOUN") and tokens[i].text.isalpha():
        if verbs and not joined:
            break
        verbs.append(i)
        link = i + 1
        while link < len(tokens) and tokens[link].text in (",", "/", "and", "or", "&"):
            link += 1
        if link == i + 1:
            break
        joined = any(t.text != "," for t in tokens[i + 1 : link])
        i = link
    if len(verbs) < 2:
        return []
    last = tokens[verbs[-1]]
    phrase = _object_phrase(text, (last.start + reading.offset, end), True)
    if phrase is None or not _right_after(reading, verbs[-1], phrase[0]):
        return []
    what = " ".join(text[last.end + reading.offset : phrase[1]].split())
    if not what:
        return []
    return [
        ((tokens[v].start + reading.offset, phrase[1]), f"{tokens[v].text} {what}")
        for v in verbs
        if tokens[v].lemma not in GENERIC_VERBS
    ]


_JOINERS = _wordset("and or &")


def conjunct_uses(text: str, sentence: Span, phrases: list[Span]) -> list[tuple[Span, str]]:
    """(quote span, label) for what is joined by "and"/"or" to the end of a use or capability
    phrase and is of its kind, a noun phrase or an -ing form: "enjoy comedy and drama" names
    "drama" too, "keep up with friends and family" names "keep up with family"."""
    reading = read(text, sentence)
    tokens = reading.tokens
    found = []
    for start, end in phrases:
        inside = [i for i, t in enumerate(tokens) if start <= t.start + reading.offset < end]
        if not inside or inside[-1] + 2 >= len(tokens):
            continue
        last = inside[-1]
        if tokens[last + 1].lower not in _JOINERS or tokens[last].pos not in ("NOUN", "VERB"):
            continue
        conjunct = _conjunct(tokens, last + 2, gerund=tokens[last].lower.endswith("ing"))
        if conjunct is None:
            continue
        first, final = conjunct
        what = text[reading.span(first, final)[0] : reading.span(first, final)[1]]
        # the words the first conjunct shares: the verb and its preposition, not its own noun
        shared = last
        while shared >= inside[0] and (
            tokens[shared].pos in ("NOUN", "ADJ", "DET", "NUM")
            or tokens[shared].lower in _POSSESSIVES
        ):
            shared -= 1
        lead = ""
        if shared >= inside[0]:
            if tokens[shared].pos not in ("VERB", "ADP", "PART"):
                continue  # "excels in is the number and …": no verb or preposition to share
            lead = text[
                tokens[inside[0]].start + reading.offset : tokens[shared].end + reading.offset
            ]
        label = " ".join(f"{lead} {what}".split())
        found.append(((start, reading.span(first, final)[1]), label))
    return found


def _conjunct(tokens: list[Token], i: int, *, gerund: bool) -> tuple[int, int] | None:
    """A noun phrase (or, after an -ing form, another -ing form) from token i that ends the
    clause: determiners and possessives are skipped, a name or a general word is none."""
    while i < len(tokens) and (tokens[i].pos == "DET" or tokens[i].lower in _POSSESSIVES):
        i += 1
    first = i
    while i < len(tokens) and tokens[i].pos == "ADJ":
        i += 1
    if i == first and i < len(tokens) and tokens[i].pos == "ADJ":
        return None
    named = i
    while i < len(tokens) and tokens[i].pos in ("NOUN", "VERB") and tokens[i].text.isalpha():
        if tokens[i].pos == "VERB" and not (gerund and tokens[i].lower.endswith("ing")):
            break
        i += 1
    if i == named:
        return None
    after = tokens[i] if i < len(tokens) else None
    if after is not None and after.pos not in ("PUNCT", "CONJ", "ADP", "ADV"):
        return None  # a new clause: "comedy and the kids love it"
    if tokens[i - 1].lemma in GENERIC_NOUNS or not tokens[i - 1].text.islower():
        return None
    return first, i - 1


def _right_after(reading: Reading, verb: int, start: int) -> bool:
    """The phrase starting at start is the verb itself or its object: only determiners,
    possessives or numbers lie between ("add new songs", where "add" leads in, not names)."""
    if start == reading.tokens[verb].start + reading.offset:
        return True
    between = [t for t in reading.tokens[verb + 1 :] if t.start + reading.offset < start]
    return all(t.pos in ("DET", "NUM") or t.lower in _POSSESSIVES for t in between)


def _uses_after(text: str, reading: Reading, i: int, end: int) -> list[Span]:
    """The verb phrases or noun phrase from token i on; bare verbs joined by "and" each count
    ("for reading and annotating")."""
    tokens = reading.tokens
    phrase = _object_phrase(text, (tokens[i].start + reading.offset, end), True)
    if phrase is not None:
        return [phrase]
    spans = []
    while i < len(tokens) and tokens[i].pos == "VERB":
        if tokens[i].lemma not in GENERIC_VERBS | _VAGUE_USES and tokens[i].text.isalpha():
            spans.append(reading.span(i, i))
        if i + 2 < len(tokens) and tokens[i + 1].lower in ("and", "or", "&"):
            i += 2
            continue
        break
    return spans


_LIKENESS_BEFORE = _wordset(listed("likeness_before"))


def _compares(tokens: list[Token], at: int) -> bool:
    """ "like" used as a preposition: after "is", "looks", "just", or tagged so."""
    index = next((i for i, t in enumerate(tokens) if t.start == at), None)
    if index is None or tokens[index].lower != "like":
        return False
    before = tokens[index - 1].lower if index else ""
    return tokens[index].pos == "ADP" or before in _LIKENESS_BEFORE


def verb_phrase_spans(text: str, sentence: Span) -> list[tuple[int, Span]]:
    """(start, phrase) for each specific verb with its object: what a reviewer does with the
    product ("sync my notes", "edit photos"). In a sentence without a feeling word only a verb
    with a plain noun object counts ("follow people", "listen to music"), cut after the noun."""
    evaluative = abs(polarity(text[sentence[0] : sentence[1]])) >= 0.3
    reading = read(text, sentence)
    reading = Reading(_nouns_after_determiners(reading.tokens), reading.offset)
    if is_hypothetical(reading):
        return []  # "if the digest ever failed": nothing anyone did
    found = []
    for i, token in enumerate(reading.tokens):
        if token.pos != "VERB" or token.lemma in GENERIC_VERBS or not token.text.isalpha():
            continue
        if _past_form(token):
            continue  # "I decorated my cover", "is designed": a story or a state, not a use
        if _forms(token) & PROBLEM_LEMMAS:
            continue  # "stutters on old phones", "lose my data": a fault or mishap, no use
        if _obliged(reading.tokens, i):
            continue  # "has to phone the office": what a fault forces on someone, no use
        if token.lower.endswith("ing") and i and reading.tokens[i - 1].lemma == "be":
            continue  # "I was carrying my laptop": what someone was doing, not a use
        if i and reading.tokens[i - 1].lower in _PERSON_RELATIVES:
            continue  # "grandparents who live far away": what describes people, not a use
        start = reading.tokens[i].start + reading.offset
        phrase = _object_phrase(text, (start, sentence[1]), True)
        if phrase is None or phrase[0] != start:
            continue
        if _general_object(reading, phrase):
            continue  # "wasting time", "read the reviews": nothing of the product is named
        if _brings_about_a_state(reading, i, phrase):
            continue  # "creates doubt", "leads to confusion": an effect, not a use
        if _an_amount(token, _within(reading, *phrase)[1:]):
            continue  # "hiked its fees", "takes my lunch break": what it costs, no use
        if _forms(token) & _SELLING and _names_buyers(_within(reading, *phrase)[1:]):
            continue  # "the studio sells to small clinics": whom a business serves, no use
        if not evaluative:
            if i and reading.tokens[i - 1].pos == "ADP":
                continue  # "the option of muting chats": the gerund completes the noun before
            last = _plain_object_end(reading.tokens, i)
            if last is None:
                continue
            phrase = (start, min(phrase[1], reading.span(last, last)[1]))
        found.append((start, phrase))
    return found


# Relative pronouns that only people take ("grandparents who live far away").
_PERSON_RELATIVES = _wordset("who whom")


def behaviour_of_a_thing(text: str, sentence: Span, at: int) -> bool:
    """The verb that starts at `at` is said of a thing (the app, a part, a service: anything
    but a person) and acts on nothing: how that thing behaves ("the player stutters on old
    phones", "the banner hovers over the text", "it doesn't seem to behave right"), not a
    function anyone uses. A verb that names one of the product's functions stays ("it syncs
    with my laptop")."""
    reading = read(text, sentence)
    tokens = reading.tokens
    i = next((k for k, t in enumerate(tokens) if t.start + reading.offset == at), None)
    return i is not None and _behaves(tokens, i)


# Work done by hand: the manual way a task is done now, a chore or a workaround, not a function
# of any product ("re-typing the guest list by hand", "counts the cash manually").
_BY_HAND = re.compile(r"\b(?:by\s+hand|manually|by\s+eye|with\s+pen\s+and\s+paper)\b", re.I)

_BY_HAND_REACH = 5  # words between the activity's words and how it is done


def done_by_hand(text: str, clause: Span, span: Span) -> bool:
    """The activity whose words are span is said, later in its clause, to be done by hand."""
    found = _BY_HAND.search(text, span[0], clause[1])
    if found is None:
        return False
    between = text[span[1] : found.start()]
    return found.start() < span[1] or len(between.split()) <= _BY_HAND_REACH


# Verbs of causing: what they bring about is an effect, not something anyone does with the
# product, when it is a feeling, a judgement or a problem ("creates doubt", "causes
# delays", "leads to confusion"); "creates playlists" still names a use.
_CAUSING = _wordset("cause create lead result bring produce generate breed foster")


def _brings_about_a_state(reading: Reading, verb: int, phrase: Span) -> bool:
    if reading.tokens[verb].lemma not in _CAUSING:
        return False
    word = _object_head(_within(reading, *phrase)[1:])
    if word is None:
        return False
    return (
        word.lemma in PROBLEM_LEMMAS
        or word.lower in PROBLEM_LEMMAS
        or polarity(word.text) != 0
        or polarity(word.lemma) != 0
    )


# Selling to people or firms names whom a business serves, its market, not a function.
_SELLING = _wordset("sell resell")


def _names_buyers(tokens: list[Token]) -> bool:
    head = _object_head(tokens)
    if head is None:
        return False
    if head.lemma in lexicon_en.ORG_HEADS or head.lower in lexicon_en.ORG_HEADS:
        return True
    return _a_person(head)


_HAVE = _wordset("have has had")


def _obliged(tokens: list[Token], i: int) -> bool:
    """The verb at i is what someone has to or must do ("has to phone the office", "must
    re-enter it"), past adverbs ("will almost always have to")."""
    j = i - 1
    if j >= 0 and tokens[j].lower == "to":
        j -= 1
        while j >= 0 and tokens[j].pos == "ADV":
            j -= 1
        return j >= 0 and tokens[j].lower in _HAVE
    while j >= 0 and tokens[j].pos == "ADV":
        j -= 1
    return j >= 0 and tokens[j].lower == "must"


# Not general objects here: "everything" is the whole of what is kept ("save everything"), a
# problem noun makes a compound with an -ing form ("syncing problems"), and a device is where
# an operation is done ("restart my phone").
_NAMING_OBJECTS = _wordset("everything anything something nothing phone device tablet")


def _general_object(reading: Reading, phrase: Span) -> bool:
    """The verb's object is only a general noun ("time", "things", "reviews"), as in "wasting
    time" or "shipping on most of the things": it names no part of the product."""
    nouns = [t for t in _within(reading, *phrase)[1:] if t.pos in ("NOUN", "PROPN")]
    naming = _NAMING_OBJECTS | GENERIC_PROBLEMS | DEVICE_WORDS
    return bool(nouns) and all(
        (t.lemma in GENERIC_NOUNS or t.lower in GENERIC_NOUNS)
        and t.lower not in naming
        and t.lemma not in naming
        for t in nouns
    )


def _plain_object_end(tokens: list[Token], verb: int) -> int | None:
    """The last noun of the object right after a verb (one preposition, determiners,
    possessives and adjectives may come first: "browse through a category"), or None when
    what follows is no plain noun phrase, only a general word ("forget anything") or a name."""
    j = verb + 1
    if (
        j < len(tokens)
        and tokens[j].pos in ("ADP", "PART")
        and tokens[j].lower not in _PHRASE_STOPS
    ):
        j += 1
    while j < len(tokens) and (
        tokens[j].pos in ("DET", "ADJ", "NUM") or tokens[j].lower in _POSSESSIVES
    ):
        j += 1
    last = None
    while j < len(tokens) and tokens[j].pos == "NOUN":
        last = j
        j += 1
    if last is None or tokens[last].lemma in GENERIC_NOUNS:
        return None
    if any(not t.text.islower() for t in tokens[verb : last + 1] if t.text.isalpha()):
        return None  # "calling eBay": a name is a company or a product, not what it handles
    return last


_OPERATION_PARTICLES = _wordset("in on out up")


def operation_spans(text: str, sentence: Span) -> list[Span]:
    """The app operations a sentence names (see APP_OPERATIONS), each as its own words, or
    with the part it is said of ("videos won't load", "pictures will not load")."""
    reading = read(text, sentence)
    tokens = reading.tokens
    found = []
    for i, token in enumerate(tokens):
        before = tokens[i - 1] if i else None
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if token.lemma in _PHRASAL_OPERATIONS and token.pos in ("VERB", "NOUN"):
            if after is not None and after.lower in _OPERATION_PARTICLES:
                # "logged out my account": with what the operation acts on, as for one word
                found.append(reading.span(i, _direct_object_end(tokens, i + 1) or i + 1))
            continue
        if token.lemma not in APP_OPERATIONS and token.lower not in APP_OPERATIONS:
            continue
        if before is not None and before.lower == "down":
            continue  # "down load": getting the app
        if not _operation_here(token, before, after):
            continue
        if after is not None and _YEAR.fullmatch(after.text):
            continue  # "Updated 2013 –": when the review was edited, a date stamp
        if token.lower in ("load", "loads") and after is not None and after.lower == "of":
            continue  # "loads of fun": a quantity
        first = i
        subject = i - 1
        while subject >= 0 and (
            tokens[subject].pos in ("AUX", "PART") or tokens[subject].lower in NEGATORS
        ):
            subject -= 1
        if subject < i - 1 and subject >= 0 and tokens[subject].pos == "NOUN":
            part = _noun_phrase_before(tokens, subject)
            if part is not None:
                first = part[0]
        last = i
        if first == i and _used_as_verb(tokens, i):
            # "loads my messages", "refresh the feed": what the operation acts on says which
            last = _direct_object_end(tokens, i) or i
        found.append(reading.span(first, last))
    return found


_YEAR = re.compile(r"(?:19|20)\d\d")


def _used_as_verb(tokens: list[Token], i: int) -> bool:
    """The word is a verb here: not after a determiner ("this update"), and tagged a verb, in
    a verb's slot ("to load"), or followed by a determiner or a possessive, which a noun never
    is ("it only loads the posts")."""
    before = tokens[i - 1] if i else None
    if before is not None and (before.pos == "DET" or before.lower in _DETERMINERS | _POSSESSIVES):
        return False
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    return (
        tokens[i].pos == "VERB"
        or (before is not None and _verb_slot(before))
        or (after is not None and after.lower in _DETERMINERS | _POSSESSIVES)
    )


def _direct_object_end(tokens: list[Token], verb: int) -> int | None:
    """The last noun of a plain noun phrase right after a verb, with no preposition between
    ("loads the first few posts"); None when none follows, or when it is a pronoun, a general
    word, a device or a name (the app itself, the phone it runs on, another product)."""
    j = verb + 1
    while j < len(tokens) and (
        tokens[j].pos in ("DET", "ADJ", "NUM") or tokens[j].lower in _POSSESSIVES
    ):
        j += 1
    last = None
    while (
        j < len(tokens)
        and tokens[j].pos == "NOUN"
        and tokens[j].text.islower()
        and tokens[j].lower not in _PHRASE_STOPS | DEVICE_WORDS
    ):
        last = j
        j += 1
    if last is None:
        return None
    head = tokens[last]
    if head.lemma in GENERIC_NOUNS | _WHOLE_PRODUCT or head.lower in DEVICE_WORDS:
        return None
    return last


def _complement_end(tokens: list[Token], i: int) -> int:
    """Where the words that complete a verb end: its object or one prepositional phrase ("shares
    to any folder", "exports it to a spreadsheet", "shows the last ten orders"); i itself when
    nothing that names a thing follows."""
    j = i + 1
    if j < len(tokens) and tokens[j].pos == "ADV" and tokens[j].lower.endswith("ly"):
        j += 1  # "syncs easily between …"
    if j < len(tokens) and tokens[j].lower in ("it", "them"):
        j += 1
    prepositions = 0
    last = i
    while j < len(tokens) and j - i <= 6:
        token = tokens[j]
        if token.pos == "ADP" and token.lower not in _PHRASE_STOPS:
            prepositions += 1
            if prepositions > 1 or last > i and tokens[last].pos != "NOUN" and last != j - 1:
                break
        elif token.pos in ("NOUN", "PROPN"):
            last = j
        elif token.pos not in ("DET", "ADJ", "NUM") and not (
            token.pos == "PRON" and token.lower in ("my", "your", "our", "their", "his", "her")
        ):
            break
        j += 1
    return last


def _operation_here(token: Token, before: Token | None, after: Token | None) -> bool:
    """An operation used as a verb or a noun; "open" also as the word after a negation or a
    subject ("wouldn't open", "every time I open it"), and any as the word before a determiner
    ("refreshing the list": no adjective takes one), where taggers read an adjective."""
    if token.pos in ("VERB", "NOUN"):
        return not (token.pos == "NOUN" and token.lemma == "open")
    if token.pos != "ADJ":
        return False
    if after is not None and after.lower in _DETERMINERS | _POSSESSIVES:
        return True
    if before is None:
        return False
    return before.lower in NEGATORS or before.pos in ("PRON", "AUX", "PART")


# Makes and models that name only a device (not "phone": "phone calls" is a feature).
_DEVICE_NAMES = _wordset("iphone ipad ipod android kindle galaxy samsung htc nexus blackberry")

# Words after a device's name that only say which model: "Kindle Fire HD", "Galaxy S3 mini".
_MODEL_WORDS = _wordset("fire hd pro plus mini max air edge ultra lite note")

# Alone, "Edge" is the browser ("checked in Chrome and Edge"), not a phone's model.
_LONE_MODEL_WORDS = _MODEL_WORDS - {"edge"}


# «единственный способ», "the only way": what opens the one way round a fault
_ONLY_WAY_RU = r"единственн\w+\s+(?:способ|вариант|выход)"

_ONLY_WAY_EN = r"the\s+only\s+(?:way|option|solution|fix)"


# A workaround: what makes the product work for now. «работает только после перезапуска»,
# «помогает только перезапуск окна», «обходное решение — …», "it only opens if I use the
# keyboard shortcut", "the workaround is to reload the window".
_WORKAROUND = re.compile(
    r"(?:(?<!не\s)(?<![\w-])(?:работает|работают|срабатывает|запускается|открывается|"
    r"появляется|отображается|помогает|получается)\s+только\s+(?:в\s+случае,?\s+)?"
    r"(?:если|когда|после(?:\s+того,?\s+как)?|через)"
    r"|(?<![\w-])(?:обходн\w+\s+(?:путь|решение|вариант)|временн\w+\s+решение)\s*(?:—|-|:|это)"
    r"|(?<!не\s)(?<![\w-])(?:помогает|помогло|спасает|выручает)\s+только"
    r"|\b(?:works|opens|starts|runs|appears|shows\s+up|helps)\s+only\s+(?:if|when|after)"
    r"|\bonly\s+(?:works|opens|starts|runs|appears|helps)\s+(?:if|when|after)"
    r"|\bworkaround\s*(?:is|:|—|-)"
    # «Единственный способ сохранить файл — скопировать текст»
    rf"|(?<![\w-]){_ONLY_WAY_RU}(?:\s+[^,;.!?—:-]{{1,60}}?)?\s*(?:—|-|:|это)"
    # "the only way to save it is to copy the text out"
    # ("the only thing is that …" tells a drawback, not a way)
    rf"|\b{_ONLY_WAY_EN}\s+(?:to\s+[^,;.!?]{{1,60}}?\s+)?(?:is|was)"
    r"(?!\s+that\b))"
    r"\s*(?:(?:I|we|you|я|мы)\s+)?(?:to\s+)?(?P<w>[^,;.!?()]+)",
    re.IGNORECASE,
)

# The workaround told before what it does: "Reinstalling the plugin fixes it", "opening it
# in another viewer also eliminates the problem" (an action, told by a gerund, that helps).
_WORKAROUND_BEFORE = re.compile(
    r"(?<![\w-])(?P<w>(?P<gerund>[A-Za-z]+ing)\s(?:[^,;.!?()]|\.(?=\d)){1,80}?)\s+"
    r"(?:also\s+|always\s+)?(?<!not\s)(?<!never\s)"
    r"(?:eliminates|eliminated|solves|solved|fixes|fixed|resolves|resolved|avoids|avoided|"
    r"helps|helped|works\s+around|gets\s+around)"
    r"(?:\s+(?:it|this|that|the\s+(?:problem|issue|bug)))?(?![\w-])",
    re.IGNORECASE,
)

_WORKAROUND_END = re.compile(
    r"\s+(?:и\s+только\s+тогда|и\s+тогда|then|and\s+then|тогда|to\s+make|чтобы|so\s+that)"
    r"(?![\w-])",
    re.IGNORECASE,
)

_MAX_WORKAROUND_WORDS = 8


# The same in Russian, told by an action's noun: «очистка кэша тоже устраняет проблему»,
# «перезапуск помогает».
_WORKAROUND_BEFORE_RU = re.compile(
    r"(?<![\w-])(?P<w>(?P<gerund>[а-яё]+)(?:\s[^,;.!?()]{1,80}?)?)\s+(?:тоже\s+|также\s+)?"
    r"(?<![Нн]е\s)(?:устраняет|устранил[аои]?|решает|решил[аои]?|исправляет|исправил[аои]?|помогает|помог(?:ла|ло)?)"
    r"(?:\s+(?:проблему|это|е[ёе]|ситуацию))?(?![\w-])",
    re.IGNORECASE,
)


# What the writer used to get round the fault: "I installed an older plugin to get around this
# error", «поставил старый плагин, чтобы обойти эту ошибку».
_WORKAROUND_USED = re.compile(
    r"\b(?:I|we|я|мы)\s+(?:used|use|switched\s+to|installed|added|set|использ\w+|поставил\w*"
    r"|переключил\w*\s+на)\s+(?P<w>[^,;.!?()]{1,60}?),?\s+(?:to|чтобы)\s+(?:bypass|circumvent"
    r"|work\s+around|get\s+around|avoid|обойти|избежать)\s+(?:this|the|that|these|эт\w+)?\s*"
    r"(?:errors?|problems?|issues?|bugs?|crash(?:es)?|failures?|ошибк\w*|проблем\w*|баг\w*)",
    re.IGNORECASE,
)


def _workarounds_before(text: str, span: Span) -> list[re.Match[str]]:
    """What gets round the fault, told before what it does: an action in -ing ("restarting
    fixes it"), by an action's noun in the nominative («перезапуск помогает»), or what the
    writer used to bypass it."""
    found = [m for m in _WORKAROUND_BEFORE.finditer(text, *span) if _acts(m["gerund"])]
    found += list(_WORKAROUND_USED.finditer(text, *span))
    found += [
        m
        for m in _WORKAROUND_BEFORE_RU.finditer(text, *span)
        if {"NOUN", "nomn"} <= grammemes(m["gerund"]) and "anim" not in grammemes(m["gerund"])
    ]
    return found


# «Единственный способ выйти из меню — …», "the only way to leave it is …": the way round
_ONLY_WAY = re.compile(rf"(?<![\w-])(?:{_ONLY_WAY_RU}|{_ONLY_WAY_EN})(?![\w-])", re.IGNORECASE)


def tells_a_workaround(text: str, clause: Span) -> bool:
    """The clause tells what gets round the fault ("reopening it elsewhere eliminates the
    problem", "the only way to leave it is to restart"): the problem it names is the one
    told before, not a new one."""
    return bool(_workarounds_before(text, clause)) or bool(_ONLY_WAY.search(text, *clause))


def _acts(gerund: str) -> bool:
    """A word in -ing that does something ("restarting", "downgrading"), not a thing: its
    lemma is another word ("evening", "nothing" and "everything" are their own)."""
    word = gerund.lower()
    return lemma(word) != word


def workaround_spans(text: str, sentence: Span) -> list[tuple[int, Span]]:
    """(cue start, the workaround's words) for each workaround a sentence tells."""
    found = []
    matches = list(_WORKAROUND.finditer(text, sentence[0], sentence[1]))
    matches += _workarounds_before(text, sentence)  # "Restarting", not "Everything"
    for match in matches:
        start, end = match.span("w")
        stop = _WORKAROUND_END.search(text, start, end)
        if stop is not None:
            end = stop.start()
        words = list(_SPACED.finditer(text, start, end))[:_MAX_WORKAROUND_WORDS]
        reading = read(text, (start, words[-1].end())) if words else None
        if reading is None or not any(t.pos in ("VERB", "NOUN") for t in reading.tokens):
            continue
        first, last = _content_bounds(reading.tokens, 0, len(reading.tokens) - 1)
        if first <= last:
            found.append((match.start(), reading.span(first, last)))
    return found
