"""Admin: artifacts are read-only here; versions are written by the generator and then frozen."""

from __future__ import annotations

from django.contrib import admin

from artifacts.models import Artifact, ArtifactVersion, Citation, Claim


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
    model = Citation
    fields = ["node_type", "node_number", "confidence", "episode_number", "date", "quote"]


@admin.register(Claim)
class ClaimAdmin(ReadOnlyAdmin):
    list_display = ["version", "section", "order", "kind", "text"]
    list_filter = ["section", "kind"]
    search_fields = ["text"]
    inlines = [CitationInline]
