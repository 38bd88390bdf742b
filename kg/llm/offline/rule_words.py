"""The word lists many rules of the offline engine read, the longer ones kept in words/.

General language knowledge, written without reading any test text: negators ("not", «не»),
words that name a malfunction by themselves ("crash", «тормозить»), verbs of a function that
are a problem when negated ("open", «запускаться»), request and ability cues, and generic
verbs and nouns ("app", "thing", "update") too general to be a label alone. Kinds of label:
none directly; the rules that make labels read these lists.
Example: in "the export never finishes" the negator "never" before the function verb
"finish" makes the clause a pain, labelled "export never finishes".
"""

from __future__ import annotations

import re

from kg.llm.offline.reading import _wordset, listed

NEGATORS = _wordset(listed("negators"))

# Words that describe a malfunction or a difficulty by themselves.
PROBLEM_LEMMAS = _wordset(listed("problem_lemmas"))

# Verbs whose absence is a problem when negated ("doesn't open", «не запускается»).
FUNCTION_LEMMAS = _wordset(listed("function_lemmas"))

# Verbs of liking: negated, they are a complaint ("I don't like the new layout", "wasn't worth
# it").
LIKING_LEMMAS = _wordset("like love enjoy recommend worth")

# Qualities a product should have: negated, they are a complaint ("sound not clear").
QUALITY_LEMMAS = _wordset(listed("quality_lemmas"))

# Verbs that follow "can't" in praise or in idioms, not in a failure: "can't live without it",
# "can't complain", "can't wait", "can't beat the price", "can't go wrong", "can't say enough",
# "can't put it down", "can't help smiling", "can't think of a flaw".
NOT_INABILITY = _wordset(listed("not_inability"))

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
GENERIC_VERBS = _wordset(listed("generic_verbs"))

# Nouns that name the product as a whole or the review, never one of its features.
GENERIC_NOUNS = _wordset(listed("generic_nouns"))

_PHRASE_STOPS = _wordset(listed("phrase_stops"))

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


_SUBJECT_PRONOUNS = _wordset("i we he she they я мы он она они")
