"""Step 5, confidence: deterministic, from evidence, never from the model.

    one supporting episode                 65
    two independent episodes               80
    each further episode                   +5, up to 90
    each open contradiction on the node    -15, never below 30

"Independent" means a different episode; the same words repeated in one message count once.
"""

from __future__ import annotations

from kg.graph import Evidence

SINGLE = 65
CORROBORATED = 80
STEP = 5
CEILING = 90
CONTRADICTION_PENALTY = 15
FLOOR = 30


def confidence_from(evidence: list[Evidence], open_contradictions: int = 0) -> int:
    episodes = len({e.episode_uid for e in evidence})
    if episodes == 0:
        return 0
    score = SINGLE if episodes == 1 else min(CEILING, CORROBORATED + STEP * (episodes - 2))
    return max(FLOOR, score - CONTRADICTION_PENALTY * open_contradictions)


def explain(evidence: list[Evidence], open_contradictions: int = 0) -> str:
    """The same computation in words, for the admin and the API."""
    episodes = len({e.episode_uid for e in evidence})
    base = SINGLE if episodes == 1 else min(CEILING, CORROBORATED + STEP * (episodes - 2))
    text = f"{episodes} supporting episode(s) → {base}"
    if open_contradictions:
        text += f"; {open_contradictions} open contradiction(s) × -{CONTRADICTION_PENALTY}"
    return text + f" = {confidence_from(evidence, open_contradictions)}"
