"""A pain belongs to the segment of the person who has it: the speaker named by an interview's
header, by a speaker's label opening a line, or by a reporting verb ("X told us"), not the
people the speaker talks about; an interviewer's question is no finding.

Examples are invented for these tests; none is taken from the evaluation data.
"""

from __future__ import annotations

import pytest

from kg.llm.offline.extractor import extract_offline
from kg.llm.prompts.extraction_models import ExtractionRequest


def _experienced(text: str, language: str) -> dict[str, set[str]]:
    """Each pain's label → the labels of the segments that experience it."""
    answer = extract_offline(ExtractionRequest(text=text, language=language, product=""))
    by_ref = {n.ref: n for n in answer.nodes}
    found: dict[str, set[str]] = {n.label: set() for n in answer.nodes if n.type == "pain"}
    for relation in answer.relations:
        if relation.relation == "experiences":
            found[by_ref[relation.target].label].add(by_ref[relation.source].label)
    return found


def _pain(found: dict[str, set[str]], words: str) -> set[str]:
    matching = [segments for label, segments in found.items() if words in label]
    assert matching, found
    return matching[0]


@pytest.mark.parametrize(
    ("text", "language", "pain", "speaker", "talked_of"),
    [
        (
            "Interview 4 — pharmacy owner\nCouriers can't find the back door before we open.",
            "en",
            "can't find the back door",
            "pharmacy owners",
            "couriers",
        ),
        (
            "Интервью 5: владелец аптеки\nКурьеры не могут найти служебный вход до открытия.",
            "ru",
            "не могут найти служебный вход",
            "владельцы аптеки",
            "курьеры",
        ),
    ],
)
def test_the_notes_under_an_interviews_header_are_its_speakers(
    text, language, pain, speaker, talked_of
):
    segments = _pain(_experienced(text, language), pain)
    assert speaker in segments
    assert talked_of not in segments


def test_a_speakers_label_opening_a_line_makes_the_pain_theirs():
    text = "Clinic manager: Nurses can't see tomorrow's rota until late at night."
    segments = _pain(_experienced(text, "en"), "can't see tomorrow's rota")
    assert segments == {"clinic managers"}


@pytest.mark.parametrize(
    ("text", "language", "pain", "speaker", "talked_of"),
    [
        (
            "Clinic managers told us nurses can't swap shifts without calling them.",
            "en",
            "can't swap shifts",
            "clinic managers",
            "nurses",
        ),
        (
            "Владельцы аптек говорят, что поставщики не могут найти служебный вход.",
            "ru",
            "не могут найти служебный вход",
            "владельцы аптек",
            "поставщики",
        ),
    ],
)
def test_a_reporting_verb_makes_its_subject_the_speaker(text, language, pain, speaker, talked_of):
    found = _experienced(text, language)
    segments = _pain(found, pain)
    assert speaker in segments
    assert talked_of not in segments
    assert not any(label.startswith(speaker) for label in found), found  # "X told us" cut off


def test_an_interviewers_question_is_no_finding():
    text = "Interviewer: Do couriers struggle to find the loading bay at night?"
    answer = extract_offline(ExtractionRequest(text=text, language="en", product=""))
    assert not [n for n in answer.nodes if n.type in ("pain", "feature", "segment")], answer.nodes
