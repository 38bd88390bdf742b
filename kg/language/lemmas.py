"""Lemmas and content words: what two phrases must share to say the same thing."""

from __future__ import annotations

import re
from functools import lru_cache

import pymorphy3
import simplemma

_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


_WORD = re.compile(r"[\w][\w'’-]*", re.UNICODE)

# Function words carry no content of their own (general lists, not tuned on any text).
STOPWORDS_EN = _wordset(
    """a an the and or but if then else of to in on at by for with from into onto over under
    about after before between through during without within as than so such that this these
    those there here it its it's they them their theirs we us our ours you your yours he him his
    she her hers i me my mine is are was were be been being am do does did doing done have has
    had having will would shall should can could may might must not no nor never too very just
    also only even still yet all any some each every both either neither more most much many
    other another own same what which who whom whose when where why how up down out off again
    further once get got gets getting let lets make makes made one ones thing things way really
    quite rather lot lots please pls plz"""
)
STOPWORDS_RU = _wordset(
    """и или но а да если то же ли бы в во на по к ко с со у о об от до из за для при про над
    под через без между как так что чтобы чем это этот эта эти тот та те там тут здесь он она
    оно они мы вы я ты его её ее их нас вас мне меня мой моя моё мои твой наш ваш свой быть есть
    был была было были будет будут не ни нет уже ещё еще очень только тоже также даже все всё
    весь вся всё каждый любой какой который кто где когда почему зачем можно нужно надо вот
    просто пожалуйста спасибо"""
)


# Lemmas that say nothing about which thing is meant: light verbs, words for "a problem",
# the product itself, and vague qualities. General lists, not taken from any data set.
GENERIC = _wordset(
    """work use make do take give go come get have need want try seem keep start stop show see
    look find put set happen cause allow able unable issue problem bug error fail failure broken
    wrong bad good great nice new old time way case thing stuff something anything nothing user
    people someone anyone everyone always often sometimes again now anymore app application
    program software tool product version edition feature support help
    работать делать сделать использовать стать перестать начать мочь хотеть пытаться получаться
    получиться происходить произойти появляться появиться проблема ошибка баг вопрос помощь
    помочь нужный плохой хороший новый старый время раз случай вещь человек пользователь всегда
    часто иногда снова постоянно сейчас теперь приложение программа версия функция давать
    дать получать получить брать взять иметь казаться держать показывать показать видеть
    увидеть найти находить позволять позволить удаваться удаться возможно невозможно
    неправильный неправильно некорректный некорректно неверный неверно ломаться сломаться"""
)


def is_cyrillic(text: str) -> bool:
    return bool(_CYRILLIC.search(text))


@lru_cache(maxsize=1)
def russian_morphology() -> pymorphy3.MorphAnalyzer:
    """The one Russian morphological analyser of the process (its dictionaries load once)."""
    return pymorphy3.MorphAnalyzer()


@lru_cache(maxsize=200_000)
def lemma(word: str) -> str:
    """The dictionary form of one word; its script chooses the language."""
    lowered = word.lower().replace("ё", "е").strip("'’-")
    if not lowered:
        return ""
    if is_cyrillic(lowered):
        return russian_morphology().parse(lowered)[0].normal_form.replace("ё", "е")
    if not lowered.isalpha():
        return lowered
    return simplemma.lemmatize(lowered, lang="en").lower()


@lru_cache(maxsize=200_000)
def is_english_word(word: str) -> bool:
    """The word is in the English dictionary (a name coined for a product usually is not)."""
    lowered = word.lower().strip("'’-")
    return bool(lowered) and simplemma.is_known(lowered, lang="en")


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def is_stopword(lemma_: str) -> bool:
    return lemma_ in STOPWORDS_EN or lemma_ in STOPWORDS_RU


def content_lemmas(text: str) -> frozenset[str]:
    """Lemmas of the words that carry meaning (no function words, no bare numbers)."""
    found = set()
    for word in words(text):
        base = lemma(word)
        if base and not is_stopword(base) and not base.isdigit() and len(base) > 1:
            found.add(base)
    return frozenset(found)


_HYPHENS = re.compile(r"[-‐‑–—]")


def part_lemmas(text: str) -> frozenset[str]:
    """Content lemmas with the parts of hyphenated words apart ("B2B-рынок" → b2b, рынок)."""
    return content_lemmas(_HYPHENS.sub(" ", text))


def said_lemmas(text: str) -> frozenset[str]:
    """Everything a text can be said to name: its content lemmas, whole and in parts."""
    return content_lemmas(text) | part_lemmas(text)


def lemma_key(text: str) -> str:
    """An order-free key of a phrase's content lemmas: 'owners of salons' = 'salon owner'."""
    return " ".join(sorted(content_lemmas(text)))
