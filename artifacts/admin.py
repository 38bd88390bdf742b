"""Admin: artifacts are read-only here; versions are written by the generator and then frozen."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from artifacts.models import Artifact, ArtifactVersion, Citation, Claim
from kg.read_models import node_admin_url


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Artifact)
class ArtifactAdmin(ReadOnlyAdmin):
    list_display = ["project", "kind", "created_at"]
    list_filter = ["kind"]
    search_fields = ["project__slug", "project__name"]


class ClaimInline(ReadOnlyInline):
    model = Claim
    fields = ["section", "order", "kind", "text", "nodes"]


@admin.register(ArtifactVersion)
class ArtifactVersionAdmin(ReadOnlyAdmin):
    list_display = [
        "artifact",
        "number",
        "status",
        "stage",
        "engine",
        "writer_model",
        "as_of",
        "created_at",
    ]
    list_filter = ["status", "engine", "language"]
    search_fields = ["artifact__project__slug", "context_hash", "task_id"]
    exclude = ["markdown"]
    inlines = [ClaimInline]


class CitationInline(ReadOnlyInline):
    """One click from a claim to each cited node's evidence trail and to each episode."""

    model = Citation
    fields = ["node_trail", "confidence", "episode_link", "date", "quote"]
    readonly_fields = ["node_trail", "episode_link"]

    @admin.display(description="node")
    def node_trail(self, citation: Citation) -> str:
        project_id = citation.claim.version.artifact.project_id
        return format_html(
            '<a href="{}">{} #{}</a>',
            node_admin_url(project_id, citation.node_number),
            citation.node_type,
            citation.node_number,
        )

    @admin.display(description="message")
    def episode_link(self, citation: Citation) -> str:
        url = reverse("admin:kg_episode_changelist") + f"?uid={citation.episode_uid}"
        return format_html('<a href="{}">#{}</a>', url, citation.episode_number)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("claim__version__artifact")


@admin.register(Claim)
class ClaimAdmin(ReadOnlyAdmin):
    list_display = ["version", "section", "order", "kind", "text"]
    list_filter = ["section", "kind"]
    search_fields = ["text"]
    inlines = [CitationInline]
