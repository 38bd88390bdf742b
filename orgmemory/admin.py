"""Admin: org insights are derived by promotion, so they are shown, never edited by hand."""

from __future__ import annotations

from django.contrib import admin

from orgmemory.models import InsightSource, OrgInsight


class ReadOnlyMixin:
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class InsightSourceInline(ReadOnlyMixin, admin.TabularInline):
    model = InsightSource
    extra = 0
    fields = ("project", "node_number", "node_label", "node_confidence", "active", "evidence")
    readonly_fields = fields
    can_delete = False


@admin.register(OrgInsight)
class OrgInsightAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = (
        "label",
        "node_type",
        "organization",
        "confidence",
        "status",
        "source_count",
        "updated_at",
    )
    list_filter = ("status", "node_type", "organization")
    search_fields = ("label", "key", "sources__node_label")
    readonly_fields = (
        "organization",
        "node_type",
        "label",
        "key",
        "confidence",
        "status",
        "created_at",
        "updated_at",
        "deactivated_at",
        "history",
    )
    inlines = [InsightSourceInline]

    @admin.display(description="sources")
    def source_count(self, obj: OrgInsight) -> int:
        return obj.sources.count()
