"""Complaints as app-store reviewers write them: the offline extractor finds a pain in each, and
its label is a whole statement of the problem. The sentences are invented."""

from __future__ import annotations

import pytest

from kg.llm.offline.extractor import extract_offline
from kg.llm.offline.linguistic import fragment_reason
from kg.llm.prompts.extraction_models import ExtractionRequest


def _pains(text: str) -> list[str]:
    answer = extract_offline(ExtractionRequest(text=text, language="en", product=""))
    return [n.label for n in answer.nodes if n.type == "pain"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the pattern's words end on "all" or start on "until": the grammar's reading stands
        ("I reinstalled it and now my camera doesn't work at all!", "camera doesn't work"),
        ("Since Monday my widget doesn't load at all.", "widget doesn't load"),
        ("until it hangs and doesn't sync with my watch anymore.", "doesn't sync"),
    ],
)
def test_a_pain_cut_mid_phrase_falls_back_to_the_clause_grammar(text, expected):
    (pain,) = _pains(text)
    assert expected in pain and not fragment_reason(pain)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a tagger reads the verb after "can't" as a noun or an adjective
        ("Since the update i can't tweet or reply", "can't tweet or reply"),
        ("I haven't been able to open my library since Friday.", "able to open my library"),
        ("I was unable to upload my song.", "unable to upload my song"),
        ("I cant get it to load on my phone.", "get it to load"),
    ],
)
def test_what_the_writer_cannot_do_is_a_pain(text, expected):
    (pain,) = _pains(text)
    assert expected in pain


@pytest.mark.parametrize(
    "text",
    [
        "I can't live without it.",
        "Can't get enough of this game.",
        "I can't find a single bug.",
        "I can't put it down.",
        "It has the reviews that a record shop was never able to give me.",
    ],
)
def test_praise_with_cant_or_what_something_else_cannot_do_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a capability said to be missing
        ("Nice colours but no offline mode.", "no offline mode"),
        ("There is no way to undo a deletion.", "there is no way to undo a deletion"),
        # a quantity of interruptions
        ("It has lots of pop-ups.", "it has lots of pop-ups"),
        # having to pay
        ("You have to pay for every filter.", "you have to pay for every filter"),
        # leaving the app
        ("I uninstalled it after a day.", "i uninstalled it"),
        ("Cancelled my subscription last week.", "cancelled my subscription"),
        # a regression
        ("It used to be my favourite app.", "it used to be my favourite app"),
        (
            "The widget used to refresh on its own, now it does not.",
            "widget used to refresh on its own",
        ),
    ],
)
def test_complaints_of_use_without_a_problem_word_are_pains(text, expected):
    assert any(expected in pain for pain in _pains(text))


@pytest.mark.parametrize(
    "text",
    [
        "No ads, which is great.",
        "No way!",
        "You don't have to pay for anything.",
        "You can delete it from the settings page.",
        "I used to keep my notes on paper.",
        "Still getting used to the new menus.",
        "The layout is easy once you are used to it.",
        "If it ever shows ads I'll uninstall it.",
        "Not many ads at all.",
    ],
)
def test_the_same_words_without_a_complaint_are_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Please fix the crash on startup.", "fix the crash on startup"),
        ("They need to fix the clunky tablet layout.", "need to fix the clunky tablet layout"),
        ("You should fix the sync with my watch.", "fix the sync with my watch"),
    ],
)
def test_a_request_to_fix_something_is_a_pain(text, expected):
    assert any(expected in pain for pain in _pains(text))


@pytest.mark.parametrize(
    "text",
    ["They fixed the sync last week.", "Please help me solve my problem.", "Please add a timer."],
)
def test_a_fix_done_a_plea_for_help_or_a_wish_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It keeps asking me to rate it.", "keeps asking me"),
        ("The app was constantly updating itself.", "app was constantly updating"),
    ],
)
def test_what_the_app_does_again_and_again_is_a_pain(text, expected):
    assert any(expected in pain for pain in _pains(text))


@pytest.mark.parametrize(
    "text", ["It keeps getting better.", "I keep using it every day.", "It keeps my notes tidy."]
)
def test_what_gets_better_or_what_the_writer_keeps_doing_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Sometimes I have to tap back ten times to reach the start.", "tap back ten times"),
        ("You have to press it many times before it reacts.", "press it many times"),
    ],
)
def test_having_to_do_something_many_times_is_a_pain(text, expected):
    assert any(expected in pain for pain in _pains(text))


def test_having_done_something_many_times_is_no_pain():
    assert _pains("I have used it many times on trips.") == []
