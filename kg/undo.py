"""Undo: a later correction reverts an earlier one; the ledger stays append-only.

The undo is a correction of its own (action "undo", `params["reverts"]` the number it reverts).
The graph is then replayed from the ledger (kg.operations.rebuild) without the undone
correction, as kg_rebuild does: undoing a merge or a split, whose evidence later messages may
have joined, has no inverse to guess at, and the graph after an undo is by construction the one
a rebuild reaches. What the undone correction taught later mentions is forgotten too
(kg.pipeline.taught). An undo can itself be undone: the correction holds again.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from kg.corrections import (
    CorrectionRefused,
    NodeNotFound,
    check_note,
    record_correction,
    refuse_during_replay,
)
from kg.models import Correction, CorrectionAction, Project, reverted_numbers
from kg.operations.rebuild import rebuild_project_graph
from kg.pipeline.locks import project_lock
from kg.tenancy import check_can_write


class CorrectionNotFound(NodeNotFound):
    pass


@dataclass(frozen=True)
class UndoDone:
    correction: Correction  # the undo
    reverted: Correction
    message: str


def undo_correction(project: Project, user, number: int, note: str = "") -> UndoDone:
    """Revert correction `number` of the project (editors and above), then replay the graph."""
    check_can_write(user, project)
    note = check_note(note)
    with project_lock(project.pk) as lease, transaction.atomic():
        refuse_during_replay(project)
        ledger = list(Correction.objects.filter(project=project).order_by("number"))
        reverted = next((c for c in ledger if c.number == int(number)), None)
        if reverted is None:
            raise CorrectionNotFound(f"correction {number} not found")
        if reverted.number in reverted_numbers(ledger):
            raise CorrectionRefused(f"correction {reverted.number} is already undone")
        fields = {
            "node_uid": reverted.node_uid,
            "other_uid": reverted.other_uid,
            "params": {"reverts": reverted.number, "action": reverted.action},
        }
        undo = record_correction(project, user, CorrectionAction.UNDO, note, fields)
        lease.check()
    # After the commit: the replay reads the ledger with the undo in it. Were it cut short,
    # kg_check reports the graph and kg_rebuild finishes it from the same ledger.
    rebuild_project_graph(project)
    what = reverted.get_action_display().lower()
    return UndoDone(undo, reverted, f"correction {reverted.number} ({what}) undone")
