"""What a project's corrections teach the pipeline (kg.corrections records them).

Applied to a proposal under the project lease, just before it is integrated, so the model's
recorded answers are never asked again and a replay meets the same rules:

- a mention of a node a person merged away resolves to the survivor;
- a mention with the label of a rejected node attaches to it as evidence (it stays hidden);
- a mention with a label whose node was retyped takes that node (and so its new type);
- a mention with a label split off another node goes to the split-off node, never back.

A rejected or retyped label also catches its paraphrases: a mention that means the same
(kg.language.meaning.same_by_meaning, the resolution ladder's bar) is steered like the label.
A merged node's label became an alias of the survivor, and the ladder compares aliases by
meaning too, so its paraphrases resolve to the survivor.

Only the corrections made before the episode's place in the order of integration count: a
rebuild replays corrections between the episodes where they were made, and an episode
integrated again meets exactly the corrections it met the first time. An undone correction
(kg.undo) teaches nothing, to any episode: an undo replays the graph as if it had never been
made.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import connection

from kg.language.meaning import same_by_meaning
from kg.models import (
    Correction,
    CorrectionAction,
    Episode,
    EpisodeIntegration,
    reverted_numbers,
)
from kg.pipeline.proposal import Endpoint, Proposal
from kg.pipeline.resolve import node_key

STEERED = "correction"  # the method a steered mention is logged with


@dataclass
class TaughtRules:
    survivor_of: dict[str, str] = field(default_factory=dict)  # absorbed uid → survivor uid
    by_label: dict[tuple[str, str], str] = field(default_factory=dict)  # (type, key) → uid
    # (type, key) of the labels whose paraphrases are steered too: rejected and retyped ones
    by_meaning: list[tuple[str, str]] = field(default_factory=list)

    def survivor(self, uid: str | None) -> str | None:
        seen: set[str] = set()
        while uid in self.survivor_of and uid not in seen:
            seen.add(uid)
            uid = self.survivor_of[uid]
        return uid

    def __bool__(self) -> bool:
        return bool(self.survivor_of or self.by_label)


def rules_from(corrections: list[Correction]) -> TaughtRules:
    """The rules of corrections taken in the order they were made (a later one wins)."""
    rules = TaughtRules()
    left_out = reverted_numbers(corrections)
    for c in sorted(corrections, key=lambda c: c.number):
        if c.number in left_out:
            continue
        params = c.params or {}
        if c.action == CorrectionAction.MERGE and params.get("applied", True):
            rules.survivor_of[c.other_uid] = c.node_uid
        elif c.action in (CorrectionAction.REJECT, CorrectionAction.RETYPE):
            node_type = params.get("old_type") or params.get("type", "")
            for key in params.get("keys", []):
                rules.by_label[(node_type, key)] = c.node_uid
                rules.by_meaning.append((node_type, key))
        elif c.action == CorrectionAction.SPLIT and params.get("new_uid"):
            rules.by_label[(params.get("type", ""), node_key(params["alias"]))] = params["new_uid"]
    return rules


def project_corrections(project_id: int) -> list[Correction]:
    """The project's corrections: read once per hold of the project lease, under which no
    correction is made, and given to `steer` for each episode integrated in that hold."""
    # Most projects have none: asked first in one plain statement (the ORM's query for the
    # rows costs more to build than to run, and this runs in every hold of the lease).
    table = connection.ops.quote_name(Correction._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {table} WHERE project_id = %s LIMIT 1", [project_id])  # noqa: S608
        if cursor.fetchone() is None:
            return []
    # In the order they were made; the model's default order joins the project's table.
    return list(Correction.objects.filter(project_id=project_id).order_by("number"))


def rules_for(episode: Episode, corrections: list[Correction] | None = None) -> TaughtRules:
    """The corrections made before the episode's place in the order of integration (all of
    them for an episode not yet integrated); `corrections` the project's, when read already."""
    if corrections is None:
        corrections = project_corrections(episode.project_id)
    if not corrections:  # most projects: nothing taught, no need for the episode's place
        return TaughtRules()
    order = (
        EpisodeIntegration.objects.filter(episode=episode).values_list("order", flat=True).first()
    )
    if order is not None:
        # An undo made later still leaves its correction out (read from the whole ledger).
        left_out = reverted_numbers(corrections)
        corrections = [c for c in corrections if c.after_order < order and c.number not in left_out]
    return rules_from(corrections)


def steer(
    episode: Episode, proposal: Proposal, corrections: list[Correction] | None = None
) -> Proposal:
    """The proposal with the project's corrections applied to whom each mention means."""
    rules = rules_for(episode, corrections)
    if not rules:
        return proposal
    steered = proposal.model_copy(deep=True)
    for node in steered.nodes:
        forced = rules.by_label.get((node.type, node_key(node.label))) or _by_meaning(
            rules, node.type, node.label
        )
        if forced:
            node.target_uid = rules.survivor(forced)
            node.method = STEERED
        elif node.target_uid:
            node.target_uid = rules.survivor(node.target_uid)
    for edge in steered.edges:
        for end in (edge.source, edge.target):
            _steer_endpoint(end, rules)
    return steered


def _by_meaning(rules: TaughtRules, node_type: str, label: str) -> str | None:
    """The node of a taught label that this label means, if any (the first taught wins)."""
    for taught_type, key in rules.by_meaning:
        if taught_type == node_type and same_by_meaning(label, [key]):
            return rules.by_label[(taught_type, key)]
    return None


def _steer_endpoint(end: Endpoint, rules: TaughtRules) -> None:
    if end.uid:
        end.uid = rules.survivor(end.uid)
