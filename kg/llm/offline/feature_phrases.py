"""Feature phrases: the noun or verb phrase that names a feature, and where it ends.

A feature label is the phrase after a cue with its object and modifiers (`_object_phrase`),
stopped at a relative clause, a second verb or a time adverbial; a bare generic noun or a
judgement is no feature name (`not_a_feature_name`, `without_judgement`); list items after a
colon are read one by one (`list_item_spans`).
Example: "I love how you can tag photos by place that you visited" gives the feature "tag
photos": "can" is the cue, and the phrase ends before what only describes the photos.
"""

from __future__ import annotations

import re
from dataclasses import replace

from kg.language import Token, analyse, grammemes, is_cyrillic, is_english_word, tagged
from kg.llm.offline.complaints import (
    _CONSUMING,
    _HOW_FAR,
    DEVICE_WORDS,
    _a_person,
    _forms,
    _right_after_negator,
)
from kg.llm.offline.labels import (
    _OBJECT_PRONOUNS,
    _PARTICLES,
    _PERCEIVED,
    _PHRASAL_OPERATIONS,
    _QUESTION_WORDS,
)
from kg.llm.offline.reading import Reading, Span, _wordset, listed, polarity, read
from kg.llm.offline.rule_words import (
    _COMPARATIVES,
    _FEATURE_WORDS,
    _LEAD_INS,
    _LEAD_INS_RU,
    _MAX_LABEL_WORDS,
    _OBJECT_LINKS,
    _PHRASE_STOPS,
    _RELATIVES,
    _SUBJECT_PRONOUNS,
    FUNCTION_POS,
    GENERIC_NOUNS,
    GENERIC_VERBS,
    NEGATORS,
    PROBLEM_LEMMAS,
)

_ASPECT_VERBS = _wordset("keep start begin continue seem tend")


def _content_bounds(tokens: list[Token], first: int, last: int) -> tuple[int, int]:
    while first <= last and (
        tokens[first].pos in FUNCTION_POS - {"PRON"} or _filler(tokens[first])
    ):
        first += 1
    while last >= first and (tokens[last].pos in FUNCTION_POS or _filler(tokens[last])):
        if last > first and _particle_of(tokens, last):
            break  # "keeps logging me out", "GPS is way off": the particle ends the phrase
        if tokens[last].lower in _PERCEIVED and _right_after_negator(tokens, last):
            break  # «кнопок не видно», read as a conjunction ("apparently"), is the fault
        last -= 1
    return first, last


def _particle_of(tokens: list[Token], last: int) -> bool:
    """The word is the particle of the phrasal verb before it ("logged out", "cuts off", "logs
    me out"), or says how far off something is ("way off")."""
    if tokens[last].lower not in _PARTICLES:
        return False
    if last >= 2 and tokens[last - 1].lower in _OBJECT_PRONOUNS:
        last -= 1  # "logs me out": the verb before its object
    before = tokens[last - 1]
    if before.lower in _HOW_FAR or before.lemma in _PHRASAL_OPERATIONS:
        return True
    return before.pos == "VERB" or (
        before.text.isascii() and before.lower.endswith(("ed", "ing")) and before.pos != "ADP"
    )


def _filler(token: Token) -> bool:
    return token.lower in ("also", "just", "really", "even", "still", "so", "too", "very", "же")


def _past_form(token: Token) -> bool:
    """A verb in a past form ("decorated", "chose", "designed"): not its base, -s or -ing form."""
    word = token.lower
    if word == token.lemma or word.endswith("ing"):
        return False
    return not (word.endswith("s") and word[:-1].startswith(token.lemma[:-1]))


# Verbs that name what a product does for its user even with no object after them ("it syncs
# with my laptop", "won't connect to a hotspot", "videos play in the background"): said of
# the app they are its functions. Any other verb said of a thing with no object tells how
# that thing behaves ("stutters on old phones", "flickers in dark mode", "hovers over the text").
_PRODUCT_FUNCTIONS = _wordset(listed("product_functions"))

# Words after a verb that a tagger may read as a noun but that say how, not what: "behave right".
_MANNER_WORDS = _wordset("right fine ok okay alright")

_THING_PRONOUNS_SUBJECT = _wordset("it this that")

# Verbs after which "to" always opens an infinitive, whatever the next word is tagged.
_CATENATIVE = _ASPECT_VERBS | _wordset("try fail refuse manage need want have")

_RELATIVE_SUBJECTS = _wordset("that which")


def _subject_index(tokens: list[Token], i: int) -> int | None:
    """The subject of the verb at i when it stands right before it, past auxiliaries,
    adverbs, negation and verbs of aspect ("it doesn't seem to run", "the app keeps
    hanging"); past a relative pronoun, the noun it stands for ("drafts that are beginning to
    gather"). None for a verb with no subject of its own: an infinitive, a gerund, a command."""
    j = i - 1
    while j >= 0:
        token = tokens[j]
        if token.pos in ("ADV", "AUX") or token.lower in NEGATORS or _forms(token) & _ASPECT_VERBS:
            j -= 1
        elif token.lower == "to" and j and _forms(tokens[j - 1]) & _ASPECT_VERBS:
            j -= 1  # "seems to", "keeps trying to": the subject is the aspect verb's
        elif token.lower in _RELATIVE_SUBJECTS and j and tokens[j - 1].pos in ("NOUN", "PROPN"):
            return j - 1
        elif token.pos in ("NOUN", "PROPN", "PRON"):
            return j
        else:
            return None
    return None


def _after_an_auxiliary(tokens: list[Token], i: int) -> bool:
    """Only a verb comes here, whatever a tagger says: after "doesn't", "won't", "can", past
    adverbs ("it doesn't really qualify")."""
    j = i - 1
    while j >= 0 and tokens[j].pos == "ADV" and tokens[j].lower not in NEGATORS:
        j -= 1
    return j >= 0 and (tokens[j].pos == "AUX" or tokens[j].lower in ("n't", "n’t", "not"))


def _takes_no_object(tokens: list[Token], i: int) -> bool:
    """Nothing the verb at i acts on follows it: a preposition, a particle, an adverb, a
    predicative adjective or the clause's end ("stutters on old phones", "runs smooth")."""
    j = i + 1
    if j >= len(tokens) or tokens[j].pos in ("ADP", "ADV", "PART", "PUNCT", "CONJ"):
        return True
    if tokens[j].lower in _MANNER_WORDS:
        return True
    if tokens[j].pos == "ADJ":
        after = tokens[j + 1] if j + 1 < len(tokens) else None
        return after is None or after.pos not in ("NOUN", "PROPN", "ADJ")
    return False


def _behaves(tokens: list[Token], i: int) -> bool:
    if tokens[i].pos != "VERB" and not _after_an_auxiliary(tokens, i):
        return False
    while (
        i + 2 < len(tokens)
        and tokens[i + 1].lower == "to"
        and (tokens[i + 2].pos == "VERB" or tokens[i].lemma in _CATENATIVE)
    ):
        i += 2  # "continues to show me old invoices": the verb after "to" says what is done
    if _forms(tokens[i]) & _PRODUCT_FUNCTIONS or not _takes_no_object(tokens, i):
        return False
    subject = _subject_index(tokens, i)
    if subject is None:
        return False
    token = tokens[subject]
    if token.pos == "PRON":
        return token.lower in _THING_PRONOUNS_SUBJECT
    return not _a_person(token)


_POSSESSIVES = _wordset("my your our their his her its")


# What a price is raised or cut by, and what time, money or room is spent, eaten or saved by:
# a verb of either with such an object tells what something costs, not a use of the product
# ("the vendor hiked its fees", "it costs me a weekend", "saves me a morning").
_CHANGING_AMOUNTS = _wordset("raise lower increase reduce cut hike double halve bring")

_PRICES = _wordset("price prices fee fees cost costs rate rates charge charges")

_SPENDING = _CONSUMING | _wordset("consume take cost save spend")

_SPENT = _PRICES | _wordset(
    """money room space evening evenings morning mornings afternoon afternoons night nights
    weekend weekends hour hours minute minutes second seconds week weeks month months"""
)


def _an_amount(verb: Token, after: list[Token]) -> bool:
    word = _object_head(after)
    if word is None:
        return False
    forms = _forms(verb)
    if forms & _CHANGING_AMOUNTS:
        return word.lower in _PRICES or word.lemma in _PRICES
    return bool(forms & _SPENDING) and (word.lower in _SPENT or word.lemma in _SPENT)


def _object_head(tokens: list[Token]) -> Token | None:
    """The last noun of the first run of nouns that is not a general word ("a lot of stress"
    → "stress", "error logs" → "logs")."""
    head = None
    for token in tokens:
        if token.pos == "NOUN" and token.lemma not in GENERIC_NOUNS:
            head = token
        elif head is not None:
            break
    return head


_DETERMINERS = _wordset("a an the this that these those every each some any no")


# Someone telling their own experience of the product: "I", "my". ("We" and "you" are as
# often a research team writing up its findings.)
_SPEAKERS = _wordset("i my me")


# The screen a failure leaves ("a black screen", "the blank screen").
_FAILED_SCREENS = _wordset("black blank white blue grey gray empty")


def _a_failed_screen(tokens: list[Token], first: int, last: int) -> bool:
    """ "only a black screen", "stuck on a blank screen": what a failure shows, no part."""
    return (
        tokens[last].lemma == "screen" and first > 0 and tokens[first - 1].lower in _FAILED_SCREENS
    )


def _adjective_heading(tokens: list[Token], i: int) -> bool:
    """A word tagged an adjective that heads its phrase is a noun: after a determiner or "and",
    and before a verb, a preposition or the clause's end ("the picture and sound drift apart")."""
    if tokens[i].pos != "ADJ" or not i:
        return False
    before = tokens[i - 1]
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    if not (before.pos in ("DET", "CONJ") or before.lower in _POSSESSIVES):
        return False
    return after is None or after.pos in ("AUX", "VERB", "ADP", "PUNCT", "CONJ")


_FEATURE_HEADS = _wordset("feature features function functions functionality capability")


def _no_noun_after(tokens: list[Token], i: int) -> bool:
    return i + 1 >= len(tokens) or tokens[i + 1].pos != "NOUN"


def _before_adverbs(tokens: list[Token], i: int) -> int:
    """The word before i past any adverbs ("it only shows" → "it")."""
    back = i - 1
    while back > 0 and tokens[back].pos == "ADV" and tokens[back].lower not in NEGATORS:
        back -= 1
    return back


def _part_name_as_verb(tokens: list[Token], i: int) -> bool:
    """A part's name that is a verb here: right before a possessive, which no noun is ("then
    post your review", "share my list"), or after a subject with an infinitive after it ("we
    plan to ship"). Its own rule keeps a verb after "to" or a modal, with what follows ("it
    shares to any folder")."""
    before = tokens[i - 1] if i else None
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    if before is not None and (
        before.pos in ("DET", "ADJ", "NUM") or before.lower in _DETERMINERS | _POSSESSIVES
    ):
        return False
    if before is not None and _verb_slot(before):
        # "they plan to ship …": a verb in its slot that an infinitive follows
        return (
            after is not None
            and after.lower == "to"
            and i + 2 < len(tokens)
            and tokens[i + 2].pos == "VERB"
        )
    return after is not None and after.lower in _POSSESSIVES


# English complex prepositions and subordinators (preposition, noun, preposition): their noun
# names nothing ("in order to", "on top of", "in case of").
_COMPLEX_PREPOSITIONS = frozenset(
    tuple(words.split())
    for words in (
        "in order to",
        "in order for",
        "in order that",
        "on top of",
        "in front of",
        "in case of",
        "in terms of",
        "by means of",
        "in spite of",
        "in place of",
        "on behalf of",
        "in view of",
        "in favor of",
        "in favour of",
    )
)


def _in_complex_preposition(tokens: list[Token], i: int) -> bool:
    if _in_set_phrase(tokens, i):
        return True
    if i == 0 or i + 1 >= len(tokens):
        return False
    return (tokens[i - 1].lower, tokens[i].lower, tokens[i + 1].lower) in _COMPLEX_PREPOSITIONS


# Set phrases whose noun names no part: "in order" and "out of order" tell a sequence or that
# something is broken, "long story short" opens a summary.
_SET_PHRASES = tuple(
    tuple(words.split()) for words in ("in order", "out of order", "long story short")
)


def _in_set_phrase(tokens: list[Token], i: int) -> bool:
    words = [t.lower for t in tokens]
    for phrase in _SET_PHRASES:
        for at in range(max(0, i - len(phrase) + 1), i + 1):
            if tuple(words[at : at + len(phrase)]) == phrase:
                return True
    return False


# Words after which a word is a verb, whatever a tagger says: a subject pronoun, a modal, the
# infinitive's "to" ("it syncs", "can search", "to post").
_BEFORE_A_VERB = _wordset("i you we they it he she can could will would to")


def _verb_slot(before: Token) -> bool:
    return before.lower in _BEFORE_A_VERB and before.pos in ("PRON", "AUX", "PART")


# A light verb, a noun and a preposition that together act as one verb ("keep track of" is
# "track", "make use of" is "use"): the general verb does not stand alone there.
_LIGHT_VERB_IDIOMS = tuple(
    tuple(idiom.split())
    for idiom in (
        "keep track of",
        "take care of",
        "make use of",
        "take advantage of",
        "keep eye on",
    )
)


def _light_verb_idiom(tokens: list[Token], last: int) -> int | None:
    """The index of the light verb of an idiom (see _LIGHT_VERB_IDIOMS) that ends at token
    last, determiners skipped ("keep an eye on"); None when none ends there."""
    words = [(i, t.lemma) for i, t in enumerate(tokens[: last + 1]) if t.pos != "DET"]
    for idiom in _LIGHT_VERB_IDIOMS:
        tail = words[-len(idiom) :]
        if len(tail) == len(idiom) and tuple(w for _, w in tail) == idiom:
            return tail[0][0]
    return None


def _with_its_verb(text: str, reading: Reading, first: int, span: Span, end: int) -> Span:
    """The part with the verb it is the object of, when a specific verb takes it ("rename old
    playlists", "pin a message to the top"): what is done with the part is the feature."""
    tokens = reading.tokens
    for back in range(first - 1, max(-1, first - 5), -1):
        token = tokens[back]
        if token.pos in ("PUNCT", "CONJ") or token.lower in _PHRASE_STOPS:
            return span
        idiom = _light_verb_idiom(tokens, back)
        if idiom is not None:
            start = tokens[idiom].start + reading.offset
            phrase = _object_phrase(text, (start, end), True)
            if phrase is not None and phrase[0] == start and phrase[1] >= span[1]:
                return phrase
            return span
        if token.pos != "VERB":
            continue
        if token.lemma in GENERIC_VERBS or _past_form(token) or not token.text.isalpha():
            return span
        if _behaves(tokens, back):
            return span  # "the banner lingers on the screen": where it behaves so, no use of it
        start = token.start + reading.offset
        phrase = _object_phrase(text, (start, end), True)
        if phrase is not None and phrase[0] == start and phrase[1] >= span[1]:
            return phrase
        return span
    return span


# Words that open an enumeration of what the product holds or is used for: "for invoices,
# quotes and receipts", "everything: trips, budgets, chores", "I mean flights, hotels, car hire".
_LIST_OPENERS = _wordset("for like including mean from : - —")

_MAX_ITEM_WORDS = 4


def list_item_spans(text: str, sentence: Span) -> list[Span]:
    """The items of an enumeration of three or more (see _LIST_OPENERS) in a sentence said with
    feeling or from experience: each is a thing the product holds or a use it is put to."""
    reading = read(text, sentence)
    tokens = reading.tokens
    evaluative = abs(polarity(text[sentence[0] : sentence[1]])) >= 0.05
    if not (evaluative or any(t.lower in _SPEAKERS for t in tokens)):
        return []
    chunks: list[list[int]] = [[]]
    for i, token in enumerate(tokens):
        if token.text == ",":
            chunks.append([])
        elif token.pos != "PUNCT" or token.text in (":", "--", "—", "-"):
            chunks[-1].append(i)
    found: list[Span] = []
    run: list[list[int]] = []
    for chunk in [*chunks, []]:
        words = [i for i in chunk if tokens[i].lower not in ("etc", "ect")]
        short = 0 < len(words) <= _MAX_ITEM_WORDS + 1
        if short and tokens[words[0]].pos in ("ADP", "PART"):
            short = False  # "from old letters, to bills and forms": a range, not a list
        if short and run:
            # the last item may join two: "receipts and travel plans"
            run += _split_at(tokens, words, ("and", "or", "&"))
            continue
        if len(run) >= 3:
            found += _items(reading, run)
        opener = max(
            (k for k, i in enumerate(chunk) if tokens[i].lower in _LIST_OPENERS), default=None
        )
        run = [chunk[opener + 1 :]] if opener is not None and chunk[opener + 1 :] else []
        if run and len(run[0]) > _MAX_ITEM_WORDS:
            run = []
    return found


def _split_at(tokens: list[Token], words: list[int], joints: tuple[str, ...]) -> list[list[int]]:
    parts: list[list[int]] = [[]]
    for i in words:
        if tokens[i].lower in joints:
            parts.append([])
        else:
            parts[-1].append(i)
    return [part for part in parts if part]


def _items(reading: Reading, run: list[list[int]]) -> list[Span]:
    """The items that are noun phrases or -ing phrases; none unless three are ("from old
    letters, to bills and forms" is a range, "for Acme, and this isn't it" a clause)."""
    tokens = reading.tokens
    spans = []
    for item in run:
        if len(item) > _MAX_ITEM_WORDS:
            continue
        if any(tokens[i].lower in _SUBJECT_PRONOUNS | {"you", "it"} for i in item):
            continue  # "you name it": a clause, not an item
        first, last = _content_bounds(tokens, item[0], item[-1])
        while first <= last and tokens[first].pos == "PRON":
            first += 1  # "my recipes"
        chosen = tokens[first : last + 1]
        if not chosen or chosen[-1].pos not in ("NOUN", "VERB") or chosen[0].pos == "PROPN":
            continue
        spans.append(reading.span(first, last))
    return spans if len(spans) >= 3 else []


# The words after "option", "feature" that say which one: "of", "for", "to".
_WHAT_FOR = _wordset("of for to")


# What a reviewer no longer has to do, or does instead of using the product ("without queueing
# at the bank", "easier than paper diaries", "got rid of my folders of receipts", "so I don't
# have to print anything"): the words after these name the chore the product spares, not one of
# its features.
_SPARED = re.compile(
    r"\b(?:without|instead\s+of|rather\s+than|(?<!other\s)than|no\s+more"
    r"|no\s+longer\s+(?:have|need)\s+to|get\s+rid\s+of"
    r"|got\s+rid\s+of|no\s+need\s+to|(?:don'?t|do\s+not|didn'?t|did\s+not|won'?t|never)"
    r"(?:\s+want\s+to)?\s+(?:have|need)\s+to)\b",
    re.IGNORECASE,
)

_SPARED_END = re.compile(
    r"[,;:.!?()]|\s(?:but|so|then|because)\b|\s(?:and|or)\s+(?:it|i|you|we|they|he|she)\b",
    re.IGNORECASE,
)


def spared_spans(text: str, sentence: Span) -> list[Span]:
    """The stretches of a sentence that name what the product spares its user (see _SPARED),
    each up to the next punctuation or connective."""
    found = []
    for cue in _SPARED.finditer(text, sentence[0], sentence[1]):
        end = _SPARED_END.search(text, cue.end(), sentence[1])
        found.append((cue.start(), end.start() if end else sentence[1]))
    return found


# Words typed without the space between them ("photosEverything"): a word of six lower-case
# letters or more running into a capital. Names in camel case have shorter parts ("WhatsApp").
_RUN_TOGETHER = re.compile(r"[a-z]{6,}[A-Z]")


def not_a_feature_name(label: str) -> str:
    """Why a label cannot name a feature ("" when it can): a negated verb names what does not
    happen ("doesnt lag"), and words run together are two sentences' pieces."""
    first = label.split()[0].lower() if label.split() else ""
    if first in NEGATORS or first.endswith(("n't", "n’t")):
        return "starts on a negation"
    if _RUN_TOGETHER.search(label):
        return "words run together"
    if label.split()[-1].lower() in _TIME_POSTPOSITIONS:
        return "a time, not a thing"  # "two years ago", "a week earlier"
    tokens = tagged(label)
    if any(
        t.lower in _FINITE_BE | _FINITE_HAVE
        and tokens[k - 1].pos in ("NOUN", "PROPN")
        # "see what items have bids": a question embedded as the object is one
        and not any(w.lower in _QUESTION_WORDS for w in tokens[:k])
        for k, t in enumerate(tokens)
        if k
    ):
        return "a clause"  # "NETFLIX has a wonderful selection": a thing and what it has
    return ""


# Words that end a phrase of time ("years ago", "a day later").
_TIME_POSTPOSITIONS = _wordset("ago earlier later")


_APP_NOUNS = _wordset("app apps application program software")

# Nouns that name the product as a whole, or a release of it.
_WHOLE_PRODUCT = _APP_NOUNS | _wordset("product version")


# Words after a singular noun that make it the first word of a compound ("user friendly").
_COMPOUND_ENDS = _wordset("friendly interface interfaces experience experiences")

_LAST_WORD = re.compile(r"\w+$")

_NEXT_WORD = re.compile(r"[ \t]+([\w'-]+)")


def modifies_the_next_noun(text: str, end: int, limit: int) -> bool:
    """A singular noun right before a noun (or "friendly") is that noun's modifier: "user
    interface", "family app", "kid movies" name the interface, the app, the movies. A plural
    one is not read so: "teachers use it" is often tagged as a noun before a noun."""
    word = _LAST_WORD.search(text, max(0, end - 40), end)
    if word is None or word.group().lower().endswith("s"):
        return False
    following = _NEXT_WORD.match(text, end, limit)
    if following is None:
        return False
    if following.group(1).lower() in _COMPOUND_ENDS:
        return True
    tokens = analyse(text[word.start() : following.end()])
    return len(tokens) == 2 and tokens[1].pos == "NOUN"


def names_no_feature(label: str) -> bool:
    """ "the features", "many options", "functionality of the tool": only a word for features
    in general (and the app), so nothing says which one."""
    tokens = analyse(label)
    # a past participle before a noun only qualifies it ("advanced options"); an -ing form or
    # a bare verb says which ("sharing options", "a call option", which taggers read as a verb)
    nouns = [
        t
        for i, t in enumerate(tokens)
        if t.pos in ("NOUN", "PROPN")
        or (
            t.pos == "VERB"
            and (
                t.lower.endswith("ing")
                or t.lemma == t.lower
                or not (i + 1 < len(tokens) and tokens[i + 1].pos == "NOUN")
            )
        )
    ]
    return bool(nouns) and all(
        t.lemma in _FEATURE_WORDS or t.lower in _FEATURE_WORDS or t.lemma in _APP_NOUNS
        for t in nouns
    )


# A feature is a noun phrase naming a part or function of a product, or a use of it. Words that
# only judge it, or say what went wrong with it, belong to the complaint (or praise) about it,
# not to its name: "slow checkout" names the checkout, "keeps losing my orders" names the
# orders, "syncing problems" names the syncing.

# Adjectives that only judge: praise and blame, no kind of thing ("quick settings" and "free
# trial" name kinds of settings and trials, so "quick", "fast" and "free" are not here).
_JUDGING = _wordset(listed("judging"))

# Words that grade the adjective after them ("very slow", "really nice").
_GRADING = _wordset("very really so too super quite pretty extremely incredibly totally")

# Verbs that say the product did harm, besides those of PROBLEM_LEMMAS: "forgets my settings",
# "kills the battery", "messes up my playlists", "wrecks the layout".
_HARMING = _wordset(
    "forget kill mess wreck screw ruin destroy corrupt scare frighten upset bore distract"
)

# Nouns that name a fault of what is named before them ("login issues", "sync errors").
_FAULT_NOUNS = _wordset("problem issue bug glitch error crash failure")

# Verbs a tagger may read as nouns that take a fault for object: "report bugs", "log errors" are
# functions.
_HANDLING_FAULTS = _wordset("report fix find solve resolve file submit log track flag catch handle")

# Nouns of a quality or an amount, followed by what has it ("ease of sharing", "the
# convenience of shopping", "a lot of value"): the feature, if any, is after "of".
_QUALITY_OF = _wordset(listed("quality_of"))

# Nouns of a quality or of worth that, standing alone, say how good a thing is, not which
# thing ("the quality is excellent", "good value").
_BARE_QUALITIES = _wordset("quality value ease convenience simplicity experience use usage money")

# Spans of time before "to" and a verb ("ages to load", "30 seconds to open"): how long
# a function takes is a complaint about that function.
_DURATIONS = _wordset("second minute hour day week age forever time while")

_LEADING_WORDS = _wordset("a an the my your our his her their its this that these those")


def without_judgement(label: str, parts: frozenset[str]) -> str:
    """The label without the words of a complaint or of praise about the feature it names, or
    "" when nothing that names a feature is left: "slow checkout" → "checkout", "keeps losing
    my orders" → "orders", "kills the battery" → "", "syncing problems" → "syncing", "ease of
    sharing albums" → "sharing albums", "ages to load" → "load", "quality" → ""."""
    tokens = analyse(label)
    if not tokens or any(is_cyrillic(t.text) for t in tokens):
        return label
    first, last = 0, len(tokens)
    # a failure verb at the head: what it harmed is the feature when it is a part of the product
    i = first
    while i < last and (tokens[i].pos == "ADV" or _forms(tokens[i]) & _ASPECT_VERBS):
        i += 1
    if (
        i + 1 < last  # a lone "buffering" is what is rated, as "loading" is
        # a tagger may read "wrecks" of "wrecks my evenings" as a noun
        and (tokens[i].pos == "VERB" or tokens[i + 1].pos in ("DET", "PRON"))
        and _forms(tokens[i]) & (PROBLEM_LEMMAS | _HARMING)
    ):
        j = i + 1
        while j < last and (tokens[j].pos in ("ADP", "PART", "DET", "PRON", "ADV")):
            j += 1  # "messes up my playlists", "losing all my notes"
        head = _object_end(tokens, j, last)
        if head is None or not _a_part_word(tokens[head - 1], parts):
            return ""
        first, last = j, head
    # a span of time before "to": the verb after it
    if last - first > 2 and _forms(tokens[first]) & _DURATIONS and tokens[first + 1].lower == "to":
        first += 2
    elif (
        last - first > 3
        and tokens[first].pos == "NUM"
        and _forms(tokens[first + 1]) & _DURATIONS
        and tokens[first + 2].lower == "to"
    ):
        first += 3
    # a quality or an amount of what follows "of"
    k = first
    while k < last and (tokens[k].lower in _LEADING_WORDS or tokens[k].pos == "ADJ"):
        k += 1  # "a wide variety of"
    if k + 2 < last and _forms(tokens[k]) & _QUALITY_OF and tokens[k + 1].lower == "of":
        first = k + 2
    # judging adjectives before the noun they judge
    k = first
    while k < last and tokens[k].lower in _LEADING_WORDS:
        k += 1
    m = k
    while m < last - 1 and (
        # a tagger may read "buggy" as a noun
        (tokens[m].pos != "VERB" and tokens[m].lower in _JUDGING)
        or (tokens[m].lower in _GRADING and tokens[m].pos in ("ADV", "ADJ"))
        or (m > k and tokens[m].lower in ("and", ",") and tokens[m + 1].lower in _JUDGING)
    ):
        m += 1
    if (
        m > k
        and tokens[m].pos not in FUNCTION_POS
        and any(t.pos in ("NOUN", "PROPN") or t.lower.endswith("ing") for t in tokens[m:last])
    ):
        first = m  # "terrible spell check": a tagger may read "spell" as a verb
    # a fault named after what has it
    if (
        last - first >= 2
        and _forms(tokens[last - 1]) & _FAULT_NOUNS
        and (tokens[last - 2].pos in ("NOUN", "PROPN") or tokens[last - 2].lower.endswith("ing"))
        and not _forms(tokens[last - 2]) & _HANDLING_FAULTS
    ):
        last -= 1  # "login issues", "syncing problems"; not "does not fix the problem"
    while first < last - 1 and tokens[first].lower in _LEADING_WORDS:
        first += 1  # "the lack of a search bar" names "search bar"
    if (first, last) == (0, len(tokens)):
        kept = label
    else:
        kept = label[tokens[first].start : tokens[last - 1].end].strip()
    words = [t for t in tokens[first:last] if t.lower not in _LEADING_WORDS]
    if len(words) == 1 and _forms(words[0]) & _BARE_QUALITIES:
        return ""
    return kept


def _object_end(tokens: list[Token], j: int, last: int) -> int | None:
    """The end of the noun phrase that starts at j (adjectives, then nouns), None if none."""
    k = j
    while k < last and tokens[k].pos in ("ADJ", "NUM"):
        k += 1
    end = k
    while end < last and tokens[end].pos in ("NOUN", "PROPN"):
        end += 1
    return end if end > k else None


def _a_part_word(token: Token, parts: frozenset[str]) -> bool:
    return bool(_forms(token) & parts) or token.lower in parts


# The infinitive's "to" just before a word: the word is a verb ("easy to naviagte").
_INFINITIVE = re.compile(r"\bto\s+$", re.IGNORECASE)


def _object_phrase(text: str, span: Span, english: bool, *, asked: bool = False) -> Span | None:
    """The verb phrase or noun phrase a cue introduces, up to the clause's end. What a
    request asks for (`asked`) may be a verb and its gerund ("disable smooth scrolling")."""
    reading = read(text, span)
    tokens = _nouns_after_determiners(reading.tokens) if english else reading.tokens
    if english and asked:
        tokens = _gerunds_after_adjectives(tokens)
    i = 0
    # skip what sits between the cue and the thing: "to", "it had", "that it", "the"
    while i < len(tokens) and (
        tokens[i].pos in ("PART", "PRON", "DET", "AUX", "ADV", "ADP", "NUM")
        or tokens[i].lemma in _LEAD_INS
        or (not english and (tokens[i].lemma in _LEAD_INS_RU or (i == 0 and tokens[i].text == ",")))
        or (
            tokens[i].lemma in _FEATURE_WORDS
            and i + 1 < len(tokens)
            and tokens[i + 1].lemma in ("to", "for", "that")
        )
    ):
        i += 1
    start = i
    verb = None
    nouns = 0
    # «хотелось бы, чтобы файлы сохранялись автоматически»: what is wished is a whole clause,
    # its subject and the one verb said of it
    wished = None if english else _wished_clause_verb(tokens, start)
    j = i
    while j < len(tokens) and j - start < _MAX_LABEL_WORDS:
        token = tokens[j]
        if token.pos in ("PUNCT", "CONJ") and token.text not in ("'", "’", "-"):
            break
        if wished is not None and (
            wished[0] <= j <= wished[1] or (j == wished[1] + 1 and token.pos == "ADV")
        ):
            j += 1
            continue
        if (
            not english
            and token.pos == "VERB"
            and tokens[j - 1].lemma in _FEATURE_WORDS_RU
            and "INFN" in grammemes(token.text)
        ):
            j += 1
            continue  # «возможность | закреплять вкладки»: the capability and what it does
        if token.pos in ("VERB",) and j > start and nouns and not _compound_head(tokens, j):
            break  # the next verb starts another statement
        if token.pos == "AUX" and token.lower in _FINITE_BE and nouns:
            break  # "removing the top bar | was a terrible move": the object's predicate
        if token.pos == "VERB" and verb is None and j == start:
            verb = token
        elif (
            english
            and j == start
            and token.pos == "NOUN"
            and j + 1 < len(tokens)
            and tokens[j + 1].pos in ("DET", "PRON")
            and _in_verb_slot(text, reading, j)
        ):
            # "able to use all the features": a verb, whatever the tagger says ("easy to use
            # UI" keeps its noun: there "use" is part of what describes the UI)
            verb = token
        if token.pos in ("NOUN", "PROPN"):
            nouns += 1
        if token.lower in _PHRASE_STOPS or (nouns and token.pos == "ADV"):
            break  # a new clause, or how/where/when it is done: not the capability's name
        if j > start and token.lower in _RELATIVES and _relative_here(tokens, j):
            break  # a new clause, or how/where/when it is done: not the capability's name
        if nouns and token.pos == "ADP" and token.lower not in _OBJECT_LINKS:
            break  # "watch movies | on Netflix": where or with what, past the object itself
        if j > start and token.pos == "ADP" and _time_follows(tokens, j):
            break  # "print them | at night": when, never what is used
        j += 1
    if j <= start:
        return None
    first, last = _content_bounds(tokens, start, j - 1)
    if first > last:
        return None
    chosen = tokens[first : last + 1]
    content = [t for t in chosen if t.pos in ("NOUN", "PROPN", "VERB", "ADJ")]
    if not content or not any(t.pos in ("NOUN", "PROPN") for t in chosen):
        return None
    # a verb tagged as a noun is no head of the object ("to use the features")
    heads = [t for t in chosen if t.pos in ("NOUN", "PROPN") and t is not verb] or [
        t for t in chosen if t.pos in ("NOUN", "PROPN")
    ]
    if chosen[0].pos == "PROPN" or chosen[0].lower in _COMPARATIVES:
        return None  # "love Evernote", "like it better": the product or a verdict, no capability
    if len(chosen) == 1 and (chosen[0].lemma in _FEATURE_WORDS | GENERIC_NOUNS | GENERIC_VERBS):
        return None
    if (
        english
        and len(chosen) == 1
        and not _INFINITIVE.search(
            text, max(0, chosen[0].start + reading.offset - 8), chosen[0].start + reading.offset
        )
        and not is_english_word(chosen[0].text)
    ):
        return None  # "I love zapply": a name written in lower case (or a typo), not a use of it
    if (
        english
        and all(t.lemma in GENERIC_NOUNS for t in heads)
        and (verb is None or verb.lemma in GENERIC_VERBS)
    ):
        return None
    if english and verb is not None and verb.lemma in GENERIC_VERBS and len(chosen) == 2:
        return None
    if (
        english
        and verb is not None
        and verb.lemma in GENERIC_VERBS
        and len(chosen) > 1
        and chosen[1].lower in ("it", "this", "them")
    ):
        return None  # "get it to work", "make it fit": a general verb said of the product itself
    if english and heads[-1].lemma in _WHOLE_PRODUCT:
        return None  # "buy the app", "improve the product": done to the whole, no feature of it
    if english and verb is not None and _takes_a_clause(tokens, verb, first, j):
        return None
    if (
        english
        and verb is not None
        and verb.lemma in GENERIC_VERBS
        and all(
            t.pos == "PROPN" or t.lemma in GENERIC_NOUNS | _FEATURE_WORDS | DEVICE_WORDS
            for t in heads
        )
    ):
        return None  # "use the Netflix app", "get on Facebook": the product, not a capability
    if english and verb is not None and _only_features_in_general(chosen, verb, heads):
        return None  # "performs its functions", "offers many options": which is not said
    if english and verb is not None and _an_amount(verb, tokens[tokens.index(verb) + 1 : j]):
        return None  # "saves me a morning", "hiked the fees": what it costs, no use
    return reading.span(first, last)


_TIMES_OF_DAY = _wordset(listed("times_of_day"))


_FEATURE_WORDS_RU = frozenset(("возможность", "функция", "опция", "способ", "функционал"))


def _wished_clause_verb(tokens: list[Token], start: int) -> tuple[int, int] | None:
    """After «чтобы» or «если бы», the verb said of the subject that opens the wish: «чтобы
    файлы | сохранялись», «чтобы вкладки | можно было закреплять» (first and last token)."""
    if not any(t.lemma in ("чтобы", "бы") for t in tokens[:start]):
        return None
    if start >= len(tokens) or tokens[start].pos != "NOUN":
        return None
    k = start + 1
    while k < len(tokens) and tokens[k].pos == "NOUN":
        k += 1  # «чтобы история команд | сохранялась»
    first = k
    while k < len(tokens) and tokens[k].lower in _MODAL_WORDS_RU:
        k += 1
    if k >= len(tokens) or tokens[k].pos != "VERB":
        return None
    if k == first and "INFN" in grammemes(tokens[k].text):
        return None  # a bare infinitive after the noun says no more of it
    return first, k


# «можно было», «могли бы»: the words that frame what the wished verb says
_MODAL_WORDS_RU = frozenset(("можно", "было", "бы", "мог", "могла", "могло", "могли"))


def _compound_head(tokens: list[Token], j: int) -> bool:
    """An -ing word right after a noun, with no object of its own, heads a compound with it:
    "video calling", "offline listening"; "photos loading slowly" has its own adverb."""
    after = tokens[j + 1] if j + 1 < len(tokens) else None
    return (
        tokens[j].lower.endswith("ing")
        and tokens[j - 1].pos == "NOUN"
        and (after is None or after.pos in ("PUNCT", "CONJ") or after.lower in _COMPOUND_AFTER)
    )


# Words after which a noun and an -ing word still end the phrase ("add video calling also").
_COMPOUND_AFTER = _wordset("also too please pls plz")

# A finite "be" after an object's noun starts what is said of it.
_FINITE_BE = _wordset("is are was were am")

_FINITE_HAVE = _wordset("has have had")


def _time_follows(tokens: list[Token], j: int) -> bool:
    """The preposition at j opens a phrase of time ("at night", "on Sunday mornings")."""
    k = j + 1
    while k < len(tokens) and (
        tokens[k].pos in ("DET", "ADJ", "NUM") or tokens[k].lower in _POSSESSIVES
    ):
        k += 1
    return k < len(tokens) and tokens[k].lower in _TIMES_OF_DAY


def _gerunds_after_adjectives(tokens: list[Token]) -> list[Token]:
    """An -ing word after an adjective is the noun it describes ("smooth scrolling")."""
    return [
        replace(t, pos="NOUN")
        if k and t.pos == "VERB" and t.lower.endswith("ing") and tokens[k - 1].pos == "ADJ"
        else t
        for k, t in enumerate(tokens)
    ]


def _nouns_after_determiners(tokens: list[Token]) -> list[Token]:
    """A word in the -s form after a determiner, a possessive or an adjective is a noun,
    whatever a tagger says ("follow my favourite podcasts", "some posts"): no verb follows them."""
    fixed = list(tokens)
    for k in range(1, len(fixed)):
        token, before = fixed[k], fixed[k - 1]
        if token.pos != "VERB" or not token.lower.endswith("s") or token.lower.endswith("ss"):
            continue
        if before.pos in ("DET", "ADJ") or before.lower in _POSSESSIVES:
            fixed[k] = replace(token, pos="NOUN")
    return fixed


# Where only a verb can come next: after the infinitive's "to" or a modal.
_BEFORE_A_BARE_VERB = re.compile(
    r"(?:\bto|\bcan|\bcould|\bwill|\bwould|\bshould|\bmust|\bmay|\bmight|n't|n’t|\bcannot"
    r"|\bcant|\bwont|\bdont|\bdoesnt|\bdidnt)\s+$",
    re.IGNORECASE,
)


def _in_verb_slot(text: str, reading: Reading, j: int) -> bool:
    at = reading.tokens[j].start + reading.offset
    return _BEFORE_A_BARE_VERB.search(text, max(0, at - 12), at) is not None


# Verbs of perceiving and knowing: what follows them may be a whole clause ("I see others are
# having it too"), whose subject is no object of theirs.
_REPORTING = _wordset(listed("reporting"))

_FINITE_AFTER_SUBJECT = _wordset(
    "is are was were has have had does do did can could will would should may might must"
)


def _takes_a_clause(tokens: list[Token], verb: Token, first: int, end: int) -> bool:
    """ "see others are having it", "saw the new app works": the noun after a verb of
    perceiving is the subject of a clause (a finite verb follows it), not a thing the verb
    uses."""
    if verb.lemma not in _REPORTING:
        return False
    at = tokens.index(verb)
    if at + 2 < len(tokens) and tokens[at + 1].lower == "that":
        # "complain that printing stalls", "note that two colleagues …": "that" opens the
        # clause told; only a noun right after it ("see that post") makes it a determiner
        after = tokens[at + 2]
        return after.pos not in ("NOUN", "ADJ") or after.lower.endswith("ing")
    nominal = [
        k for k in range(first, min(end, len(tokens))) if tokens[k].pos in ("NOUN", "PROPN", "PRON")
    ]
    if not nominal or nominal[-1] + 1 >= len(tokens):
        return False
    after = tokens[nominal[-1] + 1]
    if after.lower in _FINITE_AFTER_SUBJECT:
        return True
    # "works", "crashes": a verb in its -s form right after the noun
    return after.pos == "VERB" and after.lower.endswith("s") and not after.lower.endswith("ss")


def _only_features_in_general(chosen: list[Token], verb: Token, heads: list[Token]) -> bool:
    """A verb whose direct object is only a word for features in general ("performs its basic
    functions"). Not "edit in many ways" (how), "synchronizing capability" (the -ing form
    names it), "closes without any option" (what is missing)."""
    if verb.lower.endswith("ing") or any(t.pos == "ADP" for t in chosen):
        return False
    return all(t.lemma in _FEATURE_WORDS and t.lemma not in ("way", "ways") for t in heads)


def _relative_here(tokens: list[Token], j: int) -> bool:
    """ "sorting | that it has": a relative clause after a noun or an -ing form, not a
    determiner ("open that menu", "choose which song")."""
    before = tokens[j - 1]
    after = tokens[j + 1] if j + 1 < len(tokens) else None
    if after is not None and after.pos in ("NOUN", "ADJ"):
        return False
    return before.pos == "NOUN" or (before.pos == "VERB" and before.lower.endswith("ing"))
