"""Organisations in customer texts, in both languages: the company the writer deals with or
complains of is the product of that research, one used, compared with or moved to is a
competitor, and a Russian name in any case is recorded in the nominative.

Examples are invented for these tests; none is taken from the evaluation data.
"""

from __future__ import annotations

import pytest

from kg.llm.offline.extractor import extract_offline
from kg.llm.offline.named_organisations import _nominative
from kg.llm.prompts.extraction_models import ExtractionRequest


def _nodes(text: str, language: str, product: str = "") -> list[tuple[str, str]]:
    answer = extract_offline(ExtractionRequest(text=text, language=language, product=product))
    return [(n.type, n.label) for n in answer.nodes]


@pytest.mark.parametrize(
    ("written", "nominative"),
    [
        ("Билайне", "Билайн"),
        ("Ростелекома", "Ростелеком"),
        ("Альфа-Банке", "Альфа-Банк"),
        ("Сбера", "Сбер"),
        ("Мегафоном", "Мегафон"),
        ("МТС", "МТС"),
        ("Тинькофф", "Тинькофф"),
    ],
)
def test_a_russian_name_is_recorded_in_the_nominative(written, nominative):
    assert _nominative(written) == nominative


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Ушёл в Билайн: в МТС постоянно пропадает связь на даче.",
            {("competitor", "Билайн"), ("product", "МТС")},
        ),
        (
            "В Ростелекоме третий день не работает домашний интернет.",
            {("product", "Ростелеком")},
        ),
        ("Сбербанк заблокировал мне карту без объяснений.", {("product", "Сбербанк")}),
        ("МТС, верните деньги за подписку!", {("product", "МТС")}),
        (
            "Пользуюсь Тинькофф вместо Сбера, там переводы проходят сразу.",
            {("competitor", "Тинькофф"), ("product", "Сбер")},
        ),
        (
            "У Мегафона связь за городом намного лучше, чем у Ростелекома.",
            {("competitor", "Мегафон"), ("product", "Ростелеком")},
        ),
    ],
)
def test_russian_organisations_by_role(text, expected):
    nodes = set(_nodes(text, "ru"))
    assert expected <= nodes, nodes


def test_a_named_organisation_is_no_feature():
    nodes = _nodes("МТС, верните деньги за подписку!", "ru")
    assert not [n for n in nodes if n[0] == "feature" and "МТС" in n[1]], nodes


def test_a_rival_of_the_projects_product_complained_of_is_a_competitor():
    nodes = set(_nodes("В Билайне опять списали деньги за роуминг.", "ru", product="МТС"))
    assert ("competitor", "Билайн") in nodes, nodes
    assert ("product", "Билайн") not in nodes


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Northwind Bank charged me an overdraft fee twice this month.",
            ("product", "Northwind Bank"),
        ),
        (
            "I called Bank of Avalon four times and nobody could help.",
            ("product", "Bank of Avalon"),
        ),
    ],
)
def test_the_company_an_english_writer_complains_of_is_the_product(text, expected):
    nodes = _nodes(text, "en")
    assert expected in nodes, nodes
    assert not [n for n in nodes if n[0] == "feature" and expected[1] in n[1]], nodes


@pytest.mark.parametrize(
    "text",
    [
        "Иван из Москвы звонил в поддержку, но ему не ответили.",
        "В Windows 11 приложение не запускается.",
        # a dictionary's noun with a capital: a section of a program, a title
        "Поиск в Справке не находит ничего.",
        "example.org - Меню не открывается после входа.",
        "VPN не подключается после обновления.",
    ],
)
def test_people_places_platforms_and_sections_are_no_organisation(text):
    nodes = _nodes(text, "ru")
    assert not [n for n in nodes if n[0] in ("product", "competitor")], nodes


@pytest.mark.parametrize(
    ("text", "pain"),
    [
        (
            "В Ростелекоме третий день не работает домашний интернет.",
            "не работает домашний интернет",
        ),
        ("У МТС опять пропала связь в метро.", "опять пропала связь в метро"),
    ],
)
def test_a_pain_is_labelled_without_the_company_it_happens_with(text, pain):
    nodes = _nodes(text, "ru")
    pains = [label for type_, label in nodes if type_ == "pain"]
    assert any(pain in label for label in pains), nodes
    assert not any("МТС" in label or "Ростелеком" in label for label in pains), pains
