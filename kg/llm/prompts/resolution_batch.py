"""Operation `resolution_batch`: several "same thing?" questions of one episode in one call.

An episode's extraction call is shown the existing nodes it most likely speaks about, and its
answer names the ones it means. A confirmation is left only for nodes it was not shown (they
appeared while the call ran); when an episode has several such pairs, they are asked together,
so an episode costs at most one call after its extraction. Each question is the one `resolution`
asks alone; a question the answer leaves out, or numbers wrongly, is read as "not the same".
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from kg.llm.operation import LLMOperation
from kg.llm.prompts import resolution


class NumberedQuestion(BaseModel):
    number: int
    question: resolution.ResolutionRequest


class ResolutionBatchRequest(BaseModel):
    questions: list[NumberedQuestion]

    @classmethod
    def of(cls, questions: list[resolution.ResolutionRequest]) -> ResolutionBatchRequest:
        return cls(
            questions=[NumberedQuestion(number=i, question=q) for i, q in enumerate(questions, 1)]
        )


class Verdict(BaseModel):
    question: int = Field(description="The number of the question answered.")
    same: bool
    reason: str


class ResolutionBatchResponse(BaseModel):
    answers: list[Verdict] = Field(default_factory=list)

    def same_for(self, request: ResolutionBatchRequest) -> dict[int, bool]:
        """Each question's verdict by number: "same" only when every answer given to it says
        so; unanswered questions are "not the same", unknown numbers are ignored."""
        said: dict[int, list[bool]] = {q.number: [] for q in request.questions}
        for answer in self.answers:
            if answer.question in said:
                said[answer.question].append(answer.same)
        return {number: bool(verdicts) and all(verdicts) for number, verdicts in said.items()}


SYSTEM = (
    "For each numbered question, decide whether a new mention in product research names the "
    "same thing as an existing node of the same type. Answer with one JSON object: "
    '{"answers": [{"question": <number>, "same": true|false, "reason": "<short>"}]}, one '
    "answer per question. Say true only when they describe the same thing in different words."
)


def build_messages(request: ResolutionBatchRequest) -> list[dict[str, str]]:
    blocks = []
    for numbered in request.questions:
        q = numbered.question
        quotes = "\n".join(f'  - "{quote}"' for quote in q.existing_quotes[:3])
        blocks.append(
            f"--- question {numbered.number} ({q.node_type}) ---\n"
            f'New mention: "{q.mention}" (said as: "{q.mention_quote}")\n'
            f'Existing {q.node_type}: "{q.existing_label}", said as:\n{quotes}'
        )
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": "Questions:\n" + "\n".join(blocks)},
    ]


def offline_answer(request: ResolutionBatchRequest) -> ResolutionBatchResponse:
    answers = []
    for numbered in request.questions:
        verdict = resolution.offline_answer(numbered.question)
        answers.append(Verdict(question=numbered.number, same=verdict.same, reason=verdict.reason))
    return ResolutionBatchResponse(answers=answers)


OPERATION: LLMOperation[ResolutionBatchRequest, ResolutionBatchResponse] = LLMOperation(
    name="resolution_batch",
    response_model=ResolutionBatchResponse,
    build_messages=build_messages,
    offline_answer=offline_answer,
)
