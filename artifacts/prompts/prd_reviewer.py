"""Operation `prd_reviewer`: a second model reads the checked PRD and remarks on weak claims.

Used only with a real model (the offline engine has nothing to add to its own templates). A
remark counts only if it quotes the PRD's text verbatim and names node numbers that exist in
the context; anything else is ignored and listed as such in the version's report. The claims
a valid remark points at get one bounded repair round through the writer operation.
"""

from __future__ import annotations

import json

from pydantic import BaseModel, Field

from kg.llm.operation import LLMOperation


class ReviewedClaim(BaseModel):
    section: str
    text: str
    nodes: list[int]


class ReviewedNode(BaseModel):
    number: int
    type: str
    label: str
    confidence: int
    quotes: list[str]


class ReviewRequest(BaseModel):
    language: str = "en"
    claims: list[ReviewedClaim]
    nodes: list[ReviewedNode]


class Remark(BaseModel):
    quote: str = Field(description="Words copied verbatim from the PRD claim remarked on.")
    nodes: list[int] = Field(
        default_factory=list, description="Numbers of the nodes the remark is about."
    )
    remark: str = Field(description="What is wrong or unsupported, in one sentence.")


class ReviewResponse(BaseModel):
    remarks: list[Remark] = Field(default_factory=list)


SYSTEM = """You review a PRD whose every claim cites research nodes by number.
Find claims that overstate, misread or are not supported by the quotes of the nodes they cite.
Answer with one JSON object: {"remarks": [{"quote": <words copied verbatim from the claim>,
"nodes": [<numbers of the nodes concerned>], "remark": <what is wrong, one sentence>}]}.
A remark without a verbatim quote of the PRD or without existing node numbers is ignored.
Answer {"remarks": []} when every claim is supported."""


def build_messages(request: ReviewRequest) -> list[dict[str, str]]:
    claims = "\n".join(
        f"[{c.section}] {json.dumps(c.text, ensure_ascii=False)} cites {c.nodes}"
        for c in request.claims
    )
    nodes = "\n".join(
        f"#{n.number} [{n.type}] {json.dumps(n.label, ensure_ascii=False)} "
        f"confidence={n.confidence} quotes: "
        + " | ".join(json.dumps(q, ensure_ascii=False) for q in n.quotes)
        for n in request.nodes
    )
    return [
        {"role": "system", "content": SYSTEM},
        {
            "role": "user",
            "content": f"Language: {request.language}\nPRD claims:\n{claims}\n"
            f"Cited nodes:\n{nodes}",
        },
    ]


def review_repair_message(remarked: list[tuple[str, str, list[int], str]]) -> dict[str, str]:
    """Sent to the writer: (section, claim text, nodes, remark) per claim a reviewer flagged."""
    listed = "\n".join(
        f"- section {section}: {json.dumps(text, ensure_ascii=False)} nodes={nodes} "
        f"→ reviewer: {remark}"
        for section, text, nodes, remark in remarked
    )
    return {
        "role": "user",
        "content": "A reviewer remarked on these claims:\n" + listed + "\nAnswer with a JSON "
        'object {"sections": [...]} holding only these claims, rewritten so that the cited '
        "quotes support them, in the same sections and order. To withdraw a claim, return it "
        "with an empty text.",
    }


def offline_answer(request: ReviewRequest) -> ReviewResponse:
    return ReviewResponse(remarks=[])


OPERATION: LLMOperation[ReviewRequest, ReviewResponse] = LLMOperation(
    name="prd_reviewer",
    response_model=ReviewResponse,
    build_messages=build_messages,
    offline_answer=offline_answer,
)
