"""The word lists every rule of the offline engine reads, and how a sentence is read once.

General language knowledge, written without reading any test text: negators ("not", «не»),
words that name a malfunction by themselves ("crash", «тормозить»), verbs of a function that
are a problem when negated ("open", «запускаться»), request and ability cues, and generic
verbs and nouns ("app", "thing", "update") too general to be a label alone. `read` tags a
sentence once (part of speech, lemma) for all the rules; `polarity` is VADER's sentiment.
Kinds of label: none directly; every rule reads these lists.
Example: in "the export never finishes" the negator "never" before the function verb
"finish" makes the clause a pain, labelled "export never finishes".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

from kg.language import Token, tagged

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
