"""Re-queue episodes pending or running past the deadline (what the beat sweep does)."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand

from kg.pipeline.recovery import sweep_stale_episodes


class Command(BaseCommand):
    help = "Re-queue stale episodes now; FAILED with the reason after too many re-queues."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--stale-after",
            type=float,
            default=settings.PIPELINE_STALE_AFTER_SECONDS,
            help="seconds an episode may wait pending or running (default: the setting)",
        )

    def handle(self, *args, stale_after: float, **options) -> None:
        report = sweep_stale_episodes(stale_after=stale_after)
        self.stdout.write(
            f"{len(report.requeued)} re-queued, {len(report.failed)} failed for good, "
            f"{report.live_workers} live worker(s)"
        )
