"""Promote, then print an organization's insights with their evidence chains as JSON."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from kg.tenancy import OrgNotFound
from orgmemory.services import (
    describe_insights,
    find_org,
    org_insights,
    promote_for_org,
)


class Command(BaseCommand):
    help = (
        "Run org promotion for one organization, then print its insights as JSON: "
        "[{type, label, confidence, status, projects: [{slug, node_number, active, "
        "episodes: [{number, quote}]}]}]."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--org", required=True, help="organization slug")

    def handle(self, *args, org: str, **options) -> None:
        try:
            organization = find_org(org)
        except OrgNotFound as exc:
            raise CommandError(str(exc)) from None
        promote_for_org(organization)
        # An operator's tool: every project of the organization is readable.
        readable = set(organization.projects.values_list("pk", flat=True))
        output = [
            {
                "type": insight.node_type,
                "label": insight.label,
                "confidence": insight.confidence,
                "status": insight.status,
                "projects": [
                    {
                        "slug": source.project_slug,
                        "node_number": source.node_number,
                        "active": source.active,
                        "episodes": [
                            {"number": e.episode_number, "quote": e.quote} for e in source.evidence
                        ],
                    }
                    for source in insight.sources
                ],
            }
            for insight in describe_insights(org_insights(organization), readable)
        ]
        self.stdout.write(json.dumps(output, ensure_ascii=False, indent=2))
