"""What a clause says, read from its grammar: is it a problem, a wish, a capability, or none.

The extractor's patterns find where a finding may be; this module decides what kind of
statement holds it, on part-of-speech tags, lemmas and negation scope (kg.language) and on
VADER's sentiment lexicon:
- a problem word that is negated ("nothing lags", «ничего не тормозит»), said of a
  hypothetical ("if it ever crashed", «если бы»), or inside praise is not a pain; a normal
  function that is negated ("doesn't sync", «не открывается») is one;
- a request ("please add", "I wish it had", «добавьте», «хотелось бы») names a feature;
- an ability or a preference about the product ("I can edit photos", "I love the dark mode",
  "won't let you skip songs") names a feature by the verb phrase or noun phrase after it;
- a label is a whole phrase: it never starts or ends on a function word, and is never a URL,
  a file path or a table row.
Word lists here are general language knowledge, written without reading any test text.
"""

from __future__ import annotations

import bisect
import html
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

from kg.language import (
    Token,
    analyse,
    cases,
    content_lemmas,
    grammemes,
    is_cyrillic,
    is_english_word,
    lemma,
    tagged,
)
from kg.language.lemmas import _morph
from kg.llm.offline import lexicon_en

Span = tuple[int, int]


def _wordset(text: str) -> frozenset[str]:
    """The words, each also spelt with «е» for «ё»: lemmas come that way, text either way."""
    words = text.split()
    return frozenset(words + [w.replace("ё", "е") for w in words])


NEGATORS = _wordset(
    "not n't n’t no never nothing nobody none neither nor without hardly rarely seldom cannot "
    # contractions as reviews type them, without the apostrophe
    "dont doesnt didnt cant wont isnt arent wasnt werent couldnt wouldnt shouldnt havent "
    "hasnt aint "
    "не ни нет ничего никто никогда нигде ничто без никакой"
)
# Words that describe a malfunction or a difficulty by themselves.
PROBLEM_LEMMAS = _wordset(
    """crash freeze lag hang fail failure break broken bug buggy glitch glitchy error slow
    unusable unresponsive stuck problem issue trouble annoying annoy frustrating frustrate confusing
    confuse difficult hard impossible struggle complain complaint drain lose lost missing
    disappear delay wait unable useless terrible awful horrible worst bad poor waste
    choppy erratic unreadable unclear blurry laggy unstable unreliable disappoint disappointed
    disappointing disappointment hate dislike expensive overpriced downside drawback worse
    suck sucks rubbish garbage junk crap stupid ridiculous pathetic intrusive inability
    lousy horrid dreadful faulty tired horrified horrify piss pissed
    malfunction overheat stutter flicker hiccup corrupt corrupted defective flawed wrong
    incorrect inaccurate blank vanish sluggish bloated clunky clumsy cluttered cumbersome
    tedious awkward unintuitive counterintuitive inconvenient hassle headache nightmare ugly
    hideous pointless worthless mediocre boring dull lame mess messy disaster unacceptable
    irritating irritate outdated invasive spammy greedy scam rip-off ripoff ruin ruined lack
    lacking lacks limited nag nagging paywall broke hog incompatible spam spammed spamming
    outrageous absurd fake irrelevant buffering unpleasant vulnerable vulnerability
    vulnerabilities inaccessible unreachable unavailable defunct crippled misspelled misspell
    misspelling excessive jerky jumpy stuttering garbled
    ошибка баг проблема падать вылетать зависать тормозить глючить сломаться ломаться
    пропадать пропасть исчезать исчезнуть медленный медленно невозможно
    мешать раздражать сбой краш слететь слетать нельзя иероглиф кракозябра
    сбрасываться сбрасывать сброситься теряться потеряться удаляться удалиться
    предупреждение неприятный неприятно плохой плохо
    ужасный ужасно отвратительный отвратительно кошмар бесполезный глючный сломанный
    зависание вылет падение лаг лагать неудобство раздражающий запутанный жалоба жаловаться
    устаревший испорченный повреждённый повредить мерцание искажение
    зависнуть подвисать подвиснуть виснуть вылететь упасть крашиться крашнуться мерцать
    дергаться прыгать размываться искажаться съезжать съехать дублироваться двоиться
    сбиваться сбиться неудобный неудобно ломать сломать уязвимость уязвимый опечатка
    недостижимый покорёженный покорёжить искорёженный искорёжить кривой криво ненужный
    неюзабельный непригодный неработоспособный неработающий ругаться"""
)
# Verbs whose absence is a problem when negated ("doesn't open", «не запускается»).
FUNCTION_LEMMAS = _wordset(
    """work load open start launch run save sync play show display connect install update
    respond find let allow download upload send receive login log sign print copy paste
    scroll search display install see recognize recognise detect support accept
    работать загружаться загрузить открываться открыть запускаться запустить сохранять
    сохраняться показывать отображаться видеть находить подключаться устанавливаться
    обновляться отвечать реагировать получаться удаваться удаться мочь верный правильный
    корректный позволять позволить давать дать
    проигрываться синхронизироваться выполняться скачиваться отправляться отправлять
    печатать печататься копироваться копировать вставляться вставлять прокручиваться
    распознавать распознаваться определяться поддерживать применяться закрываться
    показываться отображать срабатывать включаться подгружаться"""
)
# Verbs of liking: negated, they are a complaint ("I don't like the new layout", "wasn't worth
# it").
LIKING_LEMMAS = _wordset("like love enjoy recommend worth")
# Qualities a product should have: negated, they are a complaint ("sound not clear").
QUALITY_LEMMAS = _wordset(
    "clear good smooth stable responsive reliable accurate easy intuitive helpful useful nice "
    "great fun right compatible "
    "readable usable responsive fast quick available visible accessible consistent "
    "удобный удобно понятный понятно читаемый четкий четко верный верно правильный правильно "
    "корректный корректно стабильный стабильно рабочий активный доступный видимый точный "
    "точно полный ясный ясно приятный приятно pleasant "
    "хороший хорошо плавный плавно надёжный надёжно лёгкий легко интуитивный интуитивно "
    "полезный быстрый быстро совместимый "
    "clickable selectable editable scrollable"
)
# Verbs that follow "can't" in praise or in idioms, not in a failure: "can't live without it",
# "can't complain", "can't wait", "can't beat the price", "can't go wrong", "can't say enough",
# "can't put it down", "can't help smiling", "can't think of a flaw".
NOT_INABILITY = _wordset(
    "live complain wait beat go say imagine thank praise stress believe fault ask stop get "
    "recommend express tell put help miss think decide"
)
# "too many ads", "too small", "too slow": an excess is a complaint.
_EXCESS = _wordset("too")
_PRAISING_EXCESS = _wordset("list mention count name true")
# Verbs that say a function ceased: "stopped working", «перестал открываться».
CEASE = _wordset("stop cease перестать переставать")
# Words that say something is absent: «нет кнопки», «отсутствует перевод».
ABSENCE = _wordset("нет отсутствует отсутствуют")
# Modal words that make a clause hypothetical. A plain "if"/«если» does not: "if I open a large
# file it freezes" reports a real problem; "if it ever crashed" does not (see is_hypothetical).
HYPOTHETICAL = _wordset("would could might бы")
REQUEST_EN = re.compile(
    r"\b(?:please|pls|plz|kindly)\s+(?:add|make|bring|include|allow|let|give|fix|implement)\b"
    r"|\b(?:i|we)\s+wish\b"
    r"|\bwould\s+(?:be\s+)?(?:love|like|great|nice|good|helpful|cool|awesome|useful)\b"
    r"|\b(?:can|could)\s+you\s+(?:please\s+)?(?:add|make|bring|include|allow|let|give)\b"
    r"|\bthere\s+should\s+be\b|\bshould\s+(?:have|add|include|allow|let)\b"
    r"|\b(?:needs?|want)\s+(?:an?\s+)?(?:option|ability|way|feature|setting|button)\b"
    r"|\b(?:add|bring\s+back)\s+(?:an?\s+|the\s+)?(?:option|ability|way|feature|setting|button)\b"
    r"|\brecommendations?\W{0,3}:\W{0,3}|\b(?:we|i)\s+(?:recommend|suggest|propose)\b",
    re.IGNORECASE,
)
# (what is asked for follows the cue: a courtesy word, a verb of having or adding and a word
# for a capability after it are the cue's: «Сделайте, пожалуйста, поиск», «Хотелось бы
# иметь тёмную тему», «Не хватает возможности группировать вкладки»)
REQUEST_RU = re.compile(
    r"(?<!\w)(?:(?:добавьте|добавите|добавить\s+бы|сделайте|верните"
    r"|прошу\s+(?:добавить|сделать)|предлагаю(?:\s+(?:добавить|сделать))?"
    r"|добавить\s+возможность|добавьте\s+возможность)(?:\s*,?\s*пожалуйста\s*,?)?"
    r"|хотелось\s+бы(?:\s+(?:иметь|видеть))?|хочется"
    r"|(?:хотел(?:а|и)?\s+бы|хочу|хотим)(?=\s*,?\s*чтобы)"
    r"|было\s+бы\s+(?:удобно|здорово|неплохо|хорошо|круто|полезно|классно)"
    r"|нужна\s+возможность|не\s+хватает(?:\s+(?:возможности|функции|опции))?"
    r"|можно\s+ли\s+(?:добавить|сделать)|рекомендуем|рекомендаци[яи]\W{0,3}:)(?!\w)",
    re.IGNORECASE,
)
# Someone doing something with the product, or able / unable to: the capability follows.
ABILITY_EN = re.compile(
    r"\b(?:(?:i|we|you|u|users?|one)\s+(?:can(?:no|')?t?|could(?:n't)?)|able\s+to|unable\s+to"
    r"|lets?\s+(?:me|you|us|users)"
    r"|allows?\s+(?:me|you|us|users)\s+to|helps?\s+(?:me|you|us)|helped\s+(?:me|you|us)"
    r"|(?:helps|helped)(?:\s+to)?"
    r"|(?:love|like|enjoy|hate|prefer)s?(?:d)?|use\s+it\s+to|option\s+to|ability\s+to"
    r"|feature\s+(?:is|was)"
    r"|(?:it|this|app|application)\s+(?:won'?t|will\s+not|(?:does|did)\s+not|(?:does|did)n'?t))\b",
    re.IGNORECASE,
)
# Verbs too general to name a capability by themselves, and verbs of feeling about it.
GENERIC_VERBS = _wordset(
    """be have do get go say tell think know seem look feel want need like love hate enjoy
    prefer try use make let help keep give take come put mean guess hope wish understand
    recommend rate review download install uninstall update buy pay work happen start stop
    find become remain allow able unable
    disappoint frustrate annoy horrify surprise impress satisfy thank consider choose turn sit
    believe expect miss fix solve resolve please admit decide learn begin
    figure wonder realize realise notice suppose assume imagine doubt care matter"""
)
# Nouns that name the product as a whole or the review, never one of its features.
GENERIC_NOUNS = _wordset(
    """app apps application program software tool version update thing things stuff lot way time
    times star stars review reviews phone device tablet one everything anything something
    nothing people guy guys day days year years problem problems issue issues bug bugs job
    fun kind sort bit part alot difference"""
)
_PHRASE_STOPS = _wordset(
    "because since when while than though although but so every everytime whenever until "
    "потому когда чтобы пока хотя но"
)
# Prepositions that keep building the object ("a list of songs", "photos for sale").
_OBJECT_LINKS = _wordset("of")
# A relative clause says something more about the object: "filters for dates | that it has".
_RELATIVES = _wordset("that which who whom whose")
_COMPARATIVES = _wordset("better worse more less so too much")
_LEAD_INS = frozenset(("have", "be", "being", "there", "if", "add", "to", "able", "that"))
# «было бы удобно, если бы можно было …», «хотелось бы, чтобы я мог …»: the condition's frame
# before what is wished for.
_LEAD_INS_RU = frozenset(("если", "чтобы", "можно", "быть", "бы", "мочь"))
_FEATURE_WORDS = frozenset(
    (
        "function",
        "feature",
        "option",
        "ability",
        "way",
        "possibility",
        "functionality",
        "capability",
        "functions",
        "features",
        "options",
        "capabilities",
    )
)
FUNCTION_POS = frozenset({"DET", "ADP", "CONJ", "PRON", "PART", "AUX", "PUNCT", "SYM", "INTJ"})
_URL = re.compile(r"https?://|www\.", re.IGNORECASE)
# A site's bare name ("example.com"): a web address when the label is little else, the site
# a statement is about when words around it say something ("example.com is not rendered").
_SITE_NAME = re.compile(r"[\w-]+\.(?:com|org|net|ru|io)\b", re.IGNORECASE)
_PATH = re.compile(r"[\\/][\w.-]+[\\/]|\w+\.\w{1,4}$|^[\w.]+\.[a-z]\w*[A-Z]\w*$")
_TABLE = re.compile(r"\|")
# A word that starts at a slash is a path ("/usr/local", "~/notes"), whatever words surround it.
_PATH_START = re.compile(r"(?:^|\s)[~.]?[\\/]\w")
_MAX_LABEL_WORDS = 10


@lru_cache(maxsize=1)
def _vader() -> SentimentIntensityAnalyzer:
    return SentimentIntensityAnalyzer()


def polarity(text: str) -> float:
    """VADER's compound score for English text; 0 for text it has no words for."""
    return float(_vader().polarity_scores(text)["compound"])


@dataclass(frozen=True)
class Reading:
    tokens: list[Token]
    offset: int

    def span(self, first: int, last: int) -> Span:
        return self.tokens[first].start + self.offset, self.tokens[last].end + self.offset


def read(text: str, span: Span) -> Reading:
    return Reading(list(tagged(text[span[0] : span[1]])), span[0])


def _within(reading: Reading, start: int, end: int) -> list[Token]:
    """The tokens of a reading that lie between two offsets of the text: rules look at parts
    of a clause or sentence already read, instead of tagging each part again."""
    return [t for t in reading.tokens if start <= t.start + reading.offset < end]


_SUBJECT_PRONOUNS = _wordset("i we he she they я мы он она они")


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


_CONDITIONS = _wordset("if если")
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
_SHOWING_RU = _wordset(
    "отображаться показываться открываться загружаться появляться оставаться выглядеть "
    "показывать отображать открывать загружать грузиться"
)


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
# the tagger leaves "remains" unlemmatized
_STAYING_EN = _wordset("remain remains remained stay stays stayed")


def _stays(token: Token) -> bool:
    return token.lemma in _STAYING_EN or token.lower in _STAYING_EN


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


def _a_person(token: Token) -> bool:
    """A pronoun or a noun for people ("I", "my kids", "couriers"), not a part of the app."""
    if token.lower in _PERSON_SUBJECTS:
        return True
    if token.lower in lexicon_en.PEOPLE_NOUNS or token.lemma in lexicon_en.PEOPLE_NOUNS:
        return True
    plural = token.lower.endswith("s") and token.pos == "NOUN"
    return plural and lexicon_en.SEGMENT_HEAD.fullmatch(token.lower) is not None


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
    parses = [p for p in _morph().parse(word.lower()) if p.tag.POS == "NOUN"]
    return not parses or any("inan" in p.tag for p in parses)


# Operations a person performs on the app: with the writer as subject and no "can't", not
# doing one is a choice ("I never opened it"), not a failure ("it never opened").
_DONE_BY_THE_USER = _wordset(
    "open start launch run install update download upload send print copy paste scroll "
    "search save play sync"
)
_ABILITY_MODALS = _wordset("can could ca cannot cant couldnt able")
_WRITER = _wordset("i we")


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


# Verbs that, negated, tell what someone knows, wants, needs or feels, that something does
# not matter or cost much, or that a fault does not reach it: «не знаю почему», "it doesn't
# matter", "doesn't take long", "the other packs are not affected".
NOT_FAILURE_VERBS = _wordset(
    """know understand think believe remember want wish need care mind matter bother seem
    expect plan intend hope mean suggest require cost be have do get make take go come look
    sound feel hurt regret charge ask use agree
    affect impact
    знать понимать понять думать считать помнить запомнить хотеть желать планировать
    собираться нуждаться требоваться требовать стоить надеяться бояться волновать интересовать
    советовать рекомендовать являться быть иметь использовать пользоваться соглашаться
    спешить жалеть пробовать попробовать стать прийтись приходиться"""
)
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
_CHOOSING = _wordset(
    """use switch pay prefer choose pick go buy try take get keep
    пользоваться использовать перейти переходить выбрать выбирать брать взять купить платить"""
)


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


# Russian predicatives of perceiving: negated, what should show or sound does not.
_PERCEIVED = _wordset(
    "видно слышно заметно видны виден видна слышны слышен слышна заметны заметен заметна"
)
_HAPPEN = _wordset("happen occur происходить произойти случаться случиться")
_NOTHING = _wordset("nothing ничего")


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
_SHOWING = _wordset(
    "show display appear print отображаться выводиться показываться печататься отображать "
    "выводить показывать"
)
_GARBLE = _wordset(
    """square box rectangle question gibberish символ знак квадрат прямоугольник иероглиф
    кракозябра крякозябра абракадабра мусор"""
)


def _shown_garbled(tokens: list[Token], i: int) -> bool:
    """ "letters show as squares", «русские буквы выводятся как знаки вопроса»: text shown
    as the placeholders of a wrong font or encoding."""
    if tokens[i].lemma not in _SHOWING or i + 2 >= len(tokens):
        return False
    if tokens[i + 1].lower not in ("as", "like", "как"):
        return False
    shown = [t for t in tokens[i + 2 : i + 5] if t.pos in ("NOUN", "ADJ")]
    return any(t.lemma in _GARBLE or t.lower in _GARBLE for t in shown)


# Negators of a verb or an adjective; "nothing like", "no good reason" are other constructions.
_VERB_NEGATORS = NEGATORS - _wordset(
    "no nothing nobody none neither nor without ничего никто никакой"
)


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


# What a user looks for in an app and a review says is missing: "no way to export", "no
# offline mode".
_CAPABILITY_NOUNS = _wordset(
    """option options way button buttons setting settings feature features support ability
    function functions mode choice control controls access
    bar scrollbar menu icon icons link links field tab gap gaps space spaces spacing margin
    border borders"""
)
# Interruptions a user did not ask for: a quantity of them is a complaint ("lots of pop-ups").
_INTRUSIONS = _wordset(
    """ad ads advert adverts advertisement advertisements advertising adds popup popups pop-up
    pop-ups commercial commercials notification notifications"""
)
# What a catalogue offers: too few of them is a shortcoming.
_CONTENTS = _wordset(
    "songs movies shows films titles games levels stickers filters themes fonts colors colours "
    "channels stations books videos choices"
)
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
_THING_FAULTS = _wordset(
    """wrong incorrect inaccurate blank sluggish bloated clunky clumsy cluttered cumbersome
    tedious awkward unintuitive counterintuitive inconvenient ugly hideous pointless worthless
    mediocre boring dull lame messy outdated invasive spammy greedy limited broke fake
    irrelevant outrageous absurd"""
)
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
_MEASURES = _wordset(
    "quality resolution performance speed accuracy sound volume fps framerate calls call "
    "connection signal"
)
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
_UNASKED = _wordset(
    "randomly suddenly unexpectedly constantly always itself automatically whenever "
    "continually repeatedly"
)
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
_OTHER_VERSIONS = _wordset(
    "old older previous original earlier former prior last web desktop pc computer browser "
    "website site classic"
)


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


# Asking for a fix names no new problem: "please solve my problem", «помогите с решением
# проблемы».
FIX_LEMMAS = _wordset(
    "solve fix resolve correct address help решить решение исправить помочь помогать"
)
# Greetings and pleas that open a report; they are not part of what went wrong.
COURTESY = _wordset(
    """hello hi hey please pls plz help добрый день здравствуйте привет подскажите помогите
    пожалуйста доброго времени суток"""
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


# A question's opening before the problem it asks about («почему у меня не работает …»).
_QUESTION_LEAD = _wordset("почему why как how у меня нас")


def without_courtesy(text: str, span: Span) -> Span:
    """The span without the greetings, pleas and question openings it starts with («добрый
    день подскажите почему у меня не работает …» → «не работает …»)."""
    tokens = read(text, span).tokens
    first = 0
    while first < len(tokens) - 1 and (
        tokens[first].lower in COURTESY
        or tokens[first].pos == "PUNCT"
        or (tokens[first].lower in _QUESTION_LEAD and tokens[first].text[:1].islower())
    ):
        first += 1
    while first < len(tokens) - 1 and tokens[first].lower in _JOINING:
        first += 1  # "and it frustrates me": the conjunction joins the label to what went before
    asked = _question_opening(tokens, first)
    if asked and first + asked < len(tokens) - 1:
        first += asked
    elif (
        0 < first < len(tokens) - 1
        and tokens[first - 1].lower in ("how", "why")
        and tokens[first].lemma == "be"
    ):
        first += 1  # "how is | this still not fixed": the question's verb
    return (span[0] + tokens[first].start, span[1]) if tokens else span


_JOINING = _wordset("and but or then")


def _question_opening(tokens: list[Token], first: int) -> int:
    """How many words an English question opens with before what it says of the app: "Why |
    does it crash", "Why is | it so slow", "What | happened to the search bar", "How come |
    it never syncs"."""
    words = [t.lower for t in tokens[first : first + 3]]
    if words[:2] == ["how", "come"]:
        return 2
    if words[1:2] == ["happened"] and words[0] in ("what", "whatever"):
        return 2 if len(words) > 1 and tokens[first + 1].lemma == "be" else 1
    if words[:1] == ["how"] and len(words) > 1 and tokens[first + 1].lemma in ("be", "do"):
        return 2  # "how is | this still not fixed"
    if words[:1] in (["why"], ["where"], ["where's"]):
        return 2 if len(words) > 1 and tokens[first + 1].lemma == "be" else 1
    return 0


_CONTRASTS = _wordset("but however но а однако")


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


def _attempts(tokens: list[Token]) -> bool:
    """ "I try to open it", «пытаюсь открыть»: an attempt, whose end is expected."""
    words = [t for t in tokens if t.pos != "PUNCT"]
    return any(
        token.lemma in _ATTEMPTING
        and i + 1 < len(words)
        and (words[i + 1].pos == "VERB" or words[i + 1].lower == "to")
        for i, token in enumerate(words)
    )


_ATTEMPTING = _wordset("try attempt пытаться попытаться пробовать попробовать")
# What an attempt may end in that is no fault: "but it worked", «но всё получилось».
_SUCCEEDING = _wordset("work succeed manage работать сработать получиться удаться")


def against_expectation(text: str, clause: Span, sentence: Span) -> Span | None:
    """What happened instead of what was expected: "I expected local names, but only keywords
    are shown", «ожидал увидеть список, а открывается пустое окно». The clause after the
    contrast is the fault."""
    before = [t for t in _within(read(text, sentence), sentence[0], clause[0]) if t.pos != "PUNCT"]
    if not before or before[-1].lower not in _CONTRASTS:
        return None
    expected = _expects(before[:-1])
    if not (expected or _attempts(before[:-1])):
        return None  # what was expected or tried comes first
    reading = read(text, clause)
    tokens = reading.tokens
    if not any(t.pos in ("VERB", "ADJ") for t in tokens):
        return None
    if polarity(text[clause[0] : clause[1]]) >= 0.3:
        return None  # "but it was easy to set up": better than expected
    if any(t.lemma in _SUCCEEDING for t in tokens) and not any(t.lower in NEGATORS for t in tokens):
        return None  # «пытался, но всё получилось»: the attempt succeeded
    first, last = _content_bounds(tokens, 0, len(tokens) - 1)
    if first > last:
        return None
    span = reading.span(first, last)
    if not expected and names_nothing(text[span[0] : span[1]].split(",")[0]):
        return None  # "tried both paths, but nothing changed": the attempt names no symptom
    return span


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


# Words that end the piece of a clause a problem word belongs to ("I'm sorry but this app is
# crap": the problem is said after "but").
_SEGMENT_BREAKS = _wordset(
    "but because since although though whereas except unless until till which so however "
    "но потому хотя"
)
# Words that say whose or how common a problem is, not what it is ("others have the same
# problem", "a known issue", "a widespread problem").
_VAGUE_WORDS = _wordset(
    """other others people everyone anyone someone somebody same similar known wide spread
    widespread main only real big biggest major minor one see seen notice hear read hope
    theres there macbook imac pro mini max air
    представлять являться быть иметь возникать возникнуть создавать большой серьёзный
    серьезный огромный некоторый такой же"""
)


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
_HOW_MANY = _wordset(
    "some many few several lots lot alot plenty so too bunch couple multiple numerous "
    "constant frequent endless full tons more"
)
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


# Words that judge a whole thing rather than say what goes wrong with it.
VERDICT_LEMMAS = _wordset(
    """bad poor terrible awful horrible worst useless suck sucks crap rubbish garbage junk
    stupid ridiculous pathetic lousy horrid dreadful annoying annoy frustrating frustrate
    disappoint disappointed disappointing disappointment waste hate dislike
    ugly hideous pointless worthless mediocre boring dull lame mess messy disaster unacceptable
    irritating irritate scam rip-off ripoff"""
)
_VERDICT_OBJECTS = _wordset("money effort")


_RECENT = _wordset("new newest latest last recent current updated")
_TIERS = _wordset("free paid pro premium lite basic trial")
_BECOMING = _wordset("getting becoming became become gets got turning")


_SINCE = _wordset("since after")
_UPDATES = _wordset("update updates updating upgrade redesign")


# "looks different", «стал выглядеть по-другому»: how a thing appears or behaves, changed.
_DIFFERENT = _wordset("different differently иначе по-другому по-иному")
_APPEARING = _wordset(
    "look looks looked looking behave behaves behaved seem seems became become becomes "
    "выглядеть выглядит выглядят работать работает работают вести ведёт стал стала стало стали"
)
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


# Words that front a phrase of time or condition before a clause's subject, with no comma
# ("since the last update the widget …", "when saving a large file the editor …").
FRONTING_WORDS = _wordset("since after before until when whenever once while if")
# the words that open an English subject's noun phrase
SUBJECT_OPENERS = _wordset("the a an my our your his her their its this these")


# Words a determiner may follow inside the subject's own phrase ("the sync between my
# phone", "the icon of the app") or inside an amount's ("about a second").
_INSIDE_A_PHRASE = _wordset(
    "of between in on for with from to at by about and or all into onto over under like than "
    "within without"
)


def opens_the_subject(before: str) -> bool:
    """A determiner after these words of an English clause opens its subject when a phrase of
    time or condition was fronted without a comma and the determiner follows that phrase's
    last word ("when I open the settings | the app crashes"). After a preposition or an -ing
    form it is inside a phrase ("between | my phone", "compiling | the shell service"); with
    no such phrase before it, it opens the verb's object ("it deleted | my chats")."""
    words = [w.strip(".,;:!?\"'()").lower() for w in before.split()]
    if not words or not any(w in FRONTING_WORDS for w in words):
        return False
    last = words[-1]
    return last.isalpha() and not last.endswith("ing") and last not in _INSIDE_A_PHRASE


# Where the tags are known, a pronoun, an auxiliary or an adjective before the determiner
# keeps it inside the fronted phrase too ("when I saw it | the …" is read on).
_INSIDE_A_PHRASE_POS = frozenset(("ADP", "DET", "ADJ", "PRON", "AUX", "CONJ"))


def _past_a_fronted_phrase(tokens: list[Token], first: int, at: int) -> int:
    """An English piece that opens on a fronted phrase of time or condition starts at its
    subject ("since the last update | the widget no longer refreshes"), found by words, not
    tags: the tagger often reads the phrase's last noun as a verb ("update", "file")."""
    opener = next(
        (k for k in (first - 1, first) if 0 <= k < at and tokens[k].lower in FRONTING_WORDS),
        None,
    )
    if opener is None or not tokens[opener].text.isascii():
        return first
    for k in range(opener + 2, at):
        if (
            tokens[k].lower in SUBJECT_OPENERS
            and tokens[k - 1].pos not in _INSIDE_A_PHRASE_POS
            and opens_the_subject(" ".join(t.text for t in tokens[opener:k]))
        ):
            return k
    return first


def pain_span(text: str, clause: Span) -> Span | None:
    """The words of a problem a clause states, when its grammar says it states one."""
    reading = read(text, clause)
    wish = _wishes(text, clause) and not _told_apart(text, reading, clause)
    if is_hypothetical(reading) or _expects(reading.tokens) or wish:
        return None
    at = problem_at(reading)
    if at is None or _asks_for_a_fix(reading.tokens, at) or _names_no_problem(reading.tokens, at):
        return None
    if _only_a_verdict(reading.tokens, at):
        return None
    if reading.tokens[at].text.isascii() and (
        _praised(text, reading, at) or _reason_for_praise(reading.tokens, at)
    ):
        return None
    tokens = reading.tokens
    # the piece that holds the problem word: "I'm sorry but this app is crap" → "this app is crap"
    first, last = _segment(tokens, at)
    first = _past_a_fronted_phrase(tokens, first, at)
    message_end = _quoted_message_end(tokens, at)
    if message_end is not None:
        last = message_end  # the error with its message
    if tokens[at].lower == "не" and first > 1 and tokens[first - 1].text == ",":
        # «терминал открывается в домашней папке, а не в …»: from the verb's subject on
        verb = max(j for j in range(first - 1) if tokens[j].pos == "VERB")
        subject = verb - 1 if verb and tokens[verb - 1].pos in ("NOUN", "PROPN", "PRON") else verb
        first = max(_segment(tokens, first - 2)[0], subject)
        last = min(last, first + _MAX_LABEL_WORDS + 2)
        if last - first + 1 > _MAX_LABEL_WORDS:
            first, last = _content_bounds(tokens, first, last)
            return reading.span(first, last)
    if tokens[at].lower in _INSTEAD and last + 2 < len(tokens) and tokens[last + 1].text == ",":
        last = _segment(tokens, last + 2)[1]  # "instead of the page, it shows markup"
    if last - first < 2:
        first, last = 0, len(tokens) - 1  # a lone word needs its clause to read as a statement
    if last - first + 1 > _MAX_LABEL_WORDS:
        first = _window_start(tokens, max(0, at - 4), at)
        last = _noun_run_end(tokens, min(len(tokens) - 1, first + _MAX_LABEL_WORDS - 1))
        first = _past_a_conjunct_tail(tokens, first, at)
    first, last = _content_bounds(tokens, first, last)
    if (
        last + 1 < len(tokens)
        and _requests_a_fix(tokens, last)
        and tokens[last + 1].pos
        in (
            "PRON",
            "DET",
        )
    ):
        last += 1  # "please fix this": the request keeps what it points at
    if at < first <= last:
        first = at  # "too many ads", «не видно изменений»: the problem word is what is wrong
    if first > last or not any(t.pos in ("VERB", "ADJ", "NOUN") for t in tokens[first : last + 1]):
        return None
    return reading.span(first, last)


def _past_a_conjunct_tail(tokens: list[Token], first: int, at: int) -> int:
    """ "… for Ubuntu x86-64 | and get build errors": a window that opens on the tail of the
    conjunct before a coordinated predicate starts on that predicate."""
    joined = [
        j
        for j in range(first, at)
        if tokens[j].pos in ("CONJ", "CCONJ") and tokens[j + 1].pos in ("VERB", "AUX")
    ]
    return joined[-1] + 1 if joined else first


_BEFORE_PROBLEM_POS = frozenset({"AUX", "PART", "ADV"})
_MODIFIER_POS = frozenset({"DET", "ADJ", "NUM"})
_NOMINAL_POS = frozenset({"NOUN", "PROPN", "ADJ", "DET", "NUM"})


def _window_start(tokens: list[Token], first: int, at: int) -> int:
    """Where a label cut to a window before the problem word starts, never mid-phrase: the
    window takes in the modifiers of its first noun ("the | characters in the terminal"), and
    steps past a prepositional phrase it would open inside ("for some | reason are not
    shown")."""
    if tokens[first].pos not in _NOMINAL_POS:
        return first
    start = first
    while start > 0 and tokens[start - 1].pos in _MODIFIER_POS:
        start -= 1
    if start > 0 and tokens[start - 1].pos == "ADP":
        while first < at and tokens[first].pos in _NOMINAL_POS:
            first += 1
        while first < at and tokens[first].pos == "ADP":  # and past the ones that follow
            first += 1
            while first < at and tokens[first].pos in _NOMINAL_POS:
                first += 1
        return first
    return start


_ASPECT_VERBS = _wordset("keep start begin continue seem tend")
# "a problem with syncing", "the lack of filters": the part follows these words.
_TROUBLE_WITH = _wordset("problem issue trouble bug glitch error lack")
_TROUBLE_LINKS = _wordset("with of in when")


def _part_name(tokens: list[Token], first: int, last: int) -> tuple[int, int] | None:
    """A noun phrase naming a part of the product, or None (a person is checked by the caller;
    the product as a whole, a pronoun or a generic word is not a part)."""
    if last < first or tokens[last].pos != "NOUN" or tokens[last].lemma in GENERIC_NOUNS:
        return None
    if tokens[last].lemma in PROBLEM_LEMMAS:
        return None
    while (
        first < last
        and tokens[first].pos not in ("NOUN", "VERB")
        and not _names_the_part(tokens, first)
    ):
        first += 1  # "new", "whole": the qualities of the moment are not the part's name
    return first, last


def _noun_phrase_before(tokens: list[Token], end: int) -> tuple[int, int] | None:
    last = end
    first = last
    # "search bar", "calling feature": nouns, adjectives and -ing words before the head
    while (
        first > 0
        and last - first < 3
        and (
            tokens[first - 1].pos in ("NOUN", "ADJ")
            or (tokens[first - 1].pos == "VERB" and tokens[first - 1].lower.endswith("ing"))
            or _names_the_part(tokens, first - 1)
        )
    ):
        first -= 1
    return _part_name(tokens, first, last)


def _names_the_part(tokens: list[Token], i: int) -> bool:
    """A capitalised word right after "the" names the part after it: "the Home button", "the
    Trending tab" (taggers read a proper noun); an adjective capitalised for weight does not
    ("the Main mode of communication")."""
    return (
        tokens[i].pos == "PROPN"
        and i > 0
        and tokens[i - 1].lower == "the"
        and analyse(tokens[i].lower)[0].pos != "ADJ"
    )


def _noun_phrase_after(tokens: list[Token], start: int) -> tuple[int, int] | None:
    i = start
    while i < len(tokens) and tokens[i].pos in ("DET", "PRON", "ADV"):
        i += 1
    last = i
    while last + 1 < len(tokens) and last - i < 3 and tokens[last + 1].pos == "NOUN":
        last += 1
    if i >= len(tokens) or tokens[i].pos not in ("NOUN", "VERB", "ADJ"):
        return None
    if tokens[i].pos == "VERB" and not tokens[i].lower.endswith("ing"):
        return None
    if tokens[last].pos == "VERB":  # "trouble with syncing": the activity is the part
        return (i, last) if last == i else None
    return _part_name(tokens, i, last)


def problem_part_spans(text: str, clause: Span, parts: frozenset[str]) -> list[Span]:
    """The parts of the product a problem is said of: the subject of the problem word ("my
    search bar isn't working", "messages cannot be sent"), what a negative adjective qualifies
    ("a terrible date picker"), and what "a problem with" or "the lack of" names. Never a
    pronoun, the product as a whole, or a generic word; a part is named by a word for one
    (parts, "feature") or by an activity ("a problem with syncing"): the subject of a problem
    is as often the weather, a coffee break or the reviewer's own phone."""
    reading = read(text, clause)
    if is_hypothetical(reading):
        return []
    at = problem_at(reading)
    if at is None:
        return []
    tokens = reading.tokens
    named: list[tuple[int, int] | None] = []
    before = at - 1
    while before >= 0 and (
        tokens[before].pos in _BEFORE_PROBLEM_POS
        or tokens[before].lower in NEGATORS
        or tokens[before].lemma in _ASPECT_VERBS
    ):
        before -= 1
    if before >= 0 and tokens[before].pos == "NOUN":
        named.append(_noun_phrase_before(tokens, before))
    if tokens[at].pos == "ADJ" and at + 1 < len(tokens):
        named.append(_noun_phrase_after(tokens, at + 1))
    trouble = tokens[at].lemma in _TROUBLE_WITH
    if trouble and at + 1 < len(tokens) and tokens[at + 1].lower in _TROUBLE_LINKS:
        named.append(_noun_phrase_after(tokens, at + 2))
    return [
        reading.span(*found)
        for found in named
        if found is not None
        and _names_a_part(tokens[found[0] : found[1] + 1], parts)
        and not _a_failed_screen(tokens, *found)
    ]


def _names_a_part(tokens: list[Token], parts: frozenset[str]) -> bool:
    return any(
        t.lemma in parts
        or t.lower in parts
        or t.lemma in _FEATURE_WORDS
        or (t.pos == "VERB" and t.lower.endswith("ing"))
        for t in tokens
    )


def _noun_run_end(tokens: list[Token], last: int) -> int:
    """A cut at the word limit never ends inside a compound noun: "the status" of "the status
    page" names something else. The run is followed a few words at most."""
    if tokens[last].pos not in ("NOUN", "PROPN", "ADJ"):
        return last
    limit = min(len(tokens) - 1, last + 3)
    while last < limit and tokens[last + 1].pos in ("NOUN", "PROPN"):
        last += 1
    return last


def noun_phrase_end(text: str, end: int, limit: int) -> int:
    """`end`, or further when it falls inside a compound noun ("delays in the checkout|
    process" ends after "process")."""
    reading = read(text, (end, limit))
    tokens = reading.tokens
    last = -1
    while last + 1 < min(len(tokens), 3) and tokens[last + 1].pos in ("NOUN", "PROPN"):
        last += 1
    if last < 0 or text[end:limit][: tokens[0].start].strip():
        return end
    return reading.span(last, last)[1]


def cut_at_word_limit(text: str, span: Span, max_words: int) -> int:
    """Where a phrase cut to max_words (words as spaces part them) ends: past the limit only
    to finish a compound noun."""
    words = list(_SPACED.finditer(text, span[0], span[1]))
    if len(words) <= max_words:
        return span[1]
    cut = words[max_words - 1].end()
    reading = read(text, span)
    tokens = reading.tokens
    last = next((i for i, t in enumerate(tokens) if t.end + reading.offset >= cut), None)
    if last is None:
        return cut
    last = _noun_run_end(tokens, last)
    adjunct = _cut_adjunct(tokens, last)
    if adjunct is not None:
        return reading.span(adjunct, adjunct)[1]
    return max(cut, reading.span(last, last)[1])


def _cut_adjunct(tokens: list[Token], last: int) -> int | None:
    """«… сломана | начиная с версии [3.2]», "… fails | since version [3]": a cut that leaves a
    preposition after the verb without the number it names ends before the preposition (and
    a gerund that governs it); the statement is whole without its circumstance. The last word
    kept, or None when nothing is left hanging. `last`: the last word kept at the limit, its
    compound noun finished."""
    if last + 1 >= len(tokens) or tokens[last + 1].pos not in ("NUM", "X"):
        return None  # the phrase is whole, or only its words after the noun are cut
    verb = next(
        (
            i
            for i in range(last, -1, -1)
            if tokens[i].pos in ("VERB", "AUX") and "GRND" not in grammemes(tokens[i].text)
        ),
        None,
    )
    opened = next((i for i in range(last, verb or 0, -1) if tokens[i].pos == "ADP"), None)
    if verb is None or opened is None or opened <= verb:
        return None
    end = opened - 1
    if end > verb and "GRND" in grammemes(tokens[end].text):
        end -= 1  # «начиная с …»
    return end if end >= verb else None


_SPACED = re.compile(r"\S+")
# Words that join two clauses of equal rank.
_COORDINATORS = _wordset("and or but so yet nor и а но или")
_SUBJECT_MODIFIERS = frozenset({"DET", "ADJ", "NUM"})


def _opens_a_clause(tokens: list[Token], i: int) -> bool:
    """tokens[i:] read as a subject and its finite verb: "requesters don't …", "my phone
    never charges", "it logs me out", «кнопка не нажимается»."""
    j = i
    if j < len(tokens) and tokens[j].pos == "PRON":
        j += 1  # "it", "they", or a possessive before its noun ("my phone")
    while j < len(tokens) and tokens[j].pos in _SUBJECT_MODIFIERS:
        j += 1
    nouns = j
    while j < len(tokens) and tokens[j].pos in ("NOUN", "PROPN"):
        j += 1
    if j == i or (j == nouns and tokens[j - 1].pos != "PRON"):
        return False  # no subject: "and fast", "and the"
    while j < len(tokens) and (tokens[j].pos == "ADV" or tokens[j].lower in NEGATORS):
        j += 1  # "never", «не»
    return j < len(tokens) and tokens[j].pos in ("VERB", "AUX")


def first_clause_end(text: str, span: Span, max_words: int) -> int | None:
    """Where the first clause of a span too long for a label ends, when a coordinator or a
    comma opens a second clause within max_words ("the form times out and reviewers don't
    see any of it" → "the form times out"): cut at the word limit, the label would end on a
    dangling word ("… and reviewers don't see any"). None when there is no such boundary."""
    reading = read(text, span)
    tokens = reading.tokens
    for i, token in enumerate(tokens):
        if token.lower not in _COORDINATORS and token.text != ",":
            continue
        before = [t for t in tokens[:i] if t.pos != "PUNCT"]
        if len(before) < 2:
            continue
        end = reading.span(i - 1, i - 1)[1]
        if len(text[span[0] : end].split()) > max_words:
            return None
        after = i + 1
        if token.text == "," and after < len(tokens) and tokens[after].lower in _COORDINATORS:
            after += 1
        if _opens_a_clause(tokens, after):
            return end
    return None


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


def request_spans(text: str, sentence: Span, english: bool) -> list[tuple[int, Span]]:
    """(cue start, phrase) for each request a sentence makes, a suggestion put as a question
    ("why not add …", "how about adding …") among them."""
    cues = list((REQUEST_EN if english else REQUEST_RU).finditer(text, *sentence))
    if english:
        cues += _SUGGESTION.finditer(text, *sentence)
        opening = _IMPERATIVE_REQUEST.match(text, *sentence)
        if opening is not None and not any(c.start() <= opening.end() <= c.end() for c in cues):
            cues.append(opening)
    found = []
    for cue in cues:
        if _HEADING.fullmatch(cue.group()):
            # Under a "Recommendation:" heading the whole statement is what is asked for
            # ("Provide more guidance on fees"), not only the noun phrase that opens it.
            phrase = _heading_statement(text, (cue.end(), sentence[1]))
        else:
            phrase = _object_phrase(text, (cue.end(), sentence[1]), english, asked=True)
        if phrase is not None:
            found.append((cue.start(), phrase))
    return found


# Research write-ups advise in the first person plural, or with no subject at all in notes:
# "we should offer a printable receipt", "should consider adding more filters". What is
# advised is the action itself, verb included.
ADVICE_EN = re.compile(
    r"\b(?:we\s+(?:really\s+)?(?:should|must|ought\s+to)(?:\s+(?:also|still))?"
    r"(?:\s+consider)?|should(?:\s+also)?\s+consider)\s+",
    re.IGNORECASE,
)
# After the cue these verbs state a condition or a duty of care, not something to build.
_NOT_ADVISED = _wordset("be have get keep make do go know think")


def advice_spans(text: str, sentence: Span) -> list[tuple[int, Span]]:
    """(cue start, advised action) for each piece of advice a research sentence gives."""
    found = []
    reading = read(text, sentence)
    tokens = reading.tokens
    for cue in ADVICE_EN.finditer(text, sentence[0], sentence[1]):
        at = next((i for i, t in enumerate(tokens) if t.start + reading.offset >= cue.end()), None)
        if at is None:
            continue
        verb = tokens[at]
        # After a modal the word is a verb whatever the tagger guessed ("should offer").
        if verb.pos not in ("VERB", "NOUN") or not verb.text.islower():
            continue
        if verb.lemma in _NOT_ADVISED:
            continue
        last = _plain_object_end(tokens, at)  # the verb's own object: "adding more filters"
        if last is not None:
            found.append((cue.start(), reading.span(at, last)))
    return found


_HEADING = re.compile(r"recommendations?\W{0,3}:\W{0,3}|рекомендаци[яи]\W{0,3}:\W{0,3}", re.I)
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


@lru_cache(maxsize=8)
def _labels_and_paragraphs(text: str) -> tuple[list[int], list[tuple[int, int]]]:
    """Where the paragraphs of a text open, and its labels: found once per text, not once per
    sentence (a long message has thousands of sentences)."""
    openings = [0, *(m.end() for m in _PARAGRAPH_BREAK.finditer(text))]
    return openings, [m.span() for m in _HEADING.finditer(text)]


def _paragraph_label(text: str, at: int) -> re.Match[str] | None:
    """The first label in the paragraph that holds `at`, before `at`."""
    openings, labels = _labels_and_paragraphs(text)
    opening = openings[bisect.bisect_right(openings, at) - 1]
    first = bisect.bisect_left(labels, (opening, 0))
    if first == len(labels) or labels[first][0] >= at:
        return None
    return _HEADING.search(text, labels[first][0], at)


def recommended_statement(text: str, sentence: Span) -> tuple[int, Span] | None:
    """A later sentence of a paragraph that a "Recommendation:" label opens, when it is an
    instruction ("Consider offering …", "Show the total before checkout"): where the label
    starts (its quote shows it was recommended) and what the sentence asks for."""
    label = _paragraph_label(text, sentence[0])
    if label is None:
        return None
    tokens = read(text, sentence).tokens
    first = next((t for t in tokens if t.pos != "PUNCT"), None)
    if first is None or first.pos != "VERB" or first.lower.endswith(("ing", "ed", "s")):
        return None  # an imperative opens on the verb's bare form
    statement = _heading_statement(text, sentence)
    return None if statement is None else (label.start(), statement)


_STATEMENT_END = re.compile(r"[(;\[]")
_MAX_STATEMENT_WORDS = 16


def _heading_statement(text: str, span: Span) -> Span | None:
    """The statement after a heading, up to a parenthesis or a semicolon, at most 16 words."""
    end = span[1]
    for cut in _STATEMENT_END.finditer(text, span[0], span[1]):
        close = text.find(")", cut.end(), span[1]) if cut.group() == "(" else -1
        if close >= 0 and text[close + 1 : span[1]].strip(" .!?"):
            continue  # "include (MVP) summary of …": an aside inside the statement
        end = cut.start()
        break
    reading = read(text, (span[0], end))
    tokens = reading.tokens[:_MAX_STATEMENT_WORDS]
    first, last = _content_bounds(tokens, 0, len(tokens) - 1)
    if first > last or not any(t.pos in ("NOUN", "PROPN") for t in tokens[first : last + 1]):
        return None
    return reading.span(first, last)


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
_GOOD_FOR = _wordset(
    """great good nice perfect easy easier useful handy helpful ideal convenient simple best
    excellent awesome wonderful fantastic fast quick"""
)
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
_NOT_ACTIVITIES = _wordset(
    """thing things nothing something anything everything morning mornings evening evenings
    during king ring spring string bring sing wing ceiling building"""
)
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


_LIKENESS_BEFORE = _wordset(
    "be is are was were 's look looks looked feel feels felt seem seems just almost exactly "
    "much more kind sort"
)


def _compares(tokens: list[Token], at: int) -> bool:
    """ "like" used as a preposition: after "is", "looks", "just", or tagged so."""
    index = next((i for i, t in enumerate(tokens) if t.start == at), None)
    if index is None or tokens[index].lower != "like":
        return False
    before = tokens[index - 1].lower if index else ""
    return tokens[index].pos == "ADP" or before in _LIKENESS_BEFORE


def _past_form(token: Token) -> bool:
    """A verb in a past form ("decorated", "chose", "designed"): not its base, -s or -ing form."""
    word = token.lower
    if word == token.lemma or word.endswith("ing"):
        return False
    return not (word.endswith("s") and word[:-1].startswith(token.lemma[:-1]))


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
# Verbs that name what a product does for its user even with no object after them ("it syncs
# with my laptop", "won't connect to a hotspot", "videos play in the background"): said of
# the app they are its functions. Any other verb said of a thing with no object tells how
# that thing behaves ("stutters on old phones", "flickers in dark mode", "hovers over the text").
_PRODUCT_FUNCTIONS = _wordset(
    """install uninstall reinstall update upgrade open reopen load reload launch relaunch
    restart refresh login logout signin buffer sync connect upload download play show display
    stream save send notify alert share post print search scroll close import export record
    backup"""
)
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


_POSSESSIVES = _wordset("my your our their his her its")
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


# What a user does to the app itself, the operations reviews rate ("can't install", "the new
# update", "won't open", "have to log in again"): each is a function of the product even as a
# bare verb. Getting the app (download, buy) is not one of its functions.
APP_OPERATIONS = _wordset(
    """install uninstall reinstall update upgrade open reopen load reload launch relaunch
    restart refresh login logout signin buffer"""
)
# "log in", "sign up": the operation is the verb with its particle.
_PHRASAL_OPERATIONS = _wordset("log sign")
_OPERATION_PARTICLES = _wordset("in on out up")
# The devices and platforms an app runs on: where it is used, never one of its features.
DEVICE_WORDS = _wordset(
    """phone phones smartphone cellphone mobile tablet device devices computer computers pc
    laptop desktop mac iphone ipad ipod android kindle galaxy samsung htc nexus blackberry
    windows ios chromebook tv television console playstation ps3 ps4 ps5 xbox wii chromecast
    roku firestick"""
)


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


_DETERMINERS = _wordset("a an the this that these those every each some any no")
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


_ADDRESS_WORDS = _wordset("dear уважаемый дорогой hi hello hey привет здравствуйте")


def addressed(text: str, sentence: Span, start: int, end: int) -> bool:
    """The people named are the ones the text speaks to: "Dear developers, …", «Уважаемые
    разработчики, исправьте …», "Developers, please …". A list of subjects ("Students,
    teachers and parents use it") is not an address."""
    reading = read(text, sentence)
    before = [t for t in _within(reading, sentence[0], start) if t.pos != "PUNCT"]
    named = _within(reading, start, end)
    if any(t.lemma in _ADDRESS_WORDS or t.lower in _ADDRESS_WORDS for t in [*before, *named[:1]]):
        return True
    if before or not text[end:].lstrip().startswith((",", "!")):
        return False
    words = [t for t in _within(reading, end, sentence[1]) if t.pos != "PUNCT"][:3]
    return any(t.lower in _PLEAS or "impr" in grammemes(t.text) for t in words)


# Operating systems, runtimes, languages and version control a report names as its
# environment: what a product runs on or works with, never its rival.
_PLATFORMS = _wordset(
    """windows linux ubuntu debian fedora centos arch mint manjaro macos osx mac android ios
    wsl wsl2 chromeos unix freebsd docker node nodejs python java jdk dotnet .net git github
    gitlab npm pip conda anaconda powershell bash zsh cmd kde gnome"""
)


def modifies_a_subject(text: str, stretch: Span, at: int) -> bool:
    """The Russian preposition at `at` opens a phrase that modifies the nominative noun right
    before it («автодополнение | в Python», «кнопка | на панели»), so the subject reads on."""
    reading = read(text, stretch)
    before = _within(reading, stretch[0], at)
    here = _within(reading, at, stretch[1])[:1]
    if not here or here[0].pos != "ADP" or here[0].text.isascii() or not before:
        return False
    noun = before[-1]
    return noun.pos == "NOUN" and "nomn" in cases(noun.text)


def names_a_platform(name: str) -> bool:
    """ "Windows 11", "Ubuntu", "Python 3.12": the environment, not a rival product."""
    words = name.lower().split()
    return bool(words) and words[0] in _PLATFORMS


# The languages people speak and write, and the words that name a variety of one: what a
# dictionary, a locale or a translation is in, never a rival product.
_HUMAN_LANGUAGES = _wordset(
    """english french german spanish italian portuguese dutch flemish polish russian ukrainian
    belarusian czech slovak hungarian romanian bulgarian greek turkish arabic hebrew persian
    farsi hindi bengali urdu punjabi tamil chinese mandarin cantonese japanese korean
    vietnamese thai indonesian malay filipino swedish norwegian danish finnish icelandic
    estonian latvian lithuanian serbian croatian slovenian bosnian macedonian albanian
    catalan basque galician welsh irish gaelic latin esperanto afrikaans swahili"""
)
_LANGUAGE_VARIETIES = _wordset(
    """british american canadian australian brazilian european swiss austrian belgian
    mexican simplified traditional modern standard"""
)


def names_a_language(name: str) -> bool:
    """ "French", "British English", "Simplified Chinese": a language, not a rival product."""
    words = name.lower().split()
    return (
        bool(words)
        and words[-1] in _HUMAN_LANGUAGES
        and all(w in _HUMAN_LANGUAGES | _LANGUAGE_VARIETIES for w in words)
    )


def names_a_device(phrase: str) -> bool:
    """ "Kindle Fire HD", "my iPhone 6", "HTC mobile": the phrase names a device, not a
    feature (its head, past the model's name, is a device)."""
    found = re.findall(r"[A-Za-z][A-Za-z0-9]*", phrase)
    if len(found) == 1 and found[0][0].isupper() and found[0].lower() in _LONE_MODEL_WORDS:
        return True  # "apps for Fire": the Kindle Fire, named short
    words = [w.lower() for w in found]
    if words[-2:] == ["operating", "system"]:
        return True  # what the device runs, like the device
    while len(words) > 1 and (words[-1] in _MODEL_WORDS or any(c.isdigit() for c in words[-1])):
        words.pop()
    if not words:
        return False
    # "kindle has an application", "iPhone worked better": said of the device
    heads = {words[-1], words[-1].removesuffix("s")}  # "Kindles" too
    return bool(heads & DEVICE_WORDS) or words[0] in _DEVICE_NAMES


# The connection a device has: where the app runs, like the device, never a feature of it.
_DEVICE_CONNECTIONS = _wordset("connection connectivity wifi signal reception network internet")


def names_a_connection(phrase: str) -> bool:
    """ "a good WiFi connection", "poor reception": a noun phrase headed by the device's
    connection ("connect to a hotspot", a verb's phrase, is a function)."""
    words = phrase.split()
    if not words:
        return False
    first = tagged(words[0])[0]
    return first.pos != "VERB" and words[-1].lower() in _DEVICE_CONNECTIONS


# Someone telling their own experience of the product: "I", "my". ("We" and "you" are as
# often a research team writing up its findings.)
_SPEAKERS = _wordset("i my me")


def part_noun_spans(text: str, sentence: Span, parts: frozenset[str]) -> list[Span]:
    """Noun phrases headed by a name of a software part ("the dark theme", "search filters").
    A sentence that names a part is about it whether or not it carries a feeling word: "has a
    lot of popups", "the checkbox option comes in handy" rate the part in words no sentiment
    lexicon scores."""
    reading = read(text, sentence)
    tokens = reading.tokens
    found = []
    for i, token in enumerate(tokens):
        if token.lemma not in parts or not (token.pos == "NOUN" or _adjective_heading(tokens, i)):
            continue
        if _a_failed_screen(tokens, i, i):
            continue  # "only a black screen": what a failure shows, no part of the product
        if i + 1 < len(tokens) and tokens[i + 1].pos == "NOUN":
            if tokens[i + 1].lemma in _FEATURE_HEADS and _no_noun_after(tokens, i + 1):
                # "the backup feature": a word for features names the part before it
                first, _ = _noun_phrase_before(tokens, i) or (i, i)
                found.append(reading.span(first, i + 1))
            continue  # a modifier: the phrase's head comes later ("video quality")
        if _in_complex_preposition(tokens, i):
            continue  # "in order to": a connective, not the part
        if _part_name_as_verb(tokens, i):
            continue
        if token.lemma in _REPORTING and i + 1 < len(tokens) and tokens[i + 1].lower == "that":
            continue  # "I note that …", "staff report that …": a verb of saying, no part
        phrase = (i, i) if token.pos == "ADJ" else _noun_phrase_before(tokens, i)
        if phrase is None:
            continue
        if i + 1 < len(tokens) and tokens[i + 1].pos == "VERB" and _compound_head(tokens, i + 1):
            found.append(reading.span(phrase[0], i + 1))  # "looking for voice calling"
            continue
        span = reading.span(*phrase)
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if token.lemma in _FEATURE_WORDS and after is not None and after.lower in _WHAT_FOR:
            # "the option of muting chats", "options for exporting": the rest says which
            what = _object_phrase(text, (after.start + reading.offset, sentence[1]), True)
            doing = tokens[i + 2] if i + 2 < len(tokens) else None
            if what is not None:
                span = (span[0], what[1])
            elif doing is not None and doing.pos == "VERB" and doing.lower.endswith("ing"):
                span = (span[0], doing.end + reading.offset)  # "options for exporting"
        elif (
            i and _verb_slot(tokens[_before_adverbs(tokens, i)]) and _complement_end(tokens, i) > i
        ):
            # "it shares to any folder": a part's name used as a verb, with what follows
            # (not with the devices it is used on: "syncs with my laptop" is the sync)
            last = _complement_end(tokens, i)
            if not any(t.lower in DEVICE_WORDS for t in tokens[i : last + 1]):
                span = reading.span(i, last)
        else:
            span = _with_its_verb(text, reading, phrase[0], span, sentence[1])
        found.append(span)
    return found


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


# ----------------------------------------------------------------------------- a complaint's words
# A feature is a noun phrase naming a part or function of a product, or a use of it. Words that
# only judge it, or say what went wrong with it, belong to the complaint (or praise) about it,
# not to its name: "slow checkout" names the checkout, "keeps losing my orders" names the
# orders, "syncing problems" names the syncing.

# Adjectives that only judge: praise and blame, no kind of thing ("quick settings" and "free
# trial" name kinds of settings and trials, so "quick", "fast" and "free" are not here).
_JUDGING = _wordset(
    """slow buggy glitchy laggy choppy terrible awful horrible horrid dreadful lousy poor bad
    worse worst useless annoying frustrating confusing clunky clumsy cumbersome tedious awkward
    unintuitive inconvenient ugly hideous pointless worthless mediocre boring dull lame messy
    unreliable unstable unresponsive unusable broken faulty defective flawed sluggish bloated
    cluttered intrusive invasive spammy irritating stupid ridiculous pathetic crappy
    good great nice awesome excellent amazing wonderful fantastic terrific superb brilliant
    perfect lovely beautiful gorgeous cool neat decent best"""
)
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
_QUALITY_OF = _wordset(
    "ease convenience simplicity quality speed lack absence lot lots plenty tons variety "
    "number bunch"
)
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


_TIMES_OF_DAY = _wordset(
    """morning mornings evening evenings night nights afternoon afternoons weekend weekends
    day days week weeks month months year years hour hours minute minutes"""
)


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
_REPORTING = _wordset(
    "see hear notice find think know feel believe realize realise say "
    # verbs of reporting: "testers mention the list is too long"
    "report mention note complain explain state claim describe"
)
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


# The user-story template ("As a <role>, I want <feature>, so that <benefit>") and its
# Russian form ("Как <роль>, я хочу <...>, чтобы <...>"), a standard way to write requirements.
USER_STORY = (
    re.compile(
        r"\bAs\s+an?\s+(?P<role>[^,]{2,60}?),?\s+I\s+(?:want|would\s+like|need|wish|can)\s+"
        r"(?:to\s+)?(?:be\s+able\s+to\s+)?(?P<want>.+?)"
        r"(?:,?\s*(?:so\s+that|in\s+order\s+to)\s+(?P<benefit>.+?))?[.!]?\s*$",
        re.IGNORECASE,
    ),
    re.compile(
        r"(?<!\w)Как\s+(?P<role>[^,]{2,60}?),\s*я\s+(?:хочу|хотел\s+бы|хотела\s+бы)\s+"
        r"(?P<want>.+?)(?:,?\s*чтобы\s+(?P<benefit>.+?))?[.!]?\s*$",
        re.IGNORECASE,
    ),
)
PURPOSE = re.compile(
    r"\b(?:so\s+that\s+(?:I|we|they|you|users?|customers?)\s+(?:can|could|will)|in\s+order\s+to)\s+"
    r"|(?<!\w)чтобы\s+(?:я\s+|мы\s+)?(?:мог(?:ли)?\s+)?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Story:
    role: Span
    want: Span
    benefit: Span | None


def user_story(text: str, sentence: Span) -> Story | None:
    for pattern in USER_STORY:
        match = pattern.search(text, sentence[0], sentence[1])
        if match is not None:
            benefit = match.span("benefit") if match["benefit"] else None
            return Story(match.span("role"), match.span("want"), benefit)
    return None


def clause_span(text: str, span: Span, *, drop_subject: bool = False) -> Span | None:
    """A clause without the function words around it (and its "I can" when asked)."""
    reading = read(text, span)
    tokens = reading.tokens
    first, last = _content_bounds(tokens, 0, len(tokens) - 1)
    while drop_subject and first <= last and tokens[first].pos in ("PRON", "AUX", "PART"):
        first += 1
    if first > last:
        return None
    return reading.span(first, last)


def purpose_spans(text: str, sentence: Span) -> list[tuple[int, Span]]:
    """(cue start, clause) for each "so that I can …" / "in order to …": a job being done."""
    found = []
    for cue in PURPOSE.finditer(text, sentence[0], sentence[1]):
        reading = read(text, (cue.end(), sentence[1]))
        tokens = reading.tokens
        end = next((i for i, t in enumerate(tokens) if t.pos == "PUNCT"), len(tokens))
        first, last = _content_bounds(tokens, 0, min(end, _MAX_LABEL_WORDS + 2) - 1)
        if first > last or not any(t.pos == "VERB" for t in tokens[first : last + 1]):
            continue
        if cue.group().lower().startswith("чтобы") and "INFN" not in grammemes(tokens[first].text):
            continue  # «чтобы он снова появился»: a state of something wanted, no one's job
        found.append((cue.start(), reading.span(first, last)))
    return found


# Markup and machine text that carries no statement: form fields rendered as HTML ("Issue Type:
# <b>Bug</b>"), tags, images and links, web addresses, file paths, code blocks, table rows.
# The endings of the web addresses people name sites by.
_TOP_LEVEL_DOMAINS = (
    "com|org|net|edu|gov|io|dev|app|info|biz|ru|su|ua|by|kz|nl|de|fr|uk|it|es|pl|cz|eu|me|co"
    "|us|ca|au|jp|cn|in|br"
)
_MARKUP = re.compile(
    r"^[^\n:]{1,40}:[ \t]*<(\w+)>[^<\n]*</\1>[ \t]*$"
    r"|```.*?```|<!--.*?-->"
    # a JIRA ticket's code and unformatted blocks: "{code:java}…{code}", "{noformat}…{noformat}"
    r"|\{code(?::[^}\n]*)?\}.*?\{code\}|\{noformat\}.*?\{noformat\}"
    # a form's question with its short answer ("Occurs in safe mode?: Yes")
    r"|^[^\n?]{3,160}\?:[ \t]*[^\n]{0,30}$"
    r"|!?\[[^\]\n]*\]\([^)\n]*\)"
    r"|<[/!]?\w[^<>\n]{0,80}>"
    # a site's name heading the line it reports on: "shop.example.com - Button does not work",
    # with the page it names after it ("shop.example.com - checkout - Total is wrong")
    r"|^[ \t]*[A-Za-z0-9][\w-]*(?:\.[\w-]+)+"
    r"(?:[ \t]+[-–—][ \t]+[\w/-]+(?:[ \t][\w/-]+)?(?=[ \t]+[-–—][ \t]))?(?=[ \t]+[-–—][ \t])"
    r"|\bhttps?://\S+|\bwww\.\S+"
    r"|\b[a-zA-Z]:[\\/][^\s'\"]+|(?<![\w.])(?:[/\\][\w.-]+){2,}[/\\]?"
    r"|^[ \t]*\|.*\|[ \t]*$"
    # code names: dotted identifiers ("editor.formatOnSave", "python.analysis.extraPaths")
    # and percent-encoded strings
    # (not a site's name: "accounts.example.com" is what a statement is about), their
    # trailing stop or colon left to the sentence
    r"|\b(?![\w.-]+\.(?:" + _TOP_LEVEL_DOMAINS + r")\b(?![.\w/]))"
    r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){2,}(?:\S*[^\s.,:;!?)\]])?|\b[a-z]\w*\.[a-z]\w*[A-Z]\w*"
    r"|\S*%[0-9A-Fa-f]{2}\S*"
    # log lines (a time stamp or a bracketed level first) and stack frames: machine output
    r"|^[ \t]*\[?\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}[^\n]*$"
    r"|^[ \t]*\[(?:error|warn|warning|info|debug|trace)\][^\n]*$"
    r"|^[ \t]+at[ \t]+\S[^\n]*[( \t]\S*:\d+(?::\d+)?\)?[ \t]*$"
    # a traceback, its frames, an exception line below the title, a shell prompt's line,
    # and scoped codes ("net::ERR_FAILED")
    r"|^[ \t]*Traceback \(most recent call last\):?[ \t]*$"
    r"|^[ \t]*File \"[^\"\n]*\", line \d+[^\n]*$"
    r"|(?<=\n)[ \t]*(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception)\b[^\n]*$"
    r"|^[ \t]*(?:PS [A-Z]:\\[^>\n]*>|[\w.-]+@[\w.-]+:[^$\n]*\$)[^\n]*$"
    r"|\b\w+::\w+",
    re.MULTILINE | re.DOTALL,
)


def mask_markup(text: str) -> str:
    """The text with markup blanked out, every other character where it was.

    Detectors read the masked text, quotes are cut from the original at the same offsets,
    so a quote stays verbatim while no label is made of markup.
    """
    return _MARKUP.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)


# A character reference in text copied from a web page ("&quot;", "&#34;", "&#x27;", "&amp;"),
# with the rest of the word it stands in ("doesn&#39;t").
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});(\w*)")


def _entity_char(found: re.Match[str]) -> str:
    """The one character a reference stands for, or "" when it is no known reference."""
    reference = found.group()[: len(found.group()) - len(found[1])]
    char = html.unescape(reference)
    return char if len(char) == 1 and char != reference else ""


def entity_spans(text: str) -> list[Span]:
    """Where the text holds character references, each with the rest of its word."""
    return [m.span() for m in _ENTITY.finditer(text) if _entity_char(m)]


def read_entities(text: str) -> str:
    """The text with each character reference read as its character, every offset kept.

    The character is padded with spaces to the reference's length, on the side away from the
    word it belongs to: an opening quote stays before its word ('    "Save'), a closing one
    after it ('Save"    '), and one inside a word joins its two halves ("doesn't    "). The
    analysis sees quotes and apostrophes where they are; quotes are still cut from the text
    as it came, widened by outside_entities.
    """

    def one(found: re.Match[str]) -> str:
        char = _entity_char(found)
        if not char:
            return found.group()
        rest = found[1]
        padding = " " * (len(found.group()) - len(rest) - 1)
        if not rest:
            return char + padding  # a closing quote, or one between spaces
        if text[found.start() - 1 : found.start()].isalnum():
            return char + rest + padding  # inside a word: "don't", "Q&A"
        return padding + char + rest  # an opening quote before its word

    return _ENTITY.sub(one, text)


def outside_entities(span: Span, entities: list[Span]) -> Span:
    """A span widened so that it neither starts nor ends inside a character reference or the
    part of a word read_entities moved."""
    start, end = span
    for first, last in entities:
        if first < start < last:
            start = first
        if first < end < last:
            end = last
    return start, end


_QUESTION_WORDS = frozenset(("how", "what", "which", "that", "why", "when", "where"))
GENERIC_PROBLEMS = _wordset(
    "problem problems issue issues bug bugs error errors trouble "
    "проблема проблемы ошибка ошибки ошибко баг баги"
)


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
_UNITS = _wordset(
    "second minute hour day week month year percent per cent dollar euro pound time "
    "секунда минута час день неделя месяц год процент рубль доллар евро раз"
)


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
_TROUBLE = _wordset(
    """annoying annoy frustrating frustrate irritating irritate problem issue bug nuisance
    inconvenient terrible awful horrible unacceptable wrong incorrect weird strange
    мешать раздражать бесить напрягать неудобно неудобный неприятно неприятный проблема баг
    ошибка ужасно ужасный неприемлемо неприемлемый неправильно некорректно странно"""
)
# «не удобно», «не приятно»: written apart, the negated comfort is the trouble word.
_COMFORT = _wordset("удобно удобный приятно приятный комфортно")
# What may stand around such a word without saying anything of its own.
_JUDGEMENT_FRAME = _wordset(
    """be is are was a an the very really so quite extremely pretty big huge major real serious
    how can could do does i we one to please
    очень сильно крайне реально просто большой больший серьёзный серьезный настоящий
    представлять являться стать быть как можно мне подскажите пожалуйста"""
)
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
_NOTHING_HAPPENS = _wordset(
    """nothing happen change anything then
    ничего ничто происходить измениться меняться большой просто"""
)
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
_ERROR_PAGE_WORDS = _wordset(
    "page not found error lead leads to the a site страница страницу не найдена найдено ошибка "
    "ошибку ведёт ведут на"
)
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
_OCCURRING = _wordset(
    """happen occur appear exist see saw seen have get experience notice face reproduce show
    be persist remain arise возникать возникнуть происходить произойти появляться появиться
    быть наблюдаться видеть иметь сохраняться остаться оставаться находить найти встречать
    встретить замечать заметить
    discover find notice encounter observe introduce start begin
    обнаружить заметить столкнуться начаться"""
)


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
