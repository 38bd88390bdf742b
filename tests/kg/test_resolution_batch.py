"""The batched "same thing?" answer is read conservatively: model output is untrusted."""

from __future__ import annotations

from kg.llm.prompts import resolution, resolution_batch


def _request(count: int) -> resolution_batch.ResolutionBatchRequest:
    question = resolution.ResolutionRequest(
        node_type="pain", mention="app lags", mention_quote="app lags", existing_label="slow app"
    )
    return resolution_batch.ResolutionBatchRequest.of([question] * count)


def _answer(*verdicts: tuple[int, bool]) -> resolution_batch.ResolutionBatchResponse:
    return resolution_batch.ResolutionBatchResponse(
        answers=[resolution_batch.Verdict(question=n, same=s, reason="") for n, s in verdicts]
    )


def test_each_question_gets_its_own_verdict_and_silence_is_not_the_same():
    request = _request(3)
    assert _answer((1, True), (2, False)).same_for(request) == {1: True, 2: False, 3: False}


def test_a_question_answered_both_ways_is_not_the_same_and_unknown_numbers_are_ignored():
    request = _request(2)
    verdicts = _answer((1, True), (1, False), (2, True), (7, True)).same_for(request)
    assert verdicts == {1: False, 2: True}


def test_the_prompt_numbers_every_question():
    messages = resolution_batch.build_messages(_request(2))
    assert "--- question 1 (pain) ---" in messages[1]["content"]
    assert "--- question 2 (pain) ---" in messages[1]["content"]
