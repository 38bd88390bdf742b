"""Node numbers, allocated in SQL under the project lease before the graph is written.

The graph and the candidate index are two stores written one after the other; a number read
from either ("the highest so far, plus one") would be handed out again when a write failed
between them and the episode was retried. Numbers come instead from a per-project counter
(ProjectRevision.last_node_number) and are recorded with the episode that created the nodes
(EpisodeIntegration.numbers): a retry and kg_rebuild give each node the number it had, and
a number once handed out is never handed to another node.
"""

from __future__ import annotations

import json

from django.db import connection, transaction

from kg.models import Episode, EpisodeIntegration, IndexedNode, ProjectRevision


def allocate_numbers(episode: Episode, uids: list[str]) -> dict[str, int]:
    """The numbers of the nodes `episode` creates (by uid), in the order given.

    Call under the project lease: the counter is read and advanced in one transaction, and
    the episode's integration record keeps what it was given. Part of the transaction it is
    called in (no savepoint of its own: the pipeline commits the numbers with the index).
    """
    if not uids:
        return {}
    # Plain statements on the numbers column only (the row also holds the proposal): this runs
    # under the lease for every episode that creates a node.
    table = connection.ops.quote_name(EpisodeIntegration._meta.db_table)
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        cursor.execute(f"SELECT numbers FROM {table} WHERE episode_id = %s{lock}", [episode.pk])  # noqa: S608
        row = cursor.fetchone()
        if row is None:
            raise EpisodeIntegration.DoesNotExist(f"episode {episode.pk} has no integration record")
        given = json.loads(row[0]) if isinstance(row[0], str) else row[0]
        numbers = {str(uid): int(n) for uid, n in (given or {}).items()}
        missing = [uid for uid in uids if uid not in numbers]
        if missing:
            last = _advance_counter(episode.project_id, len(missing))
            for offset, uid in enumerate(missing, start=last - len(missing) + 1):
                numbers[uid] = offset
            cursor.execute(
                f"UPDATE {table} SET numbers = %s WHERE episode_id = %s",  # noqa: S608
                [json.dumps(numbers), episode.pk],
            )
    return {uid: numbers[uid] for uid in uids}


def _advance_counter(project_id: int, count: int) -> int:
    """Take `count` numbers from the project's counter (its row locked until the transaction
    ends); returns the last one taken. A project indexed before the counter existed starts
    after its highest indexed number. One statement when the counter's row exists."""
    counter, indexed = ProjectRevision._meta.db_table, IndexedNode._meta.db_table
    highest = f"COALESCE((SELECT MAX(number) FROM {indexed} WHERE project_id = %s), 0)"  # noqa: S608
    sql = (
        f"UPDATE {counter} SET last_node_number = "  # noqa: S608
        f"CASE WHEN last_node_number >= {highest} THEN last_node_number ELSE {highest} END + %s "
        "WHERE project_id = %s RETURNING last_node_number"
    )
    for _ in range(2):
        with connection.cursor() as cursor:
            cursor.execute(sql, [project_id, project_id, count, project_id])
            row = cursor.fetchone()
        if row is not None:
            return int(row[0])
        ProjectRevision.objects.get_or_create(project_id=project_id)
    raise RuntimeError(f"project {project_id} has no revision counter")
