"""The admin: tenancy, the episode ledger (read-only), the extraction audit, and — through
ProjectAdmin's extra URLs (kg/web/admin_graph.py) — the knowledge graph with its evidence trails.

Superusers only (config.admin): every page, the graph views included, goes through
admin_site.admin_view.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.text import Truncator

from kg.llm.audit import rejected_answers
from kg.models import (
    Episode,
    EpisodeProcessing,
    ExtractionRejection,
    LLMCall,
    Membership,
    Organization,
    ProcessingStatus,
    Project,
    ResolutionDecision,
)
from kg.operations.rebuild import rebuild_project_graph
from kg.pipeline.ingest import episode_ingest
from kg.reading import node_trail
from kg.tenancy import ProjectNameTaken, check_project_name_free
from kg.web import admin_graph


def _pre(value) -> str:
    text = value if isinstance(value, str) else json.dumps(value, indent=2, ensure_ascii=False)
    return format_html('<pre style="white-space: pre-wrap; margin: 0">{}</pre>', text)


def _episode_link(episode: Episode | None) -> str:
    if episode is None:
        return "—"
    return format_html(
        '<a href="{}">{} #{}</a>',
        node_trail.episode_admin_url(episode.pk),
        episode.project.slug,
        episode.number,
    )


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records only the system writes (the ledger, the audit trail): the admin shows them.

    No add, change or delete permission: Django then renders view-only pages without save
    buttons, refuses POSTs to the change page and drops the delete action.
    """

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


# --- tenancy ----------------------------------------------------------------------------


@admin.register(Organization)
class OrganizationAdmin(admin.ModelAdmin):
    list_display = ("slug", "name", "project_count", "created_at")
    search_fields = ("slug", "name")
    date_hierarchy = "created_at"

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).annotate(project_count=Count("projects"))

    def get_readonly_fields(self, request: HttpRequest, obj=None):
        # The slug is part of every graph node's scope: renaming it would orphan the graph.
        return ("slug", "created_at") if obj else ("created_at",)

    @admin.display(description="projects", ordering="project_count")
    def project_count(self, obj: Organization) -> int:
        return obj.project_count


class ProjectAdminForm(forms.ModelForm):
    """The admin refuses a second project of one name in an organization, as the pages do."""

    class Meta:
        model = Project
        fields = ["organization", "slug", "name", "language", "description", "archived_at"]

    def clean(self) -> dict:
        cleaned = super().clean()
        org = cleaned.get("organization") or getattr(self.instance, "organization", None)
        name = cleaned.get("name") or ""
        if org is not None and name.strip():
            try:
                check_project_name_free(
                    org, name, exclude=self.instance if self.instance.pk else None
                )
            except ProjectNameTaken as exc:
                self.add_error("name", str(exc))
        return cleaned


@admin.register(Project)
class ProjectAdmin(admin.ModelAdmin):
    form = ProjectAdminForm
    list_display = (
        "slug",
        "name",
        "organization",
        "language",
        "episode_count",
        "graph_link",
        "created_at",
    )
    list_filter = ("organization", "language")
    search_fields = ("slug", "name", "organization__slug", "organization__name")
    list_select_related = ("organization",)
    actions = ("rebuild_graph",)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).annotate(episode_count=Count("episodes"))

    def get_readonly_fields(self, request: HttpRequest, obj=None):
        # Organization and slug form the graph scope of the project's nodes; changing either
        # would leave the graph behind under the old scope.
        return ("organization", "slug", "created_at") if obj else ("created_at",)

    @admin.display(description="episodes", ordering="episode_count")
    def episode_count(self, obj: Project) -> int:
        return obj.episode_count

    @admin.display(description="knowledge graph")
    def graph_link(self, obj: Project) -> str:
        return format_html('<a href="{}">nodes</a>', node_trail.nodes_admin_url(obj))

    def get_urls(self):
        # Before the inherited URLs: their "<path:object_id>/" catch-all would swallow these.
        wrap = self.admin_site.admin_view
        prefix = f"{self.opts.app_label}_{self.opts.model_name}"
        return [
            path("<int:project_id>/nodes/", wrap(self.nodes_view), name=f"{prefix}_nodes"),
            path(
                "<int:project_id>/nodes/<int:number>/",
                wrap(self.node_view),
                name=f"{prefix}_node",
            ),
            *super().get_urls(),
        ]

    def nodes_view(self, request: HttpRequest, project_id: int):
        return admin_graph.project_nodes_view(request, self, project_id)

    def node_view(self, request: HttpRequest, project_id: int, number: int):
        return admin_graph.node_trail_view(request, self, project_id, number)

    @admin.action(description="Rebuild the graph from episodes", permissions=["change"])
    def rebuild_graph(self, request: HttpRequest, queryset: QuerySet[Project]) -> None:
        # Synchronous on purpose: the admin wants the outcome on the next page. For a very
        # large project use `manage.py kg_rebuild`, which reports progress.
        for project in queryset.select_related("organization"):
            try:
                replayed = rebuild_project_graph(project)
            except Exception as exc:
                self.message_user(
                    request,
                    f"{project.slug}: rebuild failed: {type(exc).__name__}: {exc}",
                    messages.ERROR,
                )
            else:
                self.message_user(
                    request,
                    f"{project.slug}: graph rebuilt from {replayed} episode(s).",
                    messages.SUCCESS,
                )


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "organization", "role", "created_at")
    list_filter = ("role", "organization")
    search_fields = ("user__username", "user__email", "organization__slug", "organization__name")
    list_select_related = ("user", "organization")
    autocomplete_fields = ("user", "organization")
    readonly_fields = ("created_at",)


# --- the ledger -------------------------------------------------------------------------


@admin.register(Episode)
class EpisodeAdmin(ReadOnlyAdmin):
    list_display = ("number", "project", "kind", "author", "excerpt", "valid_at", "status")
    list_display_links = ("number",)
    list_filter = ("project", "kind", "valid_at", "processing__status")
    search_fields = ("content", "author")
    date_hierarchy = "valid_at"
    list_per_page = 50
    actions = ("rerun_failed",)
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "project",
                    "number",
                    "kind",
                    "author",
                    "valid_at",
                    "recorded_at",
                    "uid",
                    "content_sha256",
                    "source",
                )
            },
        ),
        ("Text", {"fields": ("content",)}),
        (
            "Pipeline",
            {
                "fields": (
                    "processing_status",
                    "processing_stage",
                    "processing_attempts",
                    "processing_error",
                )
            },
        ),
    )
    readonly_fields = (
        "project",
        "number",
        "kind",
        "author",
        "valid_at",
        "recorded_at",
        "uid",
        "content_sha256",
        "source",
        "content",
        "processing_status",
        "processing_stage",
        "processing_attempts",
        "processing_error",
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).select_related("project__organization", "processing")

    @staticmethod
    def _processing(obj: Episode) -> EpisodeProcessing | None:
        try:
            return obj.processing
        except EpisodeProcessing.DoesNotExist:
            return None

    @admin.display(description="text")
    def excerpt(self, obj: Episode) -> str:
        return Truncator(obj.content).chars(90)

    @admin.display(description="status", ordering="processing__status")
    def status(self, obj: Episode) -> str:
        processing = self._processing(obj)
        return processing.get_status_display() if processing else "—"

    @admin.display(description="source reference")
    def source(self, obj: Episode) -> str:
        return _pre(obj.source_ref) if obj.source_ref else "—"

    @admin.display(description="status")
    def processing_status(self, obj: Episode) -> str:
        return self.status(obj)

    @admin.display(description="stage")
    def processing_stage(self, obj: Episode) -> str:
        processing = self._processing(obj)
        return (processing.stage if processing else "") or "—"

    @admin.display(description="attempts")
    def processing_attempts(self, obj: Episode) -> int:
        processing = self._processing(obj)
        return processing.attempts if processing else 0

    @admin.display(description="error")
    def processing_error(self, obj: Episode) -> str:
        processing = self._processing(obj)
        return _pre(processing.error) if processing and processing.error else "—"

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None:
            context["episode_graph"] = node_trail.episode_graph(obj)
            context["audit_links"] = [
                (label, f"{reverse(f'admin:kg_{model}_changelist')}?episode__id__exact={obj.pk}", n)
                for label, model, n in (
                    ("Model calls", "llmcall", obj.llm_calls.count()),
                    ("Extraction rejections", "extractionrejection", obj.rejections.count()),
                    ("Resolution decisions", "resolutiondecision", obj.resolutions.count()),
                )
            ]
        return super().render_change_form(request, context, add, change, form_url, obj)

    def has_rerun_permission(self, request: HttpRequest) -> bool:
        # Re-running changes only the pipeline's state (EpisodeProcessing), never the episode.
        return request.user.has_perm("kg.change_episodeprocessing")

    @admin.action(description="Re-run the pipeline for failed episodes", permissions=["rerun"])
    def rerun_failed(self, request: HttpRequest, queryset: QuerySet[Episode]) -> None:
        selected = queryset.count()
        failed = list(
            queryset.filter(processing__status=ProcessingStatus.FAILED)
            .order_by("project_id", "valid_at", "number")
            .values_list("pk", "project__slug", "number")
        )
        if selected > len(failed):
            self.message_user(
                request,
                f"{selected - len(failed)} selected episode(s) had not failed and were left alone.",
                messages.INFO,
            )
        done = []
        for pk, slug, number in failed:
            try:
                episode_ingest(pk)
            except Exception as exc:
                # episode_ingest has already recorded the failure on EpisodeProcessing; the
                # message shows it here so the admin need not open each episode.
                self.message_user(
                    request,
                    f"{slug} #{number} failed again: {type(exc).__name__}: {exc}",
                    messages.ERROR,
                )
            else:
                done.append(f"#{number}")
        if done:
            self.message_user(
                request,
                f"Pipeline re-run succeeded for {len(done)} episode(s): {', '.join(done)}.",
                messages.SUCCESS,
            )


# --- the extraction audit ---------------------------------------------------------------


@admin.register(LLMCall)
class LLMCallAdmin(ReadOnlyAdmin):
    list_display = (
        "created_at",
        "operation",
        "engine",
        "model",
        "parsed_ok",
        "prompt_tokens",
        "completion_tokens",
        "latency_ms",
        "short_hash",
        "episode_link",
    )
    list_filter = ("operation", "model", "parsed_ok", "engine")
    search_fields = ("prompt_hash", "raw_output")
    list_select_related = ("project", "episode__project")
    date_hierarchy = "created_at"
    fields = (
        "operation",
        "engine",
        "model",
        "prompt_hash",
        "parsed_ok",
        "error",
        "prompt_tokens",
        "completion_tokens",
        "latency_ms",
        "project",
        "episode_link",
        "created_at",
        "prompt_pretty",
        "raw_output_pretty",
    )
    readonly_fields = fields

    def changelist_view(self, request: HttpRequest, extra_context=None):
        # Above the list: how often each operation's answers were rejected, and why, for the
        # calls the filters select (a model writing invalid JSON shows here, not as silence).
        response = super().changelist_view(request, extra_context)
        changelist = getattr(response, "context_data", {}).get("cl")
        if changelist is not None:
            response.context_data["answer_rates"] = rejected_answers(changelist.queryset)
        return response

    @admin.display(description="prompt hash")
    def short_hash(self, obj: LLMCall) -> str:
        return obj.prompt_hash[:12]

    @admin.display(description="episode")
    def episode_link(self, obj: LLMCall) -> str:
        return _episode_link(obj.episode)

    @admin.display(description="prompt")
    def prompt_pretty(self, obj: LLMCall) -> str:
        return _pre(obj.prompt)

    @admin.display(description="raw output")
    def raw_output_pretty(self, obj: LLMCall) -> str:
        try:
            return _pre(json.loads(obj.raw_output))
        except ValueError:
            return _pre(obj.raw_output or "—")


@admin.register(ExtractionRejection)
class ExtractionRejectionAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "episode_link", "round", "item_kind", "short_reason", "final")
    list_filter = ("final", "item_kind", "round")
    search_fields = ("reason",)
    list_select_related = ("episode__project",)
    fields = (
        "episode_link",
        "llm_call_link",
        "round",
        "item_kind",
        "final",
        "reason",
        "item_pretty",
        "created_at",
    )
    readonly_fields = fields

    @admin.display(description="episode")
    def episode_link(self, obj: ExtractionRejection) -> str:
        return _episode_link(obj.episode)

    @admin.display(description="model call")
    def llm_call_link(self, obj: ExtractionRejection) -> str:
        if obj.llm_call_id is None:
            return "—"
        url = reverse("admin:kg_llmcall_change", args=[obj.llm_call_id])
        return format_html('<a href="{}">{}</a>', url, obj.llm_call)

    @admin.display(description="reason")
    def short_reason(self, obj: ExtractionRejection) -> str:
        return Truncator(obj.reason).chars(120)

    @admin.display(description="item")
    def item_pretty(self, obj: ExtractionRejection) -> str:
        return _pre(obj.item)


@admin.register(ResolutionDecision)
class ResolutionDecisionAdmin(ReadOnlyAdmin):
    list_display = (
        "candidate_label",
        "node_type",
        "method",
        "score_display",
        "compared_label",
        "node_link",
        "episode_link",
        "created_at",
    )
    list_filter = ("method", "node_type", "project")
    search_fields = ("candidate_label", "compared_label", "node_uid")
    list_select_related = ("project", "episode__project")
    fields = (
        "project",
        "episode_link",
        "node_type",
        "candidate_label",
        "method",
        "score_display",
        "compared_label",
        "node_link",
        "node_uid",
        "created_at",
    )
    readonly_fields = fields

    @admin.display(description="score", ordering="score")
    def score_display(self, obj: ResolutionDecision) -> str:
        return "—" if obj.score is None else f"{obj.score:.1f}"

    @admin.display(description="node", ordering="node_number")
    def node_link(self, obj: ResolutionDecision) -> str:
        url = node_trail.node_admin_url(obj.project_id, obj.node_number)
        return format_html('<a href="{}">#{}</a>', url, obj.node_number)

    @admin.display(description="episode")
    def episode_link(self, obj: ResolutionDecision) -> str:
        return _episode_link(obj.episode)
