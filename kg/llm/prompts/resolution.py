"""Operation `resolution`: is a new mention the same thing as an existing node?

Asked only when the fuzzy score falls between the merge and the create thresholds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from kg.llm.operation import LLMOperation

if TYPE_CHECKING:
    from kg.graph import NodeRecord
    from kg.pipeline.resolve import Mention

QUOTES_SHOWN = 3


class ResolutionRequest(BaseModel):
    node_type: str
    mention: str
    mention_quote: str
    existing_label: str
    existing_quotes: list[str] = Field(default_factory=list)
    language: str = "en"

    @classmethod
    def about(cls, mention: Mention, node: NodeRecord, language: str = "en") -> ResolutionRequest:
        """The question for one mention against one existing node, asked the same everywhere."""
        return cls(
            node_type=mention.node_type,
            mention=mention.label,
            mention_quote=mention.quote,
            existing_label=node.label,
            existing_quotes=[e.quote for e in node.evidence[:QUOTES_SHOWN]],
            language=language,
        )


class ResolutionResponse(BaseModel):
    same: bool
    reason: str = ""


SYSTEM = (
    "You decide whether two mentions in product research name the same {node_type}. "
    'Answer with one JSON object: {{"same": true|false, "reason": "<short>"}}. '
    "Say true only when they describe the same thing in different words."
)


def build_messages(request: ResolutionRequest) -> list[dict[str, str]]:
    quotes = "\n".join(f'- "{q}"' for q in request.existing_quotes[:3])
    return [
        {"role": "system", "content": SYSTEM.format(node_type=request.node_type)},
        {
            "role": "user",
            "content": f'New mention: "{request.mention}" (said as: "{request.mention_quote}")\n'
            f'Existing {request.node_type}: "{request.existing_label}", said as:\n{quotes}',
        },
    ]


def offline_answer(request: ResolutionRequest) -> ResolutionResponse:
    from kg.llm.offline.similarity import same_thing

    said = ((request.mention_quote,), tuple(request.existing_quotes))
    same, overlap = same_thing(request.mention, request.existing_label, request.node_type, said)
    return ResolutionResponse(same=same, reason=f"informative word overlap {overlap:.2f}")


OPERATION: LLMOperation[ResolutionRequest, ResolutionResponse] = LLMOperation(
    name="resolution",
    response_model=ResolutionResponse,
    build_messages=build_messages,
    offline_answer=offline_answer,
)
