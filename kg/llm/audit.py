"""How often a model's answers were rejected, per operation and by reason (the extraction audit).

A model that keeps writing invalid JSON shows here and on /health, not as a graph that stays
silently empty. Only calls made count: a replay from the record is not a new answer.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import QuerySet

from kg.llm.gateway import rejection_reason
from kg.models import LLMCall


@dataclass
class OperationAnswers:
    operation: str
    model: str
    calls: int = 0
    rejected: int = 0
    reasons: Counter[str] = field(default_factory=Counter)

    @property
    def reason_counts(self) -> list[tuple[str, int]]:
        return self.reasons.most_common()

    @property
    def rejected_percent(self) -> float:
        return 100.0 * self.rejected / self.calls if self.calls else 0.0


def rejected_answers(calls: QuerySet[LLMCall] | None = None) -> list[OperationAnswers]:
    """Per (operation, model): answers recorded, answers rejected, rejections by reason."""
    calls = LLMCall.objects.all() if calls is None else calls
    rows: dict[tuple[str, str], OperationAnswers] = {}
    for operation, model, parsed_ok, error in calls.order_by().values_list(
        "operation", "model", "parsed_ok", "error"
    ):
        row = rows.setdefault((operation, model), OperationAnswers(operation, model))
        row.calls += 1
        if not parsed_ok:
            row.rejected += 1
            row.reasons[rejection_reason(error)] += 1
    return sorted(rows.values(), key=lambda r: (r.operation, r.model))


def recent_rejections(model: str, last: int = 100) -> tuple[int, int]:
    """(rejected, answers) among the model's last `last` recorded answers."""
    recent = list(
        LLMCall.objects.filter(model=model)
        .order_by("-id")
        .values_list("parsed_ok", flat=True)[:last]
    )
    return recent.count(False), len(recent)
