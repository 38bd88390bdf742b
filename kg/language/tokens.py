"""Tokens with character offsets, universal part-of-speech tags and lemmas."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

from textblob.en import lexicon
from textblob.en.taggers import PatternTagger

from kg.language.lemmas import is_cyrillic, lemma, russian_morphology

# A key combination ("Ctrl+Shift+K"), a version or a decimal ("1.86", "2,5") and a file
# extension (".tsx") are one token: their plus or dot ends no word, sentence or phrase.
_TOKEN = re.compile(
    r"(?i:\b(?:ctrl|shift|alt|cmd|option|win|meta|fn)(?:\+\w+)+)|"
    r"\d+(?:[.,]\d+)+\b|(?<![\w.])\.[A-Za-z]\w{0,5}\b|\w+?(?=n['’]t\b)|n['’]t\b|"
    r"\w+(?:[-'’]\w+)*|[^\w\s]",
    re.UNICODE,
)

# Penn Treebank tags (TextBlob) → a small universal set.
_PENN = {
    "NN": "NOUN", "NNS": "NOUN", "NNP": "PROPN", "NNPS": "PROPN",
    "VB": "VERB", "VBD": "VERB", "VBG": "VERB", "VBN": "VERB", "VBP": "VERB", "VBZ": "VERB",
    "MD": "AUX", "JJ": "ADJ", "JJR": "ADJ", "JJS": "ADJ", "RB": "ADV", "RBR": "ADV", "RBS": "ADV",
    "RP": "PART", "TO": "PART", "PRP": "PRON", "PRP$": "PRON", "WP": "PRON", "WP$": "PRON",
    "DT": "DET", "PDT": "DET", "WDT": "DET", "IN": "ADP", "CC": "CONJ", "CD": "NUM",
    "EX": "PRON", "UH": "INTJ", "FW": "X", "SYM": "SYM", "LS": "X", "WRB": "ADV",
}  # fmt: skip
# OpenCorpora tags (pymorphy3) → the same set.
_OPENCORPORA = {
    "NOUN": "NOUN", "ADJF": "ADJ", "ADJS": "ADJ", "COMP": "ADJ", "VERB": "VERB", "INFN": "VERB",
    "PRTF": "ADJ", "PRTS": "VERB", "GRND": "VERB", "NUMR": "NUM", "ADVB": "ADV", "NPRO": "PRON",
    "PRED": "ADV", "PREP": "ADP", "CONJ": "CONJ", "PRCL": "PART", "INTJ": "INTJ",
}  # fmt: skip
_AUXILIARIES = frozenset(("be", "is", "are", "was", "were", "been", "being", "am"))
_AUXILIARIES |= {"do", "does", "did", "have", "has", "had"}


@dataclass(frozen=True)
class Token:
    text: str
    start: int
    end: int
    pos: str  # NOUN PROPN VERB AUX ADJ ADV PRON DET ADP CONJ PART NUM PUNCT SYM INTJ X
    lemma: str

    @cached_property  # read thousands of times per message by the rules
    def lower(self) -> str:
        # read many times per token by the rules: computed once
        return self.text.lower()


@lru_cache(maxsize=1)
def _tagger() -> PatternTagger:
    return PatternTagger()


def analyse(text: str) -> list[Token]:
    """Tag one sentence; each word chooses its language by its script."""
    return list(tagged(text))


@lru_cache(maxsize=8192)
def tagged(text: str) -> tuple[Token, ...]:
    # The rules read a sentence, its clauses and the labels cut from them several times
    # over: each text is tagged once.
    spans = [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]
    latin = [s for s in spans if not is_cyrillic(s[0])]
    english = _english_tags([s[0] for s in latin]) if latin else []
    tags = iter(english)
    names = _names_in_russian(spans)
    tokens = []
    for index, (word, start, end) in enumerate(spans):
        if is_cyrillic(word):
            pos = _russian_pos(word)
        else:
            pos = next(tags, "X")
            if pos in ("VERB", "AUX") and word.lower() in _AUXILIARIES:
                pos = "AUX"
            if index in names and pos != "PUNCT":
                pos = "PROPN"
        tokens.append(Token(word, start, end, pos, lemma(word) if pos != "PUNCT" else word))
    return tuple(tokens)


_SENTENCE_ENDS = frozenset(".!?")
_NAME_RUN = 2


def _names_in_russian(spans: list[tuple[str, int, int]]) -> set[int]:
    """Latin words standing one or two together among Russian ones are names ("проблема с
    git", "плагин Color Picker"): a name, not English grammar, whatever the English tagger
    would read in a lone word."""
    if not any(is_cyrillic(word) for word, _, _ in spans):
        return set()
    names: set[int] = set()
    run: list[int] = []
    for index, (word, _, _) in enumerate([*spans, ("я", 0, 0)]):
        if is_cyrillic(word):
            if 0 < len(run) <= _NAME_RUN:
                names.update(run)
            run = []
        elif any(ch.isalpha() for ch in word):
            run.append(index)
    return names


def _english_tags(words: list[str]) -> list[str]:
    tagged = _tagger().tag(" ".join(words), tokenize=False)
    if len(tagged) != len(words):  # the tagger re-split something: tag word by word
        tagged = [(w, (_tagger().tag(w, tokenize=False) or [(w, "FW")])[0][1]) for w in words]
    result = []
    for index, (word, tag) in enumerate(tagged):
        if tag.startswith("NNP") and word[:1].isupper() and word[1:].islower():
            opens = index == 0 or tagged[index - 1][0] in _SENTENCE_ENDS
            common = lexicon.get(word.lower()) if opens else None
            # "Videos won't load": a capital that only opens the sentence makes no name
            tag = common if common and not common.startswith("NNP") else tag
        if _subject_first(tagged, index, tag):
            tag = "NN"
        if not any(ch.isalnum() for ch in word):
            result.append("PUNCT")
        elif word.lower() in ("n't", "n’t"):
            result.append("PART")
        else:
            result.append(_PENN.get(tag, "X"))
    return result


def _subject_first(tagged: list[tuple[str, str]], index: int, tag: str) -> bool:
    """ "Search takes ages": a finite verb right after the word that opens the sentence makes
    that word its subject, not an imperative."""
    if index != 0 or tag != "VB" or not tagged[0][0][:1].isupper() or len(tagged) < 2:
        return False
    return tagged[1][1] in ("VBZ", "VBD", "MD")


@lru_cache(maxsize=100_000)
def _russian_pos(word: str) -> str:
    if not any(ch.isalnum() for ch in word):
        return "PUNCT"
    tag = russian_morphology().parse(word.lower())[0].tag
    if "Name" in tag or "Surn" in tag or "Geox" in tag:
        return "PROPN"
    return _OPENCORPORA.get(str(tag.POS), "X")


@lru_cache(maxsize=100_000)
def grammemes(word: str) -> frozenset[str]:
    """A Russian word's most likely grammemes ("3per", "past", "impr", "1per"); none for other
    scripts. Rules read person, tense and mood from them ("не открывается" against "не
    открывайте")."""
    if not is_cyrillic(word):
        return frozenset()
    return frozenset(russian_morphology().parse(word.lower())[0].tag.grammemes)


_CASES = frozenset({"nomn", "gent", "datv", "accs", "ablt", "loct", "voct", "gen2", "acc2", "loc2"})


@lru_cache(maxsize=100_000)
def may_name_a_person(word: str) -> bool:
    """Some parse of a Russian noun is animate («менеджеры», «юзер»); tools named by
    borrowed words with a person's suffix are not («линтер», «дебагер», «браузер»)."""
    if not is_cyrillic(word):
        return False
    return any(parse.tag.animacy == "anim" for parse in russian_morphology().parse(word.lower()))


_LIKELY_PARSE = 0.15  # pymorphy's score: a reading the word takes often enough to count


@lru_cache(maxsize=100_000)
def may_be_a_subject(word: str) -> bool:
    """A Russian noun or pronoun one of whose likely readings is nominative («терминал»,
    «поля»), not a form that is only rarely one («клавиш», «в»)."""
    if not is_cyrillic(word):
        return False
    return any(
        parse.score >= _LIKELY_PARSE
        and parse.tag.POS in ("NOUN", "NPRO")
        and parse.tag.case == "nomn"
        for parse in russian_morphology().parse(word.lower())
    )


@lru_cache(maxsize=100_000)
def cases(word: str) -> frozenset[str]:
    """Every case a Russian word's parses allow («окно» is nominative or accusative)."""
    if not is_cyrillic(word):
        return frozenset()
    return frozenset(
        g
        for parse in russian_morphology().parse(word.lower())
        for g in parse.tag.grammemes
        if g in _CASES
    )


_ATTRIBUTES = frozenset({"ADJF", "PRTF"})  # full adjectives and participles agree with the noun


def in_the_nominative(phrase: str) -> str:
    """A Russian noun phrase a verb left in the accusative or genitive («добавьте тёмную тему»,
    «не хватает поддержки Markdown»), put in the nominative by its opening words: the noun
    that heads it and the adjectives before it («тёмная тема», «поддержка Markdown»). Words
    after the head keep their case. A head that may already be nominative («интерфейс»,
    «темы») is left as it is, and so is any phrase pymorphy cannot inflect."""
    words = phrase.split(" ")
    morph = russian_morphology()
    head = _opening_noun(words)
    if head is None:
        return phrase
    noun = morph.parse(words[head].lower())[0]
    if noun.tag.case not in ("accs", "gent") or may_be_a_subject(words[head]):
        return phrase
    shown = []
    for word in words[:head]:
        agreeing = [
            p
            for p in morph.parse(word.lower())
            if p.tag.POS in _ATTRIBUTES
            and p.tag.case == noun.tag.case
            and p.tag.number == noun.tag.number
            and (noun.tag.number == "plur" or p.tag.gender == noun.tag.gender)
        ]
        nominative = agreeing[0].inflect({"nomn"}) if agreeing else None
        if nominative is None:
            return phrase
        shown.append(nominative.word)
    nominative = noun.inflect({"nomn"})
    if nominative is None:
        return phrase
    shown.append(nominative.word)
    shown = [_spelled_like(new, old) for new, old in zip(shown, words, strict=False)]
    return " ".join([*shown, *words[head + 1 :]])


def _opening_noun(words: list[str]) -> int | None:
    """Where the noun that heads a phrase stands, when only adjectives come before it."""
    for index, word in enumerate(words):
        if not is_cyrillic(word) or not word.isalpha():
            return None
        pos = russian_morphology().parse(word.lower())[0].tag.POS
        if pos == "NOUN":
            return index
        if pos not in _ATTRIBUTES:
            return None
    return None


def _spelled_like(word: str, original: str) -> str:
    """The inflected word written as the original was: «е» for «ё» where the writer used it,
    a capital where the writer put one."""
    if "ё" not in original.lower():
        word = word.replace("ё", "е")
    return word[:1].upper() + word[1:] if original[:1].isupper() else word
