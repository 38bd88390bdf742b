"""Step 5, confidence: deterministic, from evidence, never from the model.

    one supporting episode                 65
    two independent episodes               80
    each further episode                   +5, up to 90
    each open contradiction on the node    -15, never below 30

"Independent" means a different episode; the same words repeated in one message count once,
and so does a passage repeated word for word across episodes (a legal notice, a template, a
pasted paragraph): boilerplate that several documents carry corroborates nothing.
"""

from __future__ import annotations

import re

from kg.graph import Evidence

SINGLE = 65
CORROBORATED = 80
STEP = 5
CEILING = 90
CONTRADICTION_PENALTY = 15
FLOOR = 30


BOILERPLATE_WORDS = 12  # a passage this long repeated word for word is copied, not re-said
_SPACE = re.compile(r"\s+")


def independent_sources(evidence: list[Evidence]) -> int:
    """Episodes that said it, where episodes sharing a long passage word for word are one."""
    owner: dict[str, str] = {}  # episode → the episode it is counted with

    def root(uid: str) -> str:
        while owner.setdefault(uid, uid) != uid:
            uid = owner[uid]
        return uid

    first_with: dict[str, str] = {}
    for item in evidence:
        root(item.episode_uid)
        words = _SPACE.sub(" ", item.quote.casefold()).strip()
        if len(words.split()) >= BOILERPLATE_WORDS:
            other = first_with.setdefault(words, item.episode_uid)
            owner[root(item.episode_uid)] = root(other)
    return len({root(uid) for uid in owner})


def confidence_from(evidence: list[Evidence], open_contradictions: int = 0) -> int:
    episodes = independent_sources(evidence)
    if episodes == 0:
        return 0
    score = SINGLE if episodes == 1 else min(CEILING, CORROBORATED + STEP * (episodes - 2))
    return max(FLOOR, score - CONTRADICTION_PENALTY * open_contradictions)


def explain(evidence: list[Evidence], open_contradictions: int = 0) -> str:
    """The same computation in words, for the admin and the API."""
    episodes = independent_sources(evidence)
    base = SINGLE if episodes == 1 else min(CEILING, CORROBORATED + STEP * (episodes - 2))
    text = f"{episodes} supporting episode(s) → {base}"
    if open_contradictions:
        text += f"; {open_contradictions} open contradiction(s) × -{CONTRADICTION_PENALTY}"
    return text + f" = {confidence_from(evidence, open_contradictions)}"
