"""Whether a project's graph holds the evidence its own links say it has (kg_check).

A node's mention of an episode is written twice in one statement: as an item of the node's
evidence and as a MENTIONED_IN link to the episode. An episode linked but absent from the
evidence is lost evidence. Graphs written before appended evidence was kept as lists could
lose a write's items that way (FalkorDB's string `+` drops its right operand when the left one
is exactly 512 bytes; kg.graph.cypher). The graph is derived data: kg_rebuild replays the
ledger and restores it.
"""

from __future__ import annotations

from dataclasses import dataclass

from kg.graph import store
from kg.models import Episode, Project


@dataclass(frozen=True)
class LostEvidence:
    node_number: int
    label: str
    episodes: list[int]  # the numbers of the episodes linked as mentioned, not in the evidence


def evidence_lacking_mentions(project: Project) -> list[LostEvidence]:
    """The project's nodes whose evidence lacks an episode they are linked to, by number."""
    scope = project.graph_scope
    mentioned = store.mentioned_episodes(scope)
    lacking = []
    for node in store.list_nodes(scope):
        missing = mentioned.get(node.uid, set()) - {e.episode_uid for e in node.evidence}
        if missing:
            lacking.append((node, missing))
    every = {uid for _, missing in lacking for uid in missing}
    numbers = {
        str(uid): number
        for uid, number in Episode.objects.filter(project=project, uid__in=every).values_list(
            "uid", "number"
        )
    }
    return [
        LostEvidence(node.number, node.label, sorted(numbers[u] for u in missing if u in numbers))
        for node, missing in lacking
    ]
