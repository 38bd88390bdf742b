"""Node numbers, allocated in SQL under the project lease before the graph is written.

The graph and the candidate index are two stores written one after the other; a number read
from either ("the highest so far, plus one") would be handed out again when a write failed
between them and the episode was retried. Numbers come instead from a per-project counter
(ProjectRevision.last_node_number) and are recorded with the episode that created the nodes
(EpisodeIntegration.numbers): a retry and kg_rebuild give each node the number it had, and
a number once handed out is never handed to another node.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max

from kg.models import Episode, EpisodeIntegration, IndexedNode, ProjectRevision


def allocate_numbers(episode: Episode, uids: list[str]) -> dict[str, int]:
    """The numbers of the nodes `episode` creates (by uid), in the order given.

    Call under the project lease: the counter is read and advanced in one transaction, and
    the episode's integration record keeps what it was given.
    """
    if not uids:
        return {}
    with transaction.atomic():
        integration = EpisodeIntegration.objects.select_for_update().get(episode=episode)
        numbers = {str(uid): int(n) for uid, n in (integration.numbers or {}).items()}
        missing = [uid for uid in uids if uid not in numbers]
        if missing:
            counter, _ = ProjectRevision.objects.select_for_update().get_or_create(
                project_id=episode.project_id
            )
            # A project indexed before the counter existed starts after its highest number.
            indexed = IndexedNode.objects.filter(project_id=episode.project_id).aggregate(
                n=Max("number")
            )["n"]
            last = max(counter.last_node_number, indexed or 0)
            for uid in missing:
                last += 1
                numbers[uid] = last
            ProjectRevision.objects.filter(project_id=episode.project_id).update(
                last_node_number=last
            )
            integration.numbers = numbers
            integration.save(update_fields=["numbers"])
    return {uid: numbers[uid] for uid in uids}
