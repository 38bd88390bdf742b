"""Russian word vectors in the offline "same thing?" confirmation: paraphrases of one problem
merge, different problems that share a complaint or a related word stay apart, and without the
vectors file the confirmation falls back to shared words."""

from __future__ import annotations

import logging
import sys

import pytest

from kg.language import vectors
from kg.llm.offline.similarity import same_thing


@pytest.fixture
def fresh_vectors():
    """Drop the loaded vectors before and after a test that replaces where they come from."""
    vectors._vectors.cache_clear()
    vectors._unit.cache_clear()
    yield
    vectors._vectors.cache_clear()
    vectors._unit.cache_clear()


def test_the_vectors_ship_with_an_installed_package():
    assert vectors.vectors_path() is not None
    assert vectors.available()
    # located and read without importing natasha (which needs pymorphy2)
    assert "natasha" not in sys.modules


def test_word_similarity_sees_synonyms_and_refuses_other_kinds_of_closeness():
    assert vectors.word_similarity("экран", "дисплей") >= 0.6
    assert vectors.word_similarity("сервер", "сервер") == 1.0
    # a prefix turns an action into another one, however close the vectors
    assert vectors.prefix_variants("открывать", "закрывать")
    assert vectors.prefix_variants("доступный", "недоступный")
    assert not vectors.prefix_variants("экран", "дисплей")
    assert vectors.word_similarity("входить", "выходить") == 0.0
    # a collocate is not a synonym: an adjective never stands in for a noun
    assert vectors.word_class("русский") == "adjective"
    assert vectors.word_class("язык") == "noun"
    assert vectors.word_similarity("русский", "язык") == 0.0
    # Latin words and words without a vector are not compared
    assert vectors.word_similarity("server", "сервер") is None
    assert vectors.word_similarity("экран", "щырбдык") is None


def test_function_words_take_no_part():
    assert vectors.word_class("другой") is None  # a pronominal adjective
    assert vectors.word_class("нельзя") is None
    assert vectors.content_words({"другой", "экран", "SLOW", "wifi"}) == {"экран", "SLOW", "wifi"}


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("экран гаснет во время звонка", "дисплей гаснет во время звонка"),
        ("нельзя изменить адрес доставки", "невозможно поменять адрес доставки"),
    ],
)
def test_a_russian_paraphrase_is_the_same_problem(a, b):
    assert same_thing(a, b, "pain")[0]
    assert same_thing(b, a, "pain")[0]
    assert same_thing(a, b)[0]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # only the complaint is shared
        ("не работает поиск товаров", "не работает оплата заказа"),
        ("ошибка при входе в аккаунт", "ошибка при сохранении файла"),
        ("не работает вход в приложение", "не работает выход из приложения"),
        # neighbours in a series and opposites: close in the vectors, different bugs
        ("не работает клавиатура ноутбука", "не работает мышь ноутбука"),
        ("пропадает верхняя панель", "пропадает нижняя панель"),
        ("забыл пароль от кабинета", "забыл логин от кабинета"),
        ("не открывается файл настроек", "не закрывается файл настроек"),
        ("не печатаются русские буквы", "не печатаются английские буквы"),
        ("не включается светлая тема", "не включается тёмная тема"),
        ("не приходят уведомления о заказах", "не приходят письма о заказах"),
        # one informative word is too little to tell
        ("экран", "дисплей"),
    ],
)
def test_different_russian_problems_stay_apart(a, b):
    assert not same_thing(a, b, "pain")[0]
    assert not same_thing(b, a, "pain")[0]


def test_paraphrase_needs_agreeing_codes_and_a_type_that_allows_it():
    a, b = "экран гаснет во время звонка", "дисплей гаснет во время звонка"
    assert not same_thing(f"{a} в версии 12", f"{b} в версии 13", "pain")[0]
    assert not same_thing(f"{a} в версии 12", b, "pain")[0]
    # names of offerings and numeric facts never merge through vectors
    for node_type in ("feature", "product", "competitor", "alternative", "metric", "goal"):
        assert not same_thing(a, b, node_type)[0], node_type


def test_english_is_not_compared_by_vectors(fresh_vectors):
    assert not same_thing("screen goes dark during a call", "display goes dark during a call")[0]
    assert vectors._vectors.cache_info().currsize == 0  # not even loaded


def test_without_the_vectors_file_the_confirmation_keeps_to_shared_words(
    fresh_vectors, monkeypatch, caplog
):
    monkeypatch.setattr(vectors, "vectors_path", lambda: None)
    with caplog.at_level(logging.WARNING, logger="kg.language.vectors"):
        paraphrase = same_thing("экран гаснет во время звонка", "дисплей гаснет во время звонка")
        shared = same_thing("экран гаснет во время звонка", "во время звонка гаснет экран")
    assert paraphrase[0] is False
    assert shared[0] is True
    assert not vectors.available()
    assert vectors.similarity({"экран", "гаснуть"}, {"дисплей", "гаснуть"}) is None
    assert "word vectors not found" in caplog.text


def test_a_crash_in_russian_is_one_theme_in_any_form():
    # the signature reads lemmas («падать»), the crude stems read forms («падает»): both count
    assert same_thing("редактор падает при сохранении", "редактор вылетает при сохранении", "pain")[
        0
    ]
