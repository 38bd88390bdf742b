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
