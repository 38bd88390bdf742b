"""What answered contradictions decided, for the PRD's Decisions section.

A user's answer keeps one of two opposing statements and supersedes the other (see
kg.pipeline.contradictions.resolve_with_answer). The PRD says so, citing the answer's own words
in its message: the decision is the system's, never the writer's, like open questions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kg.models import Project
from kg.read_models import (
    ContradictionRecord,
    Evidence,
    EvidenceView,
    NodeRecord,
    episodes_by_uid,
    evidence_view,
)

WORDING: dict[str, str] = {
    "en": "“{kept}” holds; “{superseded}” no longer does.",
    "ru": "Верно «{kept}»; «{superseded}» больше не считается верным.",
}
# A decision against what the product would build, aim at or serve is a non-goal of the PRD.
NON_GOAL_TYPES = frozenset({"feature", "goal", "segment", "market", "job"})
NON_GOAL_WORDING: dict[str, str] = {
    "en": "Not a goal: “{superseded}” — decided against; “{kept}” holds instead.",
    "ru": "Не входит в цели: «{superseded}» — решено против; вместо этого верно «{kept}».",
}


@dataclass(frozen=True)
class Decision:
    """One answered contradiction: the statement kept (a node of the PRD's context), the one
    it superseded, and the answer as a citation."""

    uid: str  # the contradiction
    kept_uid: str
    kept_label: str
    superseded_label: str
    answer: EvidenceView
    superseded_type: str = ""

    def text(self, language: str) -> str:
        wording = WORDING.get(language, WORDING["en"])
        return wording.format(kept=self.kept_label, superseded=self.superseded_label)

    @property
    def non_goal(self) -> bool:
        return self.superseded_type in NON_GOAL_TYPES

    def non_goal_text(self, language: str) -> str:
        wording = NON_GOAL_WORDING.get(language, NON_GOAL_WORDING["en"])
        return wording.format(kept=self.kept_label, superseded=self.superseded_label)

    def fingerprint(self) -> list:
        return [self.uid, self.kept_uid, self.answer.episode_uid, self.answer.quote]


def decided_as_of(
    records: Iterable[ContradictionRecord], moment: str | None
) -> list[ContradictionRecord]:
    """Contradictions an answer decided by `moment` (or now), newest first."""
    decided = [
        c
        for c in records
        if c.status == "resolved"
        and c.kept
        and c.superseded
        and c.answer_episode
        and c.answer_number is not None
        and (moment is None or (c.resolved_at or "") <= moment)
    ]
    return sorted(decided, key=lambda c: (c.resolved_at or "", c.uid), reverse=True)


def decisions(
    project: Project, decided: list[ContradictionRecord], nodes: dict[str, NodeRecord]
) -> list[Decision]:
    """Decision views of `decided` whose two statements are in `nodes` (by uid)."""
    shown = [c for c in decided if c.kept in nodes and c.superseded in nodes]
    episodes = episodes_by_uid(project, (c.answer_episode for c in shown))
    result = []
    for c in shown:
        quote = c.answer_quote
        evidence = Evidence(
            episode_uid=c.answer_episode,
            episode_number=c.answer_number or 0,
            quote=quote,
            start=0,  # the answer's words are quoted from its start (answer_quote)
            end=len(quote),
            valid_at=c.resolved_at or "",
        )
        result.append(
            Decision(
                uid=c.uid,
                kept_uid=c.kept,
                kept_label=nodes[c.kept].label,
                superseded_label=nodes[c.superseded].label,
                answer=evidence_view(evidence, episodes),
                superseded_type=nodes[c.superseded].type,
            )
        )
    return result
