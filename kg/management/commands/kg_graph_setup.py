"""Create the graph's uniqueness constraints and indexes (idempotent; run at start-up)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from kg.graph import GraphUnavailable
from kg.graph.store import ensure_indexes


class Command(BaseCommand):
    help = "Create the graph's uniqueness constraints and indexes; safe to run at every start."

    def handle(self, *args, **options) -> None:
        try:
            constraints = ensure_indexes()
        except GraphUnavailable as exc:
            raise CommandError(str(exc)) from exc
        for name, created in constraints.items():
            state = "in place" if created else "NOT created (see the log)"
            self.stdout.write(f"unique {name}: {state}")
        self.stdout.write("graph indexes in place")
