"""The admin node page's "PRD claims citing this node" section.

kg cannot import artifacts, so this provider is registered with kg.reading.node_references from
ArtifactsConfig.ready() (call register()). Each claim links to its admin page, where its
citations link on to the node trail and the episode.
"""

from __future__ import annotations

from django.db.models import Q
from django.urls import reverse
from django.utils.text import Truncator

from artifacts.models import Citation, VersionStatus
from kg.models import Project
from kg.read_models import NodeReference, register_node_reference_provider

SECTION = "PRD claims citing this node"
# The node page must stay cheap however often a node was cited: newest claims first, capped.
MAX_CLAIMS = 100


def claims_citing_node(project: Project, node_uid: str, node_number: int) -> list[NodeReference]:
    # Citations snapshot both the uid and the number; either identifies the node.
    citations = (
        Citation.objects.filter(claim__version__artifact__project=project)
        .filter(Q(node_uid=node_uid) | Q(node_number=node_number))
        .select_related("claim__version__artifact")
        .order_by("-claim__version__created_at", "claim__section", "claim__order", "order")
    )
    references: list[NodeReference] = []
    seen: set[int] = set()
    for citation in citations[: MAX_CLAIMS * 4]:
        claim = citation.claim
        if claim.pk in seen:
            continue
        seen.add(claim.pk)
        version = claim.version
        label = f"v{version.number}" if version.number else f"run {version.pk}"
        status = "" if version.status == VersionStatus.COMPLETE else f" ({version.status})"
        references.append(
            NodeReference(
                title=(
                    f"{version.artifact.get_kind_display()} {label}{status} · "
                    f"{claim.get_section_display()} · claim {claim.order} ({claim.kind})"
                ),
                url=reverse("admin:artifacts_claim_change", args=[claim.pk]),
                text=Truncator(claim.text).chars(200),
                page_url=(
                    f"{reverse('artifacts:prd', args=[project.slug])}?version={version.number}"
                    if version.number
                    else ""
                ),
            )
        )
        if len(references) >= MAX_CLAIMS:
            break
    return references


def register() -> None:
    register_node_reference_provider(claims_citing_node, section=SECTION)
