"""Statements that look like problems and are not: denial, praise, settled, asked.

A clause that denies a problem ("no crashes so far", `denies_a_problem`), praises, says a
fault was fixed or outgrown (`resolved_later`, `outgrown`), says it works
(`says_it_works`), asks the reader or suggests is no pain (`not_a_pain` gathers them).
Kinds of label: none; these rules keep pains from being made.
Example: "It used to lag but the last update fixed that" gives no pain (a fault said to be
over); "It still lags after the update" gives the pain "lags after the update".
"""

from __future__ import annotations

import re

from kg.language import Token, analyse
from kg.llm.offline.complaints import (
    DEVICE_WORDS,
    _hoped_for,
    _of_the_writers_device,
    _requests_a_fix,
    _said_over,
    _segment,
)
from kg.llm.offline.labels import GENERIC_PROBLEMS
from kg.llm.offline.negation import (
    _CONDITIONS,
    FIX_LEMMAS,
    _negated,
    against_the_present,
    is_hypothetical,
)
from kg.llm.offline.problems import (
    _INSTEAD,
    _MESSAGE_NOUNS,
    _QUOTE_MARKS,
    _SPEAKERS_AND_READERS,
    _VAGUE_WORDS,
    _ceased,
    _disputed,
    _idiom,
    _in_a_condition,
    _minimized,
    _only_a_verdict,
    _quoted,
    _what_should_be,
    problem_at,
    since_an_update,
)
from kg.llm.offline.reading import Reading, Span, _within, _wordset, listed, polarity, read
from kg.llm.offline.rule_words import (
    GENERIC_NOUNS,
    GENERIC_VERBS,
    LIKING_LEMMAS,
    NEGATORS,
    PROBLEM_LEMMAS,
    REQUEST_EN,
)


def _asks_for_a_fix(tokens: list[Token], at: int) -> bool:
    """ "Please help me solve my problem": a plea for help with a problem told elsewhere. A
    request that the makers fix something ("please fix the login loop") says what is broken."""
    return any(
        (t.lemma in FIX_LEMMAS or t.lower in FIX_LEMMAS or _fix_done(tokens, j))
        and not _requests_a_fix(tokens, j)
        for j, t in enumerate(tokens[:at], start=0)
        if j >= at - 3
    )


def _fix_done(tokens: list[Token], j: int) -> bool:
    """ "they fixed the login bug", "it was fixed": a fix that happened (a lemmatizer may not
    read "fixed" as "fix"). "It should be fixed" and "hope it's fixed soon" ask for one."""
    if tokens[j].lower != "fixed" or (j and tokens[j - 1].lower == "be"):
        return False
    return not _hoped_for(tokens, j)


def _expects(tokens: list[Token]) -> bool:
    """ "expected …", «ожидал, что …» (not «ожидать» as waiting: «долго ожидать загрузки»)."""
    words = [t for t in tokens if t.pos != "PUNCT"]
    for i, token in enumerate(words):
        if token.lemma == "expect" and not token.lower.startswith("unexpect"):
            return True
        after = words[i + 1].lower if i + 1 < len(words) else ""
        if token.lemma in ("ожидать", "ожидаться") and after in ("что", "чтобы", "увидеть"):
            return True
    return False


def denies_a_problem(text: str, span: Span, clause: Span) -> bool:
    """The span says a problem is absent ("no errors in the log", «без ошибок») and names
    no other; its negator may stand before it in its clause."""
    reading = read(text, clause)
    tokens = _within(reading, clause[0], span[1])
    problems = [
        i
        for i, t in enumerate(tokens)
        if t.lemma in PROBLEM_LEMMAS and t.start + reading.offset >= span[0]
    ]
    return bool(problems) and all(_negated(tokens, i) for i in problems)


_DENIED_AFTER_COMMA = re.compile(r",\s+а\s+не(?!\w)", re.IGNORECASE)


def holds_its_comma(text: str, span: Span) -> bool:
    """The comma in the span is inside one statement: "instead of the page, it shows markup",
    «открывается в домашней папке, а не в папке проекта»."""
    first = re.match(r"\s*(\w+)", text[span[0] : span[1]])
    if first is not None and first.group(1).lower() in _INSTEAD:
        return True
    if _JUDGED_THAT.match(text, span[0], span[1]):
        return True  # «неудобно, что нельзя перетащить вкладку»: what is judged follows
    return _DENIED_AFTER_COMMA.search(text, span[0], span[1]) is not None


# A judgement whose matter is the clause after it: "it's annoying that …", «неудобно, что …».
_JUDGED_THAT = re.compile(
    r"\s*(?:очень\s+)?(?:неудобно|плохо|странно|обидно|жаль|раздражает|бесит|печально)"
    r"\s*,\s*(?:что|когда)\s",
    re.IGNORECASE,
)


# Words for the parts of a computer a report lists as its environment, the display among them
# («монитор 27 дюймов, масштаб 150%»).
_MACHINE = re.compile(
    r"(?<![\w-])(?:RAM|ROM|CPU|GPU|SSD|HDD|ОЗУ|ПЗУ|memory|processor|cores?|процессор\w*|"
    r"оперативн\w*|памят[ьи]|видеокарт\w*|ядер|ядра|диск\w*|монитор\w*|дюйм\w*|"
    r"масштаб\w*|разрешени\w+\s+(?:экрана|монитора|дисплея|\d)|ноутбук\w*|laptop|"
    r"Windows\s+\d+|macOS\s+\d+|Ubuntu\s+\d+)(?![\w-])",
    re.IGNORECASE,
)


# What the program takes of the machine is a measure of the problem, not the machine:
# "memory use climbs past 5 GB", "CPU load is 40%", «потребляет 2 ГБ памяти».
_TAKES_OF_THE_MACHINE = re.compile(
    r"(?<![\w-])(?:usage|consumption|load|use|uses|used|consumes?|consumed|eats|takes\s+up|"
    r"использовани\w*|потребл\w*|загрузк\w*|нагрузк\w*|занима\w*|съеда\w*)(?![\w-])",
    re.IGNORECASE,
)


def describes_the_machine(clause: str) -> bool:
    """The clause lists the computer's parts ("Intel i5, 16 GB RAM", «ОЗУ 8 ГБ»)."""
    return _MACHINE.search(clause) is not None and not _TAKES_OF_THE_MACHINE.search(clause)


# The network and security tools a report may say it runs without: its setup, not a fault
# ("Antivirus is not installed", «прокси не используется», «без VPN»). One that fails to do
# its work ("the VPN does not connect"), or a fault told with or without one («без VPN всё
# работает, с VPN …»), is still a fault.
_SETUP_TOOL = (
    r"(?:prox(?:y|ies)|vpn|anti-?virus|firewall|прокси|впн|антивирус\w*|брандмауэр\w*"
    r"|фаервол\w*|файрвол\w*)"
)

# …said not to be in use: "is not installed", "is off", «не используется», «отключён»
_SAID_UNUSED = (
    r"(?:\b(?:is|are|was|were)\s*(?:not|n't)\s+(?:used|installed|enabled|configured|running)\b"
    r"|\b(?:is|are|was)\s+(?:off|disabled)\b|(?<![\w-])не\s+(?:использу\w+|установлен\w*"
    r"|включ\w+|настроен\w*|запущен\w*)|(?<![\w-])(?:отключ\w+|выключ\w+))"
)

_SETUP_NEGATED = re.compile(
    rf"(?<![\w-])(?:{_SETUP_TOOL}[^.;,]{{0,30}}?{_SAID_UNUSED}"
    rf"|(?:do|does|did)\s*(?:not|n't)\s+(?:use|have|run)\s+(?:an?\s+|any\s+)?{_SETUP_TOOL}(?![\w-])"
    rf"|не\s+(?:использу\w+|пользуюсь|установлен\w*|включ\w+|настроен\w*)\s+(?:\w+\s+)?"
    rf"{_SETUP_TOOL}(?![\w-]))",
    re.IGNORECASE,
)


def negates_the_setup(clause: str) -> bool:
    """The clause says a network or security tool is not in use: the reporter's setup."""
    return _SETUP_NEGATED.search(clause) is not None


_PHRASE_START_POS = frozenset({"NOUN", "PROPN", "ADJ", "PRON", "NUM"})


def with_preposition(text: str, span: Span, clause: Span) -> Span:
    """A Russian label that opens on a noun phrase keeps the preposition that governs it: «при
    попытке открыть папку ничего не происходит», not «попытке открыть …», whose oblique case
    reads as a torn-off piece. (An English label may drop its preposition: "the terminal
    stays blank" reads whole.)"""
    reading = read(text, clause)
    first = _within(reading, span[0], span[1])[:1]
    before = _within(reading, clause[0], span[0])[-1:]
    if not first or not before or not first[0].text[:1].isalpha():
        return span
    if first[0].text.isascii() or first[0].pos not in _PHRASE_START_POS:
        return span
    if before[0].pos != "ADP" or before[0].text.isascii():
        return span
    return reading.offset + before[0].start, span[1]


def _quoted_message_end(tokens: list[Token], at: int) -> int | None:
    """Where the message an error noun quotes right after it ends ("the error "Access
    denied"", «ошибку "нет доступа"»): the index of its closing quote mark."""
    if tokens[at].lemma not in _MESSAGE_NOUNS:
        return None
    opening = at + 1
    while opening < len(tokens) and tokens[opening].text == ":":
        opening += 1
    if opening >= len(tokens) or tokens[opening].text not in _QUOTE_MARKS:
        return None
    closing = next(
        (i for i in range(opening + 1, len(tokens)) if tokens[i].text in _QUOTE_MARKS), None
    )
    return closing if closing is not None and closing > opening + 1 else None


def _names_no_problem(tokens: list[Token], at: int) -> bool:
    """ "this app was the problem", "others are having similar issues": only a generic word
    (problem, issue, bug) says something is wrong, and nothing says what or where."""
    if tokens[at].lemma not in GENERIC_PROBLEMS and tokens[at].lower not in GENERIC_PROBLEMS:
        return False
    if since_an_update(tokens):
        return False  # "nothing but problems since the update": when it broke
    if _quoted_message_end(tokens, at) is not None:
        return False  # the error "Cannot open file": its message says which
    first, last = _segment(tokens, at)
    if _problems_asserted(tokens, at, first, last):
        return False  # "there are a few bugs", "so many issues": the app has problems
    ignored = GENERIC_NOUNS | GENERIC_VERBS | _VAGUE_WORDS | GENERIC_PROBLEMS | DEVICE_WORDS
    return not any(
        (t.pos in ("NOUN", "PROPN", "VERB") and t.lemma not in ignored and t.lower not in ignored)
        or (t.lemma in PROBLEM_LEMMAS and t.lemma not in GENERIC_PROBLEMS)
        for i, t in enumerate(tokens[first : last + 1], first)
        if i != at
    )


# How many problems there are, said without pointing back at one told before: "a few bugs",
# "so many issues", "lots of problems". ("The problem", "this problem", "the same issue" point
# at a problem told elsewhere; "a problem", "an error" introduce one the text goes on to tell.)
_HOW_MANY = _wordset(listed("how_many"))

# Words that make a problem someone else's, or one already known of.
_OTHERS_OR_KNOWN = _wordset(
    "other others people everyone anyone someone somebody same similar known widespread wide"
)


def _problems_asserted(tokens: list[Token], at: int, first: int, last: int) -> bool:
    if not tokens[at].text.isascii():
        return False
    back = at - 1
    while back >= first and tokens[back].pos == "ADJ" and tokens[back].lower not in _HOW_MANY:
        back -= 1  # "a few annoying bugs"
    if back < first or tokens[back].lower not in _HOW_MANY | {"of"}:
        return False
    if tokens[back].lower == "few" and not (back and tokens[back - 1].lower == "a"):
        return False  # "very few bugs": nearly none
    if tokens[back].lower == "of" and not (back > first and tokens[back - 1].lower in _HOW_MANY):
        return False  # "lots of bugs", "full of bugs"; not "the source of the problem"
    return not any(t.lower in _OTHERS_OR_KNOWN for t in tokens[first : last + 1])


_DEGREE_PRAISE = _wordset("super pretty real mighty")


def _praised(text: str, reading: Reading, at: int) -> bool:
    """The problem word sits in a clearly positive piece ("great place to find hard to find
    gifts", "useful in too many ways to list"): praise, not a complaint."""
    token = reading.tokens[at]
    if token.lemma not in PROBLEM_LEMMAS and token.lower not in PROBLEM_LEMMAS:
        return False  # a function that fails ("won't load") is a failure whatever else is said
    if _quoted(reading.tokens)[at]:
        # a phrase in quotation marks is a mention: the clause that quotes it says whether
        # it complains ("a great shop for "hard to find" parts")
        first, last = 0, len(reading.tokens) - 1
    else:
        first, last = _segment(reading.tokens, at)
    # "super laggy", "pretty slow": a degree word, not praise
    words = [
        t.text
        for j, t in enumerate(reading.tokens[first : last + 1], first)
        if not (t.lower in _DEGREE_PRAISE and j + 1 < len(reading.tokens) and j + 1 <= last)
    ]
    return polarity(" ".join(words)) >= 0.5


def _told_apart(text: str, reading: Reading, clause: Span) -> bool:
    """The problem is told in a piece of its own after the wish ("Please add a dark mode, the
    white screen hurts my eyes"): the wish does not cover it."""
    at = problem_at(reading)
    if at is None:
        return False
    first, _ = _segment(reading.tokens, at)
    wish_end = max((m.end() for m in REQUEST_EN.finditer(text, *clause)), default=clause[1])
    start = reading.tokens[first].start + reading.offset
    return first > 0 and wish_end <= start and reading.tokens[first - 1].text == ","


def _wishes(text: str, span: Span) -> bool:
    """A wish for something new ("I wish they had a dislike button"), not a plea to fix, nor a
    wish against what is there now ("I wish it didn't need a connection")."""
    requests = [m.group().lower() for m in REQUEST_EN.finditer(text, *span)]
    wished = any(r.startswith(("i", "we")) for r in requests)
    if wished and against_the_present(read(text, span).tokens) is not None:
        return False
    return any("fix" not in r for r in requests)


_SECOND_PERSON = _wordset("you your вы вас вам ваш ты тебя")


def asks_the_reader(text: str, sentence: Span) -> bool:
    """A question put to the reader ("Have you ever lost a file?"): an interview guide's
    prompt, not a report of what happened."""
    end = sentence[1]
    while end < len(text) and text[end] in " \t\"'»)":
        end += 1
    if not text.startswith("?", end) and not text[sentence[0] : sentence[1]].endswith("?"):
        return False
    words = [t for t in read(text, sentence).tokens if t.pos != "PUNCT"][:5]
    if not words or (words[0].lower not in _PROMPT_OPENERS and not _auxiliary(words[0])):
        return False  # "Why did you remove the export?" complains in a question's form
    # "Have you …", "How often do you …": an auxiliary right before "you" asks; "How come
    # you can't …" complains.
    return any(
        word.lower in _SECOND_PERSON and _auxiliary(words[i - 1])
        for i, word in enumerate(words)
        if i > 0
    )


# How an interview guide opens its questions; "why" opens complaints as often as questions.
_PROMPT_OPENERS = _wordset("what how which when where who tell describe как какие что когда где")


def _auxiliary(token: Token) -> bool:
    return token.pos == "AUX" or token.lemma in ("be", "have", "do")


_DENYING_SUBJECTS = _wordset("no none nobody noone neither никто ни")


def _subject_denied(tokens: list[Token], at: int) -> bool:
    """ "No one in the groups we met struggled to …", «никто не жаловался»: the subject
    says the problem happened to nobody."""
    words = [i for i, t in enumerate(tokens) if t.pos != "PUNCT"]
    if tokens[at].lemma not in PROBLEM_LEMMAS:
        return False  # "nobody could log in": everyone failed
    return bool(words) and words[0] < at and tokens[words[0]].lower in _DENYING_SUBJECTS


_REASONS = _wordset("because since")

_CONTRASTING = _wordset("but however though although yet except until still")


def _reason_for_praise(tokens: list[Token], at: int) -> bool:
    """ "I liked that feature because I had trouble with the old one": the trouble explains
    why something is liked; it was with what the product replaced or before it."""
    for back in range(at - 1, -1, -1):
        token = tokens[back]
        if token.lower in _CONTRASTING or token.text in (";", "!", "?"):
            return False
        if token.lower in _REASONS:
            return any(
                (t.lemma in LIKING_LEMMAS or t.lower in LIKING_LEMMAS)
                and not _negated(tokens, j)
                # taggers read "I like" as a preposition; "looks like a toy" is one
                and (t.pos != "ADP" or (j > 0 and tokens[j - 1].lower in _SPEAKERS_AND_READERS))
                for j, t in enumerate(tokens[:back])
            )
    return False


_HARD_TO_SAY = re.compile(
    r"(?<![\w-])(?:(?:hard|difficult|tough)\s+to\s+(?:say|tell|judge)"
    r"|(?:трудно|сложно|тяжело)\s+(?:сказать|судить))(?![\w-])",
    re.IGNORECASE,
)


def hard_to_say(text: str, clause: Span) -> bool:
    """ "It is difficult to say why", «трудно сказать»: the writer is unsure, nothing fails."""
    return _HARD_TO_SAY.search(text, *clause) is not None


def not_a_pain(text: str, clause: Span, sentence: Span, english: bool) -> str:
    """Why a clause that a pattern took for a pain is not one ("" when it is one)."""
    reading = read(text, clause)
    if is_hypothetical(reading):
        return "hypothetical"
    if english and _suggested(text, reading, clause):
        return "a suggestion"  # "why not let people know …?", "how about new features?"
    if english and _reason_for_praise(reading.tokens, len(reading.tokens)):
        return "the reason for praise"
    if _expects(reading.tokens):
        return "an expectation"  # "I expected it to be hard": not what happened
    if english and _wishes(text, clause) and not _told_apart(text, reading, clause):
        return "a wish"
    at = problem_at(reading)
    if at is not None and _subject_denied(reading.tokens, at):
        return "negated"
    if at is not None and _asks_for_a_fix(reading.tokens, at):
        return "asks for a fix"
    if at is not None and _names_no_problem(reading.tokens, at):
        return "names no problem"
    if at is not None and _only_a_verdict(reading.tokens, at):
        return "a verdict on the whole"
    if at is not None and english and _praised(text, reading, at):
        return "praise"
    if problem_at(reading) is None:
        words = [t for t in reading.tokens if t.pos != "PUNCT"]
        if any(_idiom(reading.tokens, i) for i in range(len(reading.tokens))):
            return "an idiom"
        if any(
            (t.lemma in PROBLEM_LEMMAS or t.lower in PROBLEM_LEMMAS)
            and (
                _disputed(reading.tokens, i)
                or _minimized(reading.tokens, i)
                or _what_should_be(reading.tokens, i)
            )
            for i, t in enumerate(reading.tokens)
        ):
            return "disputed or made light of"
        if any(
            (t.lemma in PROBLEM_LEMMAS or t.lower in PROBLEM_LEMMAS)
            and _in_a_condition(reading.tokens, i)
            for i, t in enumerate(reading.tokens)
        ):
            return "a supposition"
        if any(
            (t.lemma in PROBLEM_LEMMAS or t.lower in PROBLEM_LEMMAS)
            and (
                _of_the_writers_device(reading.tokens, i)
                or _said_over(reading.tokens, i)
                or _ceased(reading.tokens, i)
            )
            for i, t in enumerate(reading.tokens)
        ):
            return "another thing's problem, or one said to be over"
        if any(
            _negated(reading.tokens, i) and reading.tokens[i].lower not in _WHOLLY
            for i in range(len(reading.tokens))
        ):
            return "negated"
        if words and words[0].lower in _CONDITIONS:
            return "a supposition"  # «если открыть файл вручную, …»: a check, not a fault
        if english and polarity(text[sentence[0] : sentence[1]]) >= 0.5:
            return "praise"
        if not words:
            return "empty"
    return ""


# «видна не полностью», "not fully shown": a part only, which denies nothing
_WHOLLY = _wordset("полностью целиком fully completely entirely")


# A suggestion put as a question ("why not add …", "how about …"): a request, not a fault.
_SUGGESTION = re.compile(
    r"\b(?:why\s+not|how\s+about|what\s+about)(?:\s+(?:just|try(?:ing)?\s+to))?\b",
    re.IGNORECASE,
)


# A sentence that opens on "add" or "bring back" asks for what follows, with no "please":
# "Now add video calling also", "Bring back the old layout!".
_IMPERATIVE_REQUEST = re.compile(
    r"\W*(?:(?:now|also|just|so|and|pls|plz|please|guys|devs?|developers?)\W+)*"
    r"(?:add|bring\s+back|give\s+us|include)\b",
    re.IGNORECASE,
)


def suggested(text: str, clause: Span) -> bool:
    """Whether the clause puts its words as a suggestion (see `_suggested`)."""
    return _suggested(text, read(text, clause), clause)


def _suggested(text: str, reading: Reading, clause: Span) -> bool:
    """The clause opens with a suggestion, or its problem word stands after one: "why not
    try to let people know …" suggests; in "the app crashes, why not test it first?" the
    crash comes before the suggestion and stays a fault."""
    cue = _SUGGESTION.search(text, clause[0], clause[1])
    if cue is None:
        return False
    opening = [t for t in reading.tokens if t.pos != "PUNCT"][:3]
    if any(t.start == cue.start() for t in opening):
        return True
    at = problem_at(reading)
    return at is not None and reading.tokens[at].start >= cue.end()


# A later clause that says the trouble is over: «…, но после переустановки всё в порядке»,
# "…, but now it works fine".
_RESOLVED = re.compile(
    r"(?:\b(?:but|now)\b|(?<!\w)(?:но|а|теперь|сейчас)(?!\w))[^.;!?\n]{0,60}?"
    r"(?:(?<!\w)(?:вс[её]|оно|он|она)\s+(?:снова\s+|опять\s+)?(?:в\s+порядке|работает|"
    r"нормально|хорошо)|(?<!\w)(?:заработал\w*|исправил\w*|починил\w*|решил\w*|прош[её]л|"
    r"прошл[аои])(?!\w)|\b(?:works?|runs?|loads?|plays?|syncs?)\s+(?:fine|again|now|well|"
    r"normally|properly|smoothly|perfectly|great)\b|"
    r"\b(?:is|was|got)\s+(?:fixed|resolved|solved)\b|\b(?:is|are)\s+(?:fine|ok|okay)\s+now\b"
    r"|\b(?:fixed|solved|resolved)\s+(?:it|that|this|the\s+problem|the\s+issue)\b)",
    re.IGNORECASE,
)

# A statement that all is well: «после перезагрузки всё в порядке», "then everything works".
_ALL_IS_WELL = re.compile(
    r"(?<![\w-])(?<!не )вс[её]\s+(?:снова\s+|опять\s+|сразу\s+)?(?:в\s+порядке|работает|"
    r"нормально|хорошо|ок)(?![\w-])"
    r"|\beverything\s+(?:is\s+|was\s+)?(?:again\s+)?(?:works?|worked|fine|ok|okay|normal|good"
    r"|back\s+to\s+normal)\b",
    re.IGNORECASE,
)


# "It has been like this since May", "this is going on for two days", «так уже неделю»: when
# the fault began, told of a fault named elsewhere.
_ONLY_SINCE_WHEN = re.compile(
    r"\W*(?:this|it|that)\s+(?:is|was|has\s+been|happens|started|began)\s+(?:like\s+this\s+|"
    r"so\s+|going\s+on\s+)?(?:since|for)\s+[^.;!?]*[.;!?]?\s*"
    r"|\W*(?:так|это)\s+(?:уже\s+|продолжается\s+|происходит\s+)*(?:с|около|несколько|уже|"
    r"целую|неделю|месяц)\b[^.;!?]*[.;!?]?\s*",
    re.IGNORECASE,
)


def tells_only_since_when(statement: str) -> bool:
    return _ONLY_SINCE_WHEN.fullmatch(statement) is not None


# A statement that ends on something working or done right: "Saving the file works.",
# "Printing works fine", «Экспорт работает нормально». "Only the first tab works" still tells a
# fault.
_IT_WORKS = re.compile(
    r"(?:\b(?:works?|worked|is\s+working|are\s+working)(?:\s+(?:fine|well|ok|okay"
    r"|normally|perfectly|as\s+it\s+should))?"
    r"|(?<![\w-])работа(?:ет|ют|л[аио]?)(?:\s+(?:нормально|хорошо|отлично|без\s+проблем))?"
    # any verb done right: "the field is filled in correctly", «поле заполнено правильно»
    r"|\b(?:correctly|properly|as\s+(?:expected|intended))"
    r"|(?<![\w-])(?:правильно|корректно|верно|как\s+надо|как\s+положено))\s*[.!]*\s*$",
    re.IGNORECASE,
)

_ONLY_SOME = re.compile(r"\bonly\b|(?<![\w-])только(?![\w-])", re.IGNORECASE)


def says_it_works(statement: str) -> bool:
    return (
        _IT_WORKS.search(statement) is not None
        and not _NEGATION_IN.search(statement)
        and not _ONLY_SOME.search(statement)
    )


def says_all_is_well(statement: str) -> bool:
    return _ALL_IS_WELL.search(statement) is not None and not _NEGATION_IN.search(
        _ALL_IS_WELL.sub(" ", statement)
    )


# A negated verb: «не», "not", "never", a contraction ("doesn't", "isn’t") or one typed without
# its apostrophe ("doesnt", "cant"). Only these spellings: a word that merely ends in "nt"
# ("percent", "client", "want") is no negation.
_NEGATION_IN = re.compile(
    r"(?<!\w)(?:не|ни)(?!\w)|\b(?:not|never|cannot)\b|\b[a-z]+n['’]t\b"
    r"|\b(?:do|does|did|ca|wo|is|are|was|were|could|would|should|have|has|had|ai|must|need)nt\b",
    re.IGNORECASE,
)


def resolved_later(text: str, clause: Span, sentence: Span) -> bool:
    """The sentence goes on to say the trouble is over: a past problem, not a current one
    («раньше терминал не открывался, но теперь всё работает»). «…, но так и не заработал»
    is still one."""
    found = _RESOLVED.search(text, clause[1], sentence[1])
    return found is not None and not _NEGATION_IN.search(found.group())


# "at first … but now": a first impression the writer has since left behind.
_AT_FIRST = re.compile(
    r"\b(?:at\s+first|initially|in\s+the\s+beginning|at\s+the\s+(?:beginning|start))\b"
    r"(?P<then>[^.;!?\n]*?\b(?:but|and)\s+now\b(?P<now>[^.,;!?\n]*))",
    re.IGNORECASE,
)


def outgrown(text: str, span: Span, sentence: Span) -> bool:
    """ "I didn't like it at first, but now I use it daily": the problem was a first
    impression, and what the writer says of now holds no negation and no problem word.
    "It worked at first but now it crashes" keeps its problem: it is said of now."""
    found = _AT_FIRST.search(text, span[0], sentence[1])
    if found is None or len(found["now"].split()) < 3:
        return False  # "but now, after the update, …": what is said of now comes later
    return not any(
        t.lemma in PROBLEM_LEMMAS | NEGATORS or t.lower in PROBLEM_LEMMAS | NEGATORS
        for t in analyse(found["now"])
    )
