"""Label checks: whether a candidate label reads as a finding at all.

Rules here make no label; they reject one. A label that is a fragment (starts or ends on a
function word), a date, a count or a path is no feature or metric (`fragment_reason`,
`metric_label_problem`); a sentence that only points back at a problem told before
(`points_back_at_a_problem`), only names an area ("problem with the sync",
`names_only_an_area`), only judges what came before (`judges_what_came_before`) or tells of
the tracker's housekeeping, a dead link or an error page gives no pain of its own.
Example: "The sync fails every night. Same problem here." gives one pain, "sync fails every
night": the second sentence points back at it.
"""

from __future__ import annotations

import re

from kg.language import Token, analyse, content_lemmas, grammemes, is_english_word
from kg.llm.offline.complaints import (
    _DEMANDING,
    _FALLING,
    _GIVING_UP,
    _GONE_CUES,
    _HOW_FAR,
    _MISBEHAVING,
    _MOVING,
    _OUT_OF,
    _PRAISING_COMPARATIVES,
    _REMOVING,
    _RESOURCES,
    _SCREEN_COLOURS,
    _SET_PHRASE_ENDS,
    _UNPROMPTED,
    _right_after_negator,
    _verb_like,
)
from kg.llm.offline.reading import _wordset, listed
from kg.llm.offline.rule_words import (
    _PATH,
    _PATH_START,
    _SITE_NAME,
    _TABLE,
    _URL,
    ABSENCE,
    CEASE,
    FUNCTION_POS,
    NEGATORS,
    PROBLEM_LEMMAS,
    QUALITY_LEMMAS,
)

# Russian predicatives of perceiving: negated, what should show or sound does not.
_PERCEIVED = _wordset(
    "видно слышно заметно видны виден видна слышны слышен слышна заметны заметен заметна"
)

_NOTHING = _wordset("nothing ничего")

# "log in", "sign up": the operation is the verb with its particle.
_PHRASAL_OPERATIONS = _wordset("log sign")


_QUESTION_WORDS = frozenset(("how", "what", "which", "that", "why", "when", "where"))

GENERIC_PROBLEMS = _wordset(listed("generic_problems"))


# A sentence ends inside the label: a word, its full stop, the next sentence's capital
# ("you go here./After a month, …"). Two lowercase letters before the stop pass over most
# abbreviations ("Mr. Smith", "e.g. The").
_SENTENCE_INSIDE = re.compile(r"[a-zа-яё]{2,}[.!?]+[/\s]+(?=[A-ZА-ЯЁ])")

_BRACKETS = (("(", ")"), ("[", "]"))


def _cut_across(label: str) -> str:
    """Why a label was cut out of its text at the wrong places ("" when it was not)."""
    if any(label.count(a) != label.count(b) for a, b in _BRACKETS):
        return "a bracket left open or closed without opening"
    if _SENTENCE_INSIDE.search(label):
        return "runs across a sentence end"
    return ""


# Units a quantity is counted in: a label with nothing but numbers and units says how much,
# not of what ("333 days", «2 часа»).
_UNITS = _wordset(listed("units"))


# "filed 2 years ago", «3 дня назад»: when, not how much.
_TIME_AGO = re.compile(
    r"\d+\s*(?:\w+\s+)?(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|секунд\w*"
    r"|минут\w*|час\w*|дн(?:я|ей)|день|недел\w*|месяц\w*|год\w*|лет)\s+(?:ago|назад)(?![\w-])"
    # an age: "a 12 year old bug", «баг 10-летней давности»
    r"|\d+[\s-]+(?:years?|months?|weeks?|days?)[\s-]+old\b|\d+-?летн\w*\s+давност\w*",
    re.IGNORECASE,
)


_MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
    r"|январ|феврал|март|апрел|ма[йя]|июн|июл|август|сентябр|октябр|ноябр|декабр)\w*"
)

# "on 4 May 2021", "March 3, 2021", «3 марта 2021 года», «в 2019 году»: when, not how much
_CALENDAR_DATE = re.compile(
    rf"(?<![\w.,])(?:\d{{1,2}}\s+{_MONTHS}(?:\s+(?:19|20)\d\d)?|{_MONTHS}\s+\d{{1,2}}"
    rf"(?:st|nd|rd|th)?(?:,?\s+(?:19|20)\d\d)?|(?:in|since|в|с)\s+(?:19|20)\d\d"
    r"|(?:19|20)\d\d\s+(?:год|г\.)\w*)(?![\w-])",
    re.IGNORECASE,
)


def metric_label_problem(label: str) -> str:
    """Why a metric's label does not say what is measured ("" when it does)."""
    cut = _cut_across(label)
    if cut:
        return cut
    if _STAR_RATING.search(label):
        return "the writer's rating of the app, not a quantity measured"
    if _PATH_START.search(label):
        return "a file path or code name"
    if _TIME_AGO.search(label):
        return "a date told as time ago or an age, not a quantity measured"
    if _CALENDAR_DATE.search(label) and not re.search(r"\d", _CALENDAR_DATE.sub(" ", label)):
        return "a date, not a quantity measured"
    tokens = [t for t in analyse(label) if t.pos != "PUNCT"]
    numbers = [t for t in tokens if t.pos == "NUM" or any(c.isdigit() for c in t.text)]
    rest = [t for t in tokens if t not in numbers and t.pos not in FUNCTION_POS]
    units = all(t.lemma in _UNITS or t.lower in _UNITS or not t.text.isalnum() for t in rest)
    if numbers and units:
        return "a quantity only, not what it counts"
    return ""


# A phrase that points at words outside it: what follows, or a demonstrative standing for a
# thing named elsewhere ("fix this", "fixing these should wait").
_POINTS_ONWARD = re.compile(r"(?:\bthe following|\bas follows|следующ\w*)\W*$", re.IGNORECASE)

_DEMONSTRATIVES = _wordset("this these those")

_NAMING_POS = frozenset({"NOUN", "PROPN", "ADJ", "NUM"})


_SHARES = _wordset("многий некоторый несколько часть половина большинство many some several")


def counts_a_share(label: str) -> bool:
    """The label opens on a share of things ("some of the icons", «многих иконок»)."""
    tokens = analyse(label)
    return bool(tokens) and (tokens[0].lemma in _SHARES or tokens[0].lower in _SHARES)


def points_elsewhere(label: str) -> bool:
    """The label's subject or object is only a pointer to words outside it."""
    if _POINTS_ONWARD.search(label):
        return True
    tokens = [t for t in analyse(label) if t.pos != "PUNCT"]
    return any(
        t.lower in _DEMONSTRATIVES
        and (i + 1 == len(tokens) or tokens[i + 1].pos not in _NAMING_POS)
        for i, t in enumerate(tokens)
    )


_AS_THAN = _wordset("than as like")

_OBJECT_PRONOUNS = _wordset("me us you him her them it")

# The adverbial particles of English phrasal verbs ("log in", "shut down", "sign up").
_PARTICLES = _wordset("in on out up down off over back away")


def _phrasal_verb_end(tokens: list[Token]) -> bool:
    """The last word is the particle of a phrasal verb ("logging in"), not a preposition left
    without its noun: the word before it is a verb, or one of the app operations that are
    phrasal (taggers read "logs" as a noun)."""
    if len(tokens) < 2 or tokens[-1].lower not in _PARTICLES:
        return False
    if len(tokens) >= 3 and tokens[-2].lower in _OBJECT_PRONOUNS:
        tokens = tokens[:-2] + tokens[-1:]  # "logs me out": the verb before its object
    if len(tokens) >= 3 and tokens[-3].lower == "to":
        return True  # "to show up": an infinitive
    verb = tokens[-2]
    # "the sound cuts out": an -s form after its subject, which a tagger read as a noun;
    # "GPS is way off": how far off
    return (
        verb.lower in _HOW_FAR
        or verb.pos == "VERB"
        or verb.lemma in _PHRASAL_OPERATIONS
        or _verb_like(tokens, -2 % len(tokens))
    )


_ABSENT_TROUBLES = _wordset("вопрос жалоба замечание претензия нарекание")


def fragment_reason(label: str) -> str:
    """Why a label is not a whole phrase ("" when it is one)."""
    stripped = label.strip()
    if not stripped:
        return "empty"
    cut = _cut_across(stripped)
    if cut:
        return cut
    if _POINTS_ONWARD.search(stripped):
        return "points to what follows"
    if _URL.search(stripped):
        return "a web address"
    site = _SITE_NAME.search(stripped)
    if site is not None and len(_SITE_NAME.sub(" ", stripped).split()) < 3:
        return "a web address"
    if _TABLE.search(stripped):
        return "a table row"
    if (" " not in stripped and _PATH.search(stripped)) or _PATH_START.search(stripped):
        return "a file path or code name"
    tokens = [t for t in analyse(stripped) if t.pos != "PUNCT"]
    if not tokens:
        return "no words"
    if not any(t.pos in ("NOUN", "PROPN", "VERB", "ADJ", "NUM", "X") for t in tokens):
        return "no content word"
    if _PRONOUN_CONTRACTION.fullmatch(stripped):
        return "a pronoun"  # "you'd" of "I wish you'd give some love to lists"
    if LONE_LETTER_END.search(stripped):
        return f"ends on a lone letter '{stripped[-1]}'"  # "play feature f**ks" cut short
    if stripped.endswith(("/", "\\")):
        return "ends on a path separator"  # "files of type audio/" cut inside a name
    if all(t.lower in GENERIC_PROBLEMS or t.pos in FUNCTION_POS for t in tokens):
        return "only says there is a problem, not which"
    object_nothing = (
        tokens[-1].lower in _NOTHING and len(tokens) > 1 and tokens[-2].pos in ("VERB", "AUX")
    )  # "the button does nothing"
    # "fix this": a demonstrative right after its verb is the verb's object, a pronoun
    pointed = tokens[-1].lower in _DEMONSTRATIVES and len(tokens) > 1 and tokens[-2].pos == "VERB"
    # "longer than before": "before" stands for a time, an adverb; "at all" is one too
    compared = tokens[-1].lower == "before" and len(tokens) > 1 and tokens[-2].lower in _AS_THAN
    compared = compared or [t.lower for t in tokens[-2:]] == ["at", "all"]
    # «звука нет»: Russian says what is missing before its «нет», the noun in the genitive
    # («ошибок нет» says a trouble is absent)
    absent = (
        tokens[-1].lower == "нет"
        and len(tokens) > 1
        and tokens[-2].pos == "NOUN"
        and "gent" in grammemes(tokens[-2].text)
        and tokens[-2].lemma not in PROBLEM_LEMMAS | _ABSENT_TROUBLES
    )
    # «кнопок не видно»: the predicative the tagger can read as "apparently"
    unseen = tokens[-1].lower in _PERCEIVED and _right_after_negator(tokens, len(tokens) - 1)
    if (
        (tokens[-1].pos in ("DET", "ADP", "CONJ") or tokens[-1].lower in _TEXTED_CONJUNCTIONS)
        and not _phrasal_verb_end(tokens)
        and not pointed
        and not compared
        and not unseen
    ) or (tokens[-1].lower in NEGATORS and not object_nothing and not absent):
        return f"ends on '{tokens[-1].text}'"
    if (
        tokens[0].lemma == "be"
        and tokens[0].text.isascii()
        and len(tokens) > 1
        and tokens[1].lower not in NEGATORS
    ):
        return f"starts on '{tokens[0].text}'"  # "were confused": whose statement?
    if tokens[0].lower == "to" and len(tokens) > 1 and tokens[1].pos != "VERB":
        return "starts on 'to'"  # "to the settings page was slow": the subject's tail
    english_preposition = tokens[0].pos == "ADP" and tokens[0].text.isascii()
    if english_preposition or tokens[0].pos == "CONJ" or tokens[0].lower in _QUESTION_WORDS:
        return f"starts on '{tokens[0].text}'"
    if tokens[0].lemma in _OPENING_RELATIVES or tokens[0].lower in _OPENING_RELATIVES:
        return f"starts on '{tokens[0].text}'"  # «которая выглядит сломанной»: of what?
    return ""


_OPENING_RELATIVES = _wordset("который who whom whose")


# "because", "though" and "before" as they are texted: a last word that opens a clause left
# out ("app coz").
_TEXTED_CONJUNCTIONS = _wordset("coz cuz bcoz bcuz bcz bc coss tho b4")

_PRONOUN_CONTRACTION = re.compile(
    r"(?:i|you|u|we|he|she|it|they|that|there)['’](?:d|ll|ve|re|s|m)", re.IGNORECASE
)

# Verbs that only frame the verb after them ("seems to", "continues to", "tried to"): a
# feature named from such words is named by the second verb.
RAISING_START = re.compile(
    r"^(?:seem|tend|happen|continue|try|attempt|manage|begin|start)(?:s|ed|ing)?\s+to\s+"
    r"(?=\w)",
    re.IGNORECASE,
)

# A feeling about what follows is no part of its name ("love movies" names the movies, "enjoy
# watching shows" the watching) when it takes an object; "the like button", "a love reaction"
# name a part by the word.
FEELING_START = re.compile(
    r"^(?:love|like|hate|enjoy|prefer|adore)[sd]?\s+"
    r"(?=(?:the|my|your|our|their|his|her|this|that|these|those|all)\b|\w+ing\b|\w+s\b)",
    re.IGNORECASE,
)

# Function words as they are texted ("dnt", "frm", "nd"): left at a label's end by a cut.
_TEXTED_FUNCTION_WORDS = _TEXTED_CONJUNCTIONS | _wordset(
    "dnt dont frm cnt cant nd bt wid wit thn ur wen wat wht"
)

TEXTED_FUNCTION_END = re.compile(
    rf"\s+(?:{'|'.join(sorted(_TEXTED_FUNCTION_WORDS))})$", re.IGNORECASE
)

# A last word of one lower-case letter that is no English word ("a" and "i" are).
LONE_LETTER_END = re.compile(r"\s+[b-hj-z]$")

# The writer's own verdict in stars ("I'd give it 5 stars", «ставлю 1 звезду»): an opinion of
# the app, not a quantity measured.
_STAR_RATING = re.compile(
    r"\b[0-5](?:[.,]5)?\s*(?:/\s*5\s*)?(?:stars?|звезд\w*|звёзд\w*)\b", re.IGNORECASE
)


# Words that say only that something is wrong; an error, unlike them, is a symptom one sees.
_WRONG_WORDS = _wordset("problem problems issue issues trouble проблема проблемы")


def says_only_something_is_wrong(label: str) -> bool:
    """ "Problem with plugins", "sidebar issue", «проблема с печатью»: an area and a word that
    something there is wrong, no symptom anyone could observe or reproduce. ("Build error",
    «ошибка сборки» name a symptom: an error that shows.)"""
    tokens = analyse(label)
    words = {t.lower for t in tokens} | {t.lemma for t in tokens}
    noun_phrase = all(t.pos in _NOUN_PHRASE_POS for t in tokens)
    return noun_phrase and bool(words & _WRONG_WORDS) and names_only_an_area(label)


_NOUN_PHRASE_POS = frozenset({"NOUN", "PROPN", "ADJ", "ADP", "DET", "NUM", "X", "PUNCT", "CONJ"})

# Verbs that ask the makers to repair something.
_REPAIR = _wordset("fix repair solve resolve исправить починить пофиксить поправить")


def asks_a_fix_of_nothing(label: str) -> bool:
    """ "Fix this please", "please fix it asap", «исправьте пожалуйста»: a request to repair
    that names nothing to repair (only a pronoun, or no object at all): beside the sentence
    that tells the problem, it adds nothing."""
    tokens = [t for t in analyse(label) if t.pos != "PUNCT"]
    verbs = [i for i, t in enumerate(tokens) if t.lemma in _REPAIR or t.lower in _REPAIR]
    if not verbs:
        return False
    rest = [t for i, t in enumerate(tokens) if i != verbs[0]]
    return not any(t.pos in ("NOUN", "PROPN", "NUM", "X") and t.lower not in _POLITE for t in rest)


_POLITE = _wordset("please pls plz asap guys пожалуйста")


# Words that call what was just told trouble ("this is so annoying", «это очень мешает»,
# "which is a big problem", «что представляет большую проблему»).
_TROUBLE = _wordset(listed("trouble"))

# «не удобно», «не приятно»: written apart, the negated comfort is the trouble word.
_COMFORT = _wordset("удобно удобный приятно приятный комфортно")

# What may stand around such a word without saying anything of its own.
_JUDGEMENT_FRAME = _wordset(listed("judgement_frame"))

# What the judgement is said of: the statement before it ("this", «это») or the clause it
# follows ("which", «что»).
_POINTERS_BACK = _wordset("this that it it's that's which это этот что")

# The pointers as written, for a look before any tagging.
_POINTER_FORMS = _POINTERS_BACK | _wordset("это эта эту этой этого этим этом эти")

# Who it troubles ("for blind users", «для меня»): the judgement itself ends before them.
_FOR_WHOM = _wordset("for для")


def judges_what_came_before(words: str, *, asked: bool = False) -> bool:
    """ "This is really annoying.", "which is a big problem", «Как исправить эту ошибку?»: words
    that only call what was just told trouble, or ask how to repair it, naming nothing of their
    own. They make the statement before them a complaint. asked: the words end a question."""
    asked = asked or words.rstrip().endswith("?")
    # read only what can open on a pointer or ask: every clause of every message comes here
    opening = {w.strip(".,;:!?…\"'«»()").lower() for w in words.split()[:3]}
    if not asked and not opening & _POINTER_FORMS:
        return False
    tokens = [t for t in analyse(words) if t.pos != "PUNCT"]
    cut = next((i for i, t in enumerate(tokens) if t.lower in _FOR_WHOM), len(tokens))
    tokens = tokens[:cut]
    # said of what came before: it opens on the pointer, or a question asks to fix "this" or
    # to fix with no object at all («Как исправить?»)
    pointed = tokens if asked else tokens[:3]
    repair = asked and any(t.lower in _REPAIR or t.lemma in _REPAIR for t in tokens)
    if not repair and not any(
        t.lower in _POINTERS_BACK or t.lemma in _POINTERS_BACK for t in pointed
    ):
        return False
    judged = False
    for index, token in enumerate(tokens):
        forms = {token.lower, token.lemma}
        after = tokens[index + 1].lower if index + 1 < len(tokens) else ""
        if token.lower in NEGATORS:
            if after not in _COMFORT:
                return False  # "this is not a problem"
        elif forms & _TROUBLE or (asked and forms & _REPAIR):
            judged = True
        elif token.lower in _COMFORT and index and tokens[index - 1].lower in NEGATORS:
            judged = True  # «не удобно»
        elif not forms & (_JUDGEMENT_FRAME | _POINTERS_BACK):
            return False
    return judged


_NAMING_WORDS = frozenset({"NOUN", "PROPN", "PRON", "ADJ", "NUM", "X"})

# The words of "nothing happens", "nothing changed", «ничего не происходит» (and «больше»,
# «просто», "then").
_NOTHING_HAPPENS = _wordset(listed("nothing_happens"))

_WORKING = _wordset("work function работать функционировать срабатывать сработать")


_DEGREE_WORDS = _wordset("also too really very so quite still just тоже также очень совсем слишком")


def names_nothing(label: str) -> bool:
    """A short failure to work said of nothing named ("not working", «не работает», «перестало
    работать»): no noun, name or pronoun says what fails; or only that nothing happens
    ("and then nothing happens", «больше ничего не происходит»)."""
    if content_lemmas(label) <= _NOTHING_HAPPENS:
        return True
    core = [
        t
        for t in analyse(label)
        if t.pos not in ("PUNCT", "PRON", "AUX", "DET") and t.lower not in _DEGREE_WORDS
    ]
    if (
        len(core) == 2
        and core[0].lower in NEGATORS
        and (core[1].lemma in QUALITY_LEMMAS or core[1].lower in QUALITY_LEMMAS)
    ):
        return True  # "it is really not good": a verdict on something the label leaves out
    tokens = [t for t in analyse(label) if t.pos != "PUNCT"]
    if not tokens or len(tokens) > 4 or tokens[0].lower not in NEGATORS | CEASE:
        return False
    if not any(t.lemma in _WORKING for t in tokens):
        return False  # "cannot register" names what fails by its verb
    return not any(t.pos in _NAMING_WORDS for t in tokens)


# Problem words that name nothing one sees (an error, unlike them, shows).
_UNSEEN_PROBLEMS = _wordset(
    "problem problems issue issues bug bugs trouble проблема проблемы баг баги"
)

# Words that point a problem word back at one told already: "the same issue", «такая же
# проблема», "this bug".
_TOLD_ALREADY = _wordset("same similar this that such такой такая такое тот та то этот эта это")


# A tracker's verb with a ticket for its object: "as I was about to file the bug", "handy for
# triaging old bugs", "opened an issue upstream", "file follow-up bugs"; or with a ticket for its
# subject: "the related bugs were closed".
_A_TICKET_HANDLED = re.compile(
    r"\b(?:submit|file|report|open|creat|check|track|triag|search|clos|reopen|dup|describ)\w*\s+"
    r"(?:(?:the|a|an|this|that|these|those|another|other|recent|related|similar|existing|older"
    r"|new|open|closed|upstream|separate|several|follow-?up)\s+){0,2}"
    r"(?:bugs?|issues?|tickets?|bug\s+reports?)\b"
    r"|\b(?:bugs?|issues?|tickets?)\s+(?:was|were|is|are|has\s+been|have\s+been|got)\s+"
    r"(?:closed|filed|opened|reopened|marked|duped|triaged)\b"
    # "Split from bug 4711", "cloned from issue 12": where the ticket came from
    r"|\b(?:split|clon|cop|mov|fork)\w*\s+(?:off\s+)?from\s+(?:bug|issue|ticket)\b"
    # "as mentioned in bug 4711": where more is told
    r"|\b(?:(?:mention|describ|discuss|explain)\w*|noted)\s+in\s+(?:bug|issue|ticket)\s*#?\d+"
    r"|\b(?:упомянут|описан|сказан|обсужд)\w*\s+в\s+(?:баге|задаче|тикете|issue)\s*#?\d+"
    # the same in Russian: «завёл новый тикет», «закрыл старые баги», «Выделено из бага 4711»
    r"|\b(?:заве|завё|созда|откры|закры|переоткры|отслежива|описа)\w*\s+"
    r"(?:(?:этот|эту|этого|новый|новую|новые|старый|старую|старые|другой|другую|похожий"
    r"|похожую|похожие)\s+){0,2}(?:баг\w*|тикет\w*|задач\w*|issue)\b"
    r"|\b(?:выделен|отделен|клонирован|скопирован|перенесен|перенесён)\w*\s+из\s+"
    r"(?:бага|задачи|тикета|issue)\b",
    re.IGNORECASE,
)


# Where a bug came from: "the bug was introduced with version 3.2", "this regression came in
# with the new parser".
_A_BUG_INTRODUCED = re.compile(
    r"\b(?:bugs?|issues?|regressions?|problems?)\s+(?:was|were|has\s+been|have\s+been|got)?\s*"
    r"(?:introduced|added|caused)\s+(?:with|in|by|when|after)\b"
    r"|\bregressions?\s+came\s+in\b"
    # «баг был внесён в версии 3.2», «регрессия привнесена новым парсером»
    r"|\b(?:баг\w*|ошибк\w*|регресси\w*|проблем\w*)\s+(?:(?:был|была|было|были)\s+)?"
    r"(?:внесен|внесён|привнесен|привнесён)\w*",
    re.IGNORECASE,
)


def tells_of_the_tracker(label: str) -> bool:
    """The pain's problem word is a ticket someone files, checks or tracks, or a bug told where
    it came from, and the label names no other problem: the tracker's business, not a fault of
    the product."""
    if _A_TICKET_HANDLED.search(label) is None and _A_BUG_INTRODUCED.search(label) is None:
        return False
    return not any(
        (t.lemma in PROBLEM_LEMMAS or t.lower in PROBLEM_LEMMAS)
        and t.lower not in GENERIC_PROBLEMS
        and t.lemma not in GENERIC_PROBLEMS  # «из бага»: an inflected form of a generic word
        for t in analyse(label)
    )


# A link that leads nowhere: "dead links on the release page", "the link is broken", «битая
# ссылка», «ссылка не работает».
_A_DEAD_LINK = re.compile(
    r"\b(?:dead|broken|stale|outdated)\s+(?:\w+\s+)?links?\b|\blinks?\s+(?:\w+\s+)?(?:is|are)\s+"
    r"(?:dead|broken)\b|(?:бит|м[её]ртв|нерабоч)\w*\s+(?:\w+\s+)?ссылк|\bссылк\w*\s+"
    r"(?:\w+\s+)?(?:не\s+работа|бит|м[её]ртв)",
    re.IGNORECASE,
)

# The words of the page such a link opens: "Page not found", "Error 404", «Страница не найдена».
_ERROR_PAGE_WORDS = _wordset(listed("error_page_words"))

_ERROR_PAGE = re.compile(r"\bnot\s+found\b|\bне\s+найден|\b[45]\d\d\b", re.IGNORECASE)


def tells_a_dead_link(label: str) -> bool:
    return _A_DEAD_LINK.search(label) is not None


def tells_only_an_error_page(label: str) -> bool:
    """ "Page not found", "Leads to Error 404": the page a dead link opens, naming nothing else
    (a report of the dead link tells that fault; this is what following it shows)."""
    if _ERROR_PAGE.search(label) is None:
        return False
    return all(w in _ERROR_PAGE_WORDS for w in re.findall(r"[^\W\d_]+", label.lower()))


def points_back_at_a_problem(label: str) -> bool:
    """ "I saw the same issue on another server", "problem also occurs if a HTML mail is
    composed", «у коллеги такая же проблема»: the pain names no symptom, only a problem told
    already (pointed back at, or bare with "also") and where or when it shows again."""
    tokens = [t for t in analyse(label) if t.pos != "PUNCT"]
    # what follows "if" or "when" is where it shows, not what the problem does
    end = next((i for i, t in enumerate(tokens) if i and t.lower in _WHERE_IT_SHOWS), len(tokens))
    tokens = tokens[:end]
    at = next(
        (
            i
            for i, t in enumerate(tokens)
            if t.lower in _UNSEEN_PROBLEMS or t.lemma in _UNSEEN_PROBLEMS
        ),
        None,
    )
    if at is None and tokens and tokens[0].lower in _TOLD_ALREADY:
        at = 0  # "this was also happening in 2.48": the pronoun stands for the problem
    # "happened when I reopened the tab" (not "what happened to the search bar": what it did)
    subject_left_out = (
        at is None
        and bool(tokens)
        and tokens[0].lemma in _HAPPENING
        and all(t.pos in ("ADV", "PART", "AUX") for t in tokens[1:])
    )
    if subject_left_out:
        at = 0  # "happened when I reopened the tab": its subject, left out, was told before
    if at is None:
        return False
    # by the word's lemma too: «такую же ошибку», «этот же баг» are inflected
    before = {w for t in tokens[max(0, at - 2) : at] for w in (t.lower, t.lemma)}
    again = subject_left_out or any(t.lower in ("also", "again", "тоже", "также") for t in tokens)
    # "the problem has existed since then", "issue persists": a bare problem word said only
    # to be there, nothing else beside it
    rest = [t for i, t in enumerate(tokens) if i != at]
    bare = any(t.pos == "VERB" for t in rest) and all(t.pos in _ONLY_THERE_POS for t in rest)
    if not before & _TOLD_ALREADY and not again and not bare:
        return False
    return not any(
        t.lower in NEGATORS
        or t.lower in ABSENCE
        or (t.lemma in PROBLEM_LEMMAS and t.lower not in GENERIC_PROBLEMS)
        or (t.pos == "VERB" and t.lemma not in _OCCURRING)
        for i, t in enumerate(tokens)
        if i != at
    )


_WHERE_IT_SHOWS = _wordset("if when whenever while after since если когда после пока")

_HAPPENING = _wordset("happen occur recur происходить произойти случаться случиться")

_ONLY_THERE_POS = frozenset({"VERB", "AUX", "DET", "ADV", "PART"})

# Verbs that say only that a problem is there or is met ("happens", "I saw", «возникает»); any
# other says what it does ("Twitter ignores me every time I file this issue").
_OCCURRING = _wordset(listed("occurring"))


def names_a_record_of_problems(label: str) -> bool:
    """ "Crash Logs", "bug tracker": a problem noun that only qualifies the noun after it
    names a thing (a heading, a tool), not a problem that happens."""
    tokens = [t for t in analyse(label) if t.pos != "PUNCT"]
    if not 2 <= len(tokens) <= 3 or not all(t.pos in ("NOUN", "PROPN") for t in tokens):
        return False
    head = tokens[-1]
    problem = any(t.lemma in PROBLEM_LEMMAS or t.lower in PROBLEM_LEMMAS for t in tokens[:-1])
    return problem and head.lemma not in PROBLEM_LEMMAS and head.lower not in PROBLEM_LEMMAS


# A verdict on the whole page that says only that it is not right ("Page not displaying
# properly", «Сайт работает некорректно»), or that things of it are missing without saying
# which ("Some missing items", «Многие элементы отсутствуют»), or that it cannot be used
# ("This page cannot be used at all"): a ticket that says what is wrong says more.
# "the web page", "internet site": the whole a vague verdict is given on
_A_PAGE = r"(?:the\s+)?(?:web\s*|internet\s*)?(?:page|site|website|webpage)"

# "many missing elements": some of the page's things, none named
_SOME = r"(?:many\s+|some\s+|многи[ехй]\s+|некоторы[ехй]\s+)?"

_VAGUE_VERDICT = re.compile(
    rf"{_A_PAGE}s?\s+(?:is\s+|are\s+|does\s+|do\s+)?"
    r"not\s+(?:being\s+|be\s+)?(?:load|display|render|show|work)\w*\s+"
    r"(?:correct(?:ly)?|properly|right|as\s+expected)"
    r"|(?:страниц[аы]|сайт|веб-страниц[аы])\s+(?:(?:некорректно|неправильно)\s+\w+"
    r"|\w+\s+(?:некорректно|неправильно))"
    rf"|{_SOME}missing\s+(?:items|elements)|(?:items|elements)\s+(?:are\s+)?missing"
    rf"|{_SOME}(?:элементы\s+отсутствуют|отсутствуют\s+элементы)"
    rf"|{_SOME}(?:items|elements)\s+are\s+not\s+(?:shown|displayed)"
    r"|not\s+all\s+(?:items|elements)\s+are\s+(?:shown|displayed)"
    rf"|{_SOME}элементов\s+нет|не\s+хватает\s+{_SOME}элементов"
    r"|(?:отображаются|показываются)\s+не\s+все\s+элементы"
    r"|не\s+все\s+элементы\s+(?:отображаются|показываются)"
    # a verdict that the whole cannot be used: what is wrong with it is told beside it
    rf"|{_A_PAGE}\s+is\s+(?:completely\s+|totally\s+)?(?:unusable|not\s+usable)"
    r"|poorly\s+(?:rendered|displayed)\s+(?:web\s*)?(?:page|site|website|webpage)"
    r"|(?:сайтом|страницей)\s+(?:совсем\s+|вообще\s+)?(?:невозможно|нельзя)\s+пользоваться"
    r"|(?:сайт|страница)\s+(?:совсем\s+|вообще\s+)?(?:неюзабельн|непригодн)\w*",
    re.IGNORECASE,
)


def gives_only_a_vague_verdict(label: str) -> bool:
    return _VAGUE_VERDICT.fullmatch(label.strip(" .!")) is not None


# Verbs that say a problem is there, or seems to be, and not what it does.
_BEING_VERBS = _wordset("have be seem appear")


def names_only_an_area(label: str) -> bool:
    """A pain that says only where a problem is ("problem with plugins", «ошибка в переводе»,
    "sidebar problem", "there seems to be a CSS problem"): no verb, negation or absence says
    what goes wrong."""
    tokens = [t for t in analyse(label) if t.pos != "PUNCT"]
    if not any(t.lemma in GENERIC_PROBLEMS or t.lower in GENERIC_PROBLEMS for t in tokens):
        return False
    return not any(
        (t.pos == "VERB" and t.lemma not in _BEING_VERBS)
        or t.lower in NEGATORS
        or t.lower in ABSENCE
        or (t.lemma in PROBLEM_LEMMAS and t.lemma not in GENERIC_PROBLEMS and t.pos != "NOUN")
        for t in tokens
    )


# The words the review constructions above turn on, as written and by their base forms: a
# word in neither starts none of them.
_REVIEW_WORDS = (
    _FALLING
    | _RESOURCES
    | _UNPROMPTED
    | _OUT_OF
    | _SCREEN_COLOURS
    | _SET_PHRASE_ENDS
    | _GONE_CUES
    | _PRAISING_COMPARATIVES
    | _GIVING_UP
    | _MOVING
    | _wordset("only happened go not until get got bother")
)

_REVIEW_FORMS = _MISBEHAVING | _REMOVING | _DEMANDING


_LONG_WORD = re.compile(r"[A-Za-z]{3,}")

# Below this share of dictionary words, a sentence of at least three long words is in another
# Latin-script language: names and jargon alone rarely take two words in three.
_ENGLISH_SHARE = 0.34


def reads_as_english(sentence: str) -> bool:
    """The sentence is English, or too short to tell: "De winkel is vandaag gesloten" is
    not."""
    found = _LONG_WORD.findall(sentence)
    if len(found) < 3:
        return True
    return sum(is_english_word(w) for w in found) >= _ENGLISH_SHARE * len(found)


_NEGATIONS_OF_A_CLAUSE = frozenset({"not", "no", "never", "cannot", "не", "нет", "нельзя"})


def states_a_clause(label: str) -> bool:
    """The words say what happens, with a verb or a negation ("images are not copied", "export
    fails", «не могу установить»), or a problem word said of a noun before it, the copula left
    out as titles do ("upload stuck at the last step"), rather than only name the matter
    ("wrong directory", "broken link")."""
    tokens = analyse(label)
    if any(
        t.pos in ("VERB", "AUX") or t.lower in _NEGATIONS_OF_A_CLAUSE or t.lower.endswith("n't")
        for t in tokens
    ):
        return True
    return any(
        token.lemma in PROBLEM_LEMMAS and token.pos == "ADJ" and before.pos in ("NOUN", "PROPN")
        for before, token in zip(tokens, tokens[1:], strict=False)
    )
