"""Write-time checks on the writer's claims. The system decides; the model only proposes.

A claim passes when it cites at least one node, every cited node is in the context and valid
in it, and every number in its text appears in a quote of a cited node. A claim that rests
only on nodes below HYPOTHESIS_BELOW is kept as a hypothesis, never as a fact.
"""

from __future__ import annotations

from dataclasses import dataclass

from kg.context import ArtifactContext, ContextNode
from kg.pipeline.evidence import normalise, numbers_in, numbers_missing

HYPOTHESIS_BELOW = 70
MAX_CLAIM_CHARS = 800


@dataclass(frozen=True)
class ContextIndex:
    """The context's nodes by number (ArtifactContext.node() scans the list)."""

    nodes: dict[int, ContextNode]
    as_of: str | None

    @classmethod
    def of(cls, context: ArtifactContext) -> ContextIndex:
        return cls(nodes={n.number: n for n in context.nodes}, as_of=context.as_of)

    def valid(self, node: ContextNode) -> bool:
        """Valid at the moment the context describes (now, or its as_of)."""
        if node.invalid_at is None:
            return True
        return self.as_of is not None and node.invalid_at > self.as_of


@dataclass(frozen=True)
class Draft:
    """A claim as the writer proposed it."""

    section: str
    text: str
    nodes: tuple[int, ...]


@dataclass(frozen=True)
class CheckedClaim:
    section: str
    text: str
    nodes: tuple[int, ...]  # deduplicated, in the writer's order
    kind: str  # fact | hypothesis


@dataclass(frozen=True)
class FailedClaim:
    draft: Draft
    reasons: tuple[str, ...]

    @property
    def reason(self) -> str:
        return "; ".join(self.reasons)


def uncovered_numbers(text: str, quotes: list[str]) -> list[str]:
    """Numbers in the text that no single quote contains."""
    missing = numbers_in(text)
    for quote in quotes:
        if not missing:
            break
        still = set(numbers_missing(text, quote))
        missing = [n for n in missing if n in still]
    return list(dict.fromkeys(missing))


def check_claim(draft: Draft, index: ContextIndex) -> CheckedClaim | FailedClaim:
    reasons: list[str] = []
    text = " ".join(draft.text.split())
    nodes = tuple(dict.fromkeys(draft.nodes))
    if not text:
        reasons.append("the claim is empty")
    elif len(text) > MAX_CLAIM_CHARS:
        reasons.append(f"the claim is longer than {MAX_CLAIM_CHARS} characters; split it")
    if not nodes:
        reasons.append("the claim cites no node: every sentence must cite the nodes it rests on")
    cited: list[ContextNode] = []
    for number in nodes:
        node = index.nodes.get(number)
        if node is None:
            reasons.append(f"node #{number} is not in the context: cite only the listed numbers")
        elif not index.valid(node):
            reasons.append(f"node #{number} is no longer valid: do not cite it")
        else:
            cited.append(node)
    if text and cited:
        quotes = [e.quote for n in cited for e in n.evidence]
        missing = uncovered_numbers(text, quotes)
        if missing:
            listed = ", ".join(missing)
            reasons.append(
                f"the number(s) {listed} appear in no quote of the cited nodes: write only "
                "numbers that the quotes contain, and no node numbers in the text"
            )
    if reasons:
        return FailedClaim(draft=draft, reasons=tuple(reasons))
    kind = "hypothesis" if all(n.confidence < HYPOTHESIS_BELOW for n in cited) else "fact"
    return CheckedClaim(section=draft.section, text=text, nodes=nodes, kind=kind)


def claim_key(section: str, text: str) -> tuple[str, str]:
    """Two claims with this key are the same claim (for deduplication)."""
    return section, normalise(text).lower()
