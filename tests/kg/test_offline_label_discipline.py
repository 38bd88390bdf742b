"""What no label of the offline engine may be, in either language: a bare generic noun as a
feature, a workaround's action as a requirement, the study's own work, a redaction mask, a
date, thanks for joining, or a statute's citation.

Examples are invented for these tests; none is taken from the evaluation data.
"""

from __future__ import annotations

import re

import pytest

from kg.llm.offline.extractor import extract_offline
from kg.llm.prompts.extraction_models import ExtractionRequest


def _nodes(text: str, language: str = "en") -> list[tuple[str, str]]:
    answer = extract_offline(ExtractionRequest(text=text, language=language, product=""))
    return [(n.type, n.label) for n in answer.nodes]


def _labels(text: str, kind: str, language: str = "en") -> list[str]:
    return [label for type_, label in _nodes(text, language) if type_ == kind]


@pytest.mark.parametrize(
    ("text", "language", "kept"),
    [
        ("Night nurses want a dark mode for late rounds.", "en", "dark mode"),
        ("Parents want a quiet mode during lessons.", "en", "quiet mode"),
    ],
)
def test_a_generic_head_keeps_its_modifier(text, language, kept):
    features = _labels(text, "feature", language)
    assert kept in features, features
    assert kept.split()[-1] not in features


@pytest.mark.parametrize(
    ("text", "language", "bare"),
    [
        ("The settings are confusing and the design is dated.", "en", {"settings", "design"}),
        ("Please give my money back.", "en", {"money"}),
        ("Верните деньги, пожалуйста.", "ru", {"деньги"}),
        ("Добавьте режим.", "ru", {"режим"}),
    ],
)
def test_a_bare_generic_noun_is_no_feature(text, language, bare):
    features = set(_labels(text, "feature", language))
    assert not features & bare, features


def test_what_is_done_with_another_tool_is_a_job_not_a_requirement():
    text = "He tracks late pickups in a paper notebook today."
    nodes = _nodes(text)
    assert ("alternative", "paper notebook") in nodes, nodes
    assert not any(t == "feature" and "tracks late pickups" in label for t, label in nodes)
    assert any(t == "job" and "tracks late pickups" in label for t, label in nodes), nodes


def test_a_feature_asked_for_stays_one_beside_a_workaround():
    text = "Please let me export invoices to a spreadsheet."
    assert any("export invoices" in label for label in _labels(text, "feature"))


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("We updated our journey map after the third session.", "en"),
        ("The team is drafting the readout for the steering group.", "en"),
        ("Next week we will submit to the review board.", "en"),
        ("Мы обновили карту пути клиента и подготовили отчёт.", "ru"),
    ],
)
def test_the_studys_own_work_is_no_finding(text, language):
    nodes = _nodes(text, language)
    assert not [n for n in nodes if n[0] in ("feature", "job", "pain", "segment")], nodes


def test_people_a_study_interviewed_stay_its_segment():
    text = "We interviewed nine pharmacy owners who cannot see stock levels across branches."
    nodes = _nodes(text)
    assert ("segment", "pharmacy owners") in nodes, nodes
    assert not any(label.startswith("interviewed") for _, label in nodes), nodes


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Thanks for joining us today, it's great to have you.", "en"),
        ("Thank you so much for taking the time to talk with us.", "en"),
        ("Спасибо, что пришли к нам сегодня.", "ru"),
    ],
)
def test_thanks_for_joining_is_no_finding(text, language):
    nodes = _nodes(text, language)
    assert not [n for n in nodes if n[0] in ("feature", "job", "pain")], nodes


def test_thanks_for_a_feature_still_names_it():
    assert any("offline maps" in f for f in _labels("Thanks for adding offline maps!", "feature"))


@pytest.mark.parametrize(
    ("text", "language"),
    [
        (
            "Under the Fair Credit Reporting Act, 15 U.S.C. 1681, the agency must correct "
            "inaccurate items and cannot report them again.",
            "en",
        ),
        (
            "Согласно ст. 16 Закона о защите прав потребителей банк не может навязывать "
            "страховку клиентам.",
            "ru",
        ),
    ],
)
def test_a_citation_of_law_is_no_finding(text, language):
    nodes = _nodes(text, language)
    assert not [n for n in nodes if n[0] in ("feature", "job", "pain", "segment")], nodes


_MASK_OR_DATE = re.compile(r"XX|\*\*\*|\d{1,2}/\d{1,2}|\d{4}-\d{2}|марта", re.IGNORECASE)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("XXXX charged me a late fee on 03/12/2019 even though I had paid.", "en"),
        ("I got a call from XXXX and they still cannot find my payment.", "en"),
        ("On 2023-11-04 the app cannot load my statements.", "en"),
        ("Не могу оплатить счёт с 12 марта 2024 года, приложение зависает.", "ru"),
        ("Сотрудник «***» не может найти мой платёж.", "ru"),
    ],
)
def test_masks_and_dates_are_never_inside_a_label(text, language):
    nodes = _nodes(text, language)
    assert nodes, "the sentence still says something"
    assert not [label for _, label in nodes if _MASK_OR_DATE.search(label)], nodes


def test_a_mask_cut_out_leaves_the_complaint():
    pains = _labels("XXXX charged me a late fee on 03/12/2019 even though I had paid.", "pain")
    assert any("charged me a late fee" in p for p in pains), pains


def test_a_version_is_no_date():
    pains = _labels("Version 2.53.17 no longer displays my saved filters.", "pain")
    assert any("2.53.17" in p for p in pains), pains
