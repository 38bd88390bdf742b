"""Offline sameness of two short mentions (EN + RU), for the resolution confirmation.

Precision first: a wrong merge corrupts evidence (one node holding nine unrelated bugs), a
missed merge costs a duplicate node that a person can merge. Two mentions are the same only
when all of these hold:
- their codes agree: numbers, versions and model numbers ("cs3" is not "cs2", "dsc-w170" is
  not "dsc-w120"); a version said on one side only is a doubt, so not the same (a catalogue
  number on one side only is not: shops append their own);
- their informative words agree: every informative lemma of the shorter one is in the longer
  one and they share at least two; or they share a model number and half of the shorter one's
  informative lemmas.
Names of offerings (product, competitor, alternative, feature) are held to more, because shops
list one product in many variants:
- edition words agree ("photoshop" is not "photoshop extended", "office 2007" is not "office
  2007 academic"), and so do the words of "the X edition", of "with X" (a bundle), the
  language, the platform ("for mac" / "for windows"), the purpose ("case for X" / "case for
  Y") and the colour; a model number with two letter endings is two variants;
- licence terms (a licence, a subscription, a number of users) said on one side only, or a
  version on one side only, are a doubt;
- no word is inserted into the shared name ("route planner" is not "route cost planner");
  words before the shared name are the maker, words after it the packaging;
- packaging (a jewel case, a retail box, a cd-rom) and system requirements ("windows 7 or
  later", "macos 12 or higher") are no evidence either way;
- the same model number written the same way on both sides, with a shared word, is the same
  offering unless colour or platform disagree.
Informative means a content lemma that is not generic: negations, light verbs ("work",
"работать"), and words that any complaint or product name uses ("problem", "error", "app",
"version") are no evidence that two mentions name one thing: «не работает X» and «не работает
Y» are two bugs.
Synonyms: the few general themes of product feedback in CONCEPTS count as one word each.
Russian paraphrases: when the word rules say no, two Cyrillic mentions of a problem, job or
group are still the same when each informative content lemma of the shorter one has a lemma of
like meaning in the other (a word-vector cosine of at least PARAPHRASE_AT, see
kg.language.vectors), both have at least PARAPHRASE_WORDS of them and their codes are the same.
Names of offerings and numeric facts never merge this way, and generic words take no part, so
«не работает X» and «не работает Y» stay two bugs. English has no vectors here.
Features of one product, as its reviewers name them (English): the same informative words once
the nouns that only say "a feature" ("calling function", "shuffle mode") are gone, -ing forms
are read as their verb ("bidding"), and a name on one side only (the product's own: "WhatsApp
call") is left out; or an action named alone and the same action with its object ("share" /
"share a friend's post"), when the longer one is a verb phrase by its form or by how its quote
uses the word ("I can share pictures"), never a compound ("search history", "call quality").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from textblob.en import lexicon

from kg.language import is_cyrillic, is_english_word, lemma, vectors
from kg.language.lemmas import GENERIC, is_stopword, words
from kg.language.tokens import analyse
from kg.pipeline.resolve import NUMERIC_TYPES, OFFERING_TYPES, codes_of, unmatched_codes

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
    "CRASH": ("crash", "вылет", "пада", "сбой", "сбоя", "сбои", "сбоев"),
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


# Edition words: for names of offerings, "pro" and "standard" are two products, and so are a
# game and its expansion, one licence and a bundle of them, or a single-user and a multi-user
# licence.
EDITION = _wordset(
    """upgrade upsell crossgrade trial academic student teacher education oem full lite light
    basic standard plus pro professional premium deluxe ultimate extended enterprise business
    home personal family express starter platinum gold server expansion addon add-on bundle
    multi renewal"""
)
_EDITION_SPELLINGS = {"pro": "professional", "light": "lite", "upg": "upgrade"}
# The word before these names an edition of its own ("the anniversary edition").
_EDITION_MARKERS = frozenset({"edition", "ed"})
# A language named in an offering is an edition of it ("the german edition"). English is left
# out: catalogues append it to everything.
LANGUAGES = _wordset(
    """spanish french german italian portuguese russian chinese japanese korean dutch polish
    swedish danish norwegian finnish greek turkish arabic hebrew"""
)
# Platforms, in one spelling each: "for mac" and "for windows" are two products, while a
# platform named on one side only is packaging.
PLATFORMS = {
    "mac": "mac",
    "macintosh": "mac",
    "macos": "mac",
    "macosx": "mac",
    "osx": "mac",
    "win": "windows",
    "windows": "windows",
    "linux": "linux",
    "unix": "unix",
    "solaris": "solaris",
    "android": "android",
    "ios": "ios",
}
# Colours of a device: a black and a white one are two offerings.
COLOURS = _wordset(
    """black white silver gray grey blue red green pink purple orange yellow brown beige ivory
    navy teal violet bronze titanium graphite charcoal gold"""
)
_COLOUR_SPELLINGS = {"grey": "gray"}
# Licence terms: a licence or subscription listed as such is not the boxed product.
LICENCE = _wordset("license licence licenses licences licensing subscription volume oem")
_SEATS = re.compile(
    r"\b\d+[\s-]*(?:users?|seats?|pcs?|computers?|devices?|clients?|servers?|nodes?)\b"
)
# Packaging and system requirements say how an offering ships, not which it is.
_PACKAGING = re.compile(
    r"\bjewel\s+case\b|\bretail\s+box\b|\b(?:cd|dvd)-?rom\b|\(\s*(?:cd|dvd)\s*\)"
)
_MEDIUM_AFTER = re.compile(r"\b(on|mac|pc|win)\s+(?:cd|dvd)\b")
_REQUIREMENT = re.compile(
    r"\b(win(?:dows)?|mac(?:\s*os)?(?:\s*x)?|os\s*x)\s+\d[\w.-]*"
    r"(?:[\s/,+-]+(?:\d[\w.-]*|me|xp|vista|nt|or|and|higher|later|above)\b)*"
)
MIN_SHARED = 2  # fewer shared informative words is never enough
# Russian paraphrases (chosen on the dev split, see the README): the lowest cosine each word of
# the shorter mention must reach, and the fewest informative lemmas on each side.
PARAPHRASE_AT = 0.6
PARAPHRASE_WORDS = 2


@dataclass(frozen=True)
class Signature:
    words: frozenset[str]  # informative lemmas (concept names for theme words)
    editions: frozenset[str]
    codes: frozenset[str]
    sequence: tuple[str, ...] = ()  # the informative lemmas in the order written
    platforms: frozenset[str] = frozenset()
    colours: frozenset[str] = frozenset()
    purposes: frozenset[str] = frozenset()  # the first word after "for"
    licence: bool = False


def signature(text: str, offering: bool = False) -> Signature:
    """Informative lemmas and codes; for an offering also its editions, platforms, colours,
    purposes and licence terms."""
    found: set[str] = set()
    sequence: list[str] = []
    editions: set[str] = set()
    platforms: set[str] = set()
    colours: set[str] = set()
    purposes: set[str] = set()
    bundled = after_for = False
    text = text.lower()
    for word in words(text):
        if any(ch.isdigit() for ch in word):
            continue  # a code, compared apart
        for part in re.split(r"[-/]", word):
            platform = None
            if offering:
                part = part.strip("'’")
                if part in ("for", "with"):
                    after_for, bundled = after_for or part == "for", bundled or part == "with"
                    continue
                if part in _EDITION_MARKERS and sequence:
                    editions.add(sequence[-1])
                platform = PLATFORMS.get(part)
            # Short Latin tokens are abbreviations ("ca", "cs", "pc"): the lemmatiser would
            # read them as inflected words ("ca" → "can").
            base = part if len(part) <= 3 and not is_cyrillic(part) else lemma(part)
            base = platform or base  # "windows" is the platform, not the plural of "window"
            if len(base) < 2 or is_stopword(base) or base in GENERIC:
                continue
            if offering and (part in EDITION or part in _EDITION_SPELLINGS):
                # as written: the lemmatiser reads "extended" as "extend"
                base = _EDITION_SPELLINGS.get(part, part)
                editions.add(base)
            elif part in EDITION:
                editions.add(_EDITION_SPELLINGS.get(part, part))
            base = _concept_of(base) or base
            if offering:
                if platform:
                    platforms.add(platform)
                if after_for:
                    purposes.add(base)
                    after_for = False
                if part in COLOURS:
                    colours.add(_COLOUR_SPELLINGS.get(part, part))
                if part in LANGUAGES or (bundled and not platform and part not in COLOURS):
                    editions.add(base)
            found.add(base)
            sequence.append(base)
    licence = offering and bool(set(words(text)) & LICENCE or _SEATS.search(text))
    return Signature(
        frozenset(found),
        frozenset(editions),
        codes_of(text),
        tuple(sequence),
        frozenset(platforms),
        frozenset(colours),
        frozenset(purposes),
        licence,
    )


def _strong(code: str, offering: bool = False) -> bool:
    """A model or catalogue number, not a short version such as "2", "7.5" or "cs3".
    Offerings: a number of five digits is a shop's catalogue number (versions and years have
    at most four); elsewhere it may be an error code, so it needs six."""
    if code.isdigit():
        return len(code) >= (5 if offering else 6)
    return len(code) >= 5 and not code.replace(".", "").isdigit()


def _offering_text(text: str) -> str:
    """The label without packaging, and system requirements reduced to their platform."""
    text = _PACKAGING.sub(" ", text.lower())
    text = _MEDIUM_AFTER.sub(r"\1", text)
    return _REQUIREMENT.sub(r" \1 ", text)


def _platforms_apart(sig: Signature, other: Signature) -> Signature:
    """A platform named on one side only is packaging: it is no word to match."""
    kept = frozenset(w for w in sig.words if w not in sig.platforms or w in other.platforms)
    return Signature(
        kept,
        sig.editions,
        sig.codes,
        sig.sequence,
        sig.platforms,
        sig.colours,
        sig.purposes,
        sig.licence,
    )


def _disagree(left: frozenset[str], right: frozenset[str]) -> bool:
    return bool(left and right and not left & right)


_LETTER_ENDING = re.compile(r"^(.*\d)([a-z]+)$")


def _variants(left: frozenset[str], right: frozenset[str]) -> bool:
    """One model number with two different letter endings ("...520rd" / "...520bk"): the
    ending is a colour or a variant."""
    endings: dict[str, set[str]] = {}
    for code in left:
        if match := _LETTER_ENDING.match(code):
            endings.setdefault(match.group(1), set()).add(match.group(2))
    for code in right:
        match = _LETTER_ENDING.match(code)
        if not match or match.group(1) not in endings:
            continue
        theirs = match.group(2)
        if not any(e.startswith(theirs) or theirs.startswith(e) for e in endings[match.group(1)]):
            return True
    return False


def _initials_of(run: list[str], other: Signature) -> bool:
    """Whether words spelled out on one side are initials on the other ("video studio" and
    "vs9")."""
    if len(run) < 2:
        return False
    initials = re.compile(re.escape("".join(w[0] for w in run)) + r"\d*")
    return any(initials.fullmatch(t) for t in (*other.words, *other.codes))


def _shared_span(sequence: tuple[str, ...], shared: set[str]) -> tuple[int, int]:
    """The shortest stretch of `sequence` holding every shared word (a maker named twice,
    before and inside the name, does not widen it)."""
    best = (0, len(sequence))
    for start, word in enumerate(sequence):
        if word not in shared:
            continue
        seen: set[str] = set()
        for end in range(start, len(sequence)):
            if sequence[end] in shared:
                seen.add(sequence[end])
            if seen == shared:
                if end - start < best[1] - best[0]:
                    best = (start, end)
                break
    return best


def _inserted_words(one: Signature, other: Signature) -> bool:
    """Words of one name that are not in the other and stand between words both share: an
    inserted word makes another name ("route planner" / "route cost planner"), while words
    before or after the shared ones are the maker and the packaging."""
    shared = {w for w in one.sequence if w in other.words}
    if len(shared) < 2:
        return False
    start, end = _shared_span(one.sequence, shared)
    run: list[str] = []
    for word in one.sequence[start : end + 1]:
        if word in other.words:
            if run and not _initials_of(run, other):
                return True
            run = []
        elif word not in one.platforms:
            run.append(word)
    return False


def _offerings_differ(left: Signature, right: Signature) -> bool:
    """Editions (with languages, "the X edition" and "with X") or purposes disagree."""
    if not left.editions <= right.words | right.editions:
        return True
    if not right.editions <= left.words | left.editions:
        return True
    return _disagree(left.purposes, right.purposes)


def same_thing(
    a: str,
    b: str,
    node_type: str = "",
    said: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
) -> tuple[bool, float]:
    """(same, share of the shorter mention's informative words found in the other). `said`
    holds the quotes each was said in, where known: how a word is used there tells a verb
    from a noun."""
    offering = node_type in OFFERING_TYPES
    written = (a, b)  # as written: a capital marks a name
    if offering:
        a, b = _offering_text(a), _offering_text(b)
    left, right = signature(a, offering), signature(b, offering)
    if offering:
        left, right = _platforms_apart(left, right), _platforms_apart(right, left)
    only_left, only_right = unmatched_codes(left.codes, right.codes)
    shorter = min(len(left.words), len(right.words))
    shared = left.words & right.words
    overlap = len(shared) / shorter if shorter else 0.0
    if only_left and only_right:
        return False, overlap
    # Codes on one side only: a version is a doubt ("office" / "office 2007"), a catalogue
    # number is not (shops append their own).
    lone = left.codes or right.codes if not (left.codes and right.codes) else frozenset()
    if any(not _strong(c, offering) for c in lone):
        return False, overlap
    if node_type == "feature" and _same_feature(*written, said):
        return True, overlap
    if offering:
        if (
            _variants(left.codes, right.codes)
            or _disagree(left.colours, right.colours)
            or _disagree(left.platforms, right.platforms)
        ):
            return False, overlap
        # One model number, written alike: the rest of the titles may describe it differently.
        if shared and any(_strong(c, offering) for c in left.codes & right.codes):
            return True, overlap
        if _offerings_differ(left, right):
            return False, overlap
    model_shared = any(_strong(c, offering) for c in (left.codes - only_left))
    if model_shared and shorter and overlap >= 0.5:
        return True, overlap
    if offering and (
        left.licence != right.licence
        or any(not _strong(c, offering) for c in only_left | only_right)
        or _inserted_words(left, right)
        or _inserted_words(right, left)
    ):
        return False, overlap
    if len(shared) >= MIN_SHARED and overlap == 1.0:
        return True, overlap
    return _paraphrase(a, b, left, right, node_type), overlap


def _paraphrase(a: str, b: str, left: Signature, right: Signature, node_type: str) -> bool:
    """Two Russian mentions of one thing in other words (see the module's docstring)."""
    if node_type in OFFERING_TYPES or node_type in NUMERIC_TYPES:
        return False
    if not (is_cyrillic(a) and is_cyrillic(b)) or left.codes != right.codes:
        return False
    counted = (vectors.content_words(left.words), vectors.content_words(right.words))
    if min(len(words_) for words_ in counted) < PARAPHRASE_WORDS:
        return False
    score = vectors.similarity(*counted)
    return score is not None and score >= PARAPHRASE_AT


# Nouns that only say that something is a feature: "the calling function", "an option to
# share", "shuffle mode", "the follow button" name the calling, the sharing, the shuffle, the
# following.
FEATURE_NOUNS = _wordset(
    """function functionality functions option options feature features service system
    facility capability ability mode button"""
)
_ING = re.compile(r"^(\w{3,}?)(\w)?ing$")


def _action(word: str) -> str:
    """The verb of an -ing form the lemmatiser keeps whole ("bidding", "following"): the
    stem, with a doubled last letter undone, or with its silent e back, when the dictionary
    knows it. Other words stay as they are."""
    match = _ING.match(word)
    if match is None or not word.isascii():
        return word
    stem, doubled = match.group(1), match.group(2) or ""
    candidates = [stem + doubled, stem + doubled + "e"]
    if doubled and stem.endswith(doubled):
        candidates.insert(0, stem)
    return next((c for c in candidates if is_english_word(c)), word)


def _feature_words(text: str) -> list[tuple[str, bool]]:
    """The informative lemmas of a feature's name, each with whether it is a name (a word
    the dictionary does not know, or capitalised after the first word: "WhatsApp", "Twitter")."""
    found: list[tuple[str, bool]] = []
    for index, word in enumerate(words(text)):
        if any(ch.isdigit() for ch in word) or is_cyrillic(word):
            continue
        base = _action(lemma(word))
        if len(base) < 2 or is_stopword(base) or base in GENERIC or base in FEATURE_NOUNS:
            continue
        name = not is_english_word(word) or (index > 0 and word[:1].isupper())
        found.append((base, name))
    return found


def _same_feature(a: str, b: str, said: tuple[tuple[str, ...], tuple[str, ...]]) -> bool:
    """Two English names of one feature of the product: the same informative words once the
    words that only say "a feature" are gone, -ing forms are read as their verb, and a name on
    one side only (the product's: "WhatsApp call" / "calling function") is left out. An action
    named alone is the action told with its object ("bid" / "bid on items", "share" / "share a
    friend's post"): when one name is a verb phrase, the other's words all in it and its verb
    among them are enough."""
    left, right = _feature_words(a), _feature_words(b)
    one_side = {w for w, name in left if name} ^ {w for w, name in right if name}
    kept_left = [w for w, _ in left if w not in one_side]
    kept_right = [w for w, _ in right if w not in one_side]
    if not kept_left or not kept_right:
        return False
    if set(kept_left) == set(kept_right):
        return True
    (shorter, _, _), (longer, text, quotes) = sorted(
        ((kept_left, a, said[0]), (kept_right, b, said[1])), key=lambda side: len(set(side[0]))
    )
    return set(shorter) <= set(longer) and longer[0] in shorter and _verb_phrase(text, quotes)


# Words that follow a verb and open its object or complement, never a noun's modifier.
_AFTER_A_VERB = _wordset(
    """a an the my your his her our their its this that these those all any some every more
    to on for with in at of into from about up out off me him them us it"""
)


def _verb_phrase(text: str, quotes: tuple[str, ...] = ()) -> bool:
    """The name starts with a verb: the next word opens an object ("share a post", "bid on
    items"); or the dictionary reads the first word as a verb ("follow", "watch") and what
    follows is no single noun it could modify ("call quality" is the quality of calls, "watch
    videos" an action); or a quote it was said in uses that word as a verb ("I share pictures
    with my family", not "my search history is gone")."""
    found = words(text.lower())
    if len(found) < 2:
        return False
    if found[1] in _AFTER_A_VERB:
        return True
    verb = (lexicon.get(found[0]) or "").startswith("VB")
    if verb and (len(found) > 2 or lemma(found[1]) != found[1]):
        return True
    return any(_said_as_verb(text, quote) for quote in quotes)


# What stands before a verb and never before a noun: a modal or an auxiliary ("can share"),
# the infinitive's "to", a subject pronoun ("I share"); adverbs and "not" may come between.
_BEFORE_A_VERB = _wordset("to i you we they")
_BETWEEN = _wordset("not n't n’t never also just still only always easily even really")


def _said_as_verb(text: str, quote: str) -> bool:
    """The name's first word is used as a verb in the quote ("I can share pictures")."""
    at = quote.casefold().find(text.casefold())
    if at < 0 or quote.casefold() == text.casefold():
        return False  # a label said on its own tells nothing of its words' use
    tokens = analyse(quote)
    index = next((i for i, t in enumerate(tokens) if t.start >= at), None)
    if index is None or tokens[index].start != at:
        return False
    if tokens[index].pos == "VERB":
        return True
    back = index - 1
    while back >= 0 and (tokens[back].lower in _BETWEEN or tokens[back].pos == "ADV"):
        back -= 1
    return back >= 0 and (tokens[back].pos == "AUX" or tokens[back].lower in _BEFORE_A_VERB)
