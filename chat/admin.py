"""Admin for the chat: read what was said and follow it to the ledger and the graph.

Read-only: a user message must become an episode, so only chat.services writes messages.
"""

from __future__ import annotations

from django.contrib import admin
from django.utils.html import format_html, format_html_join
from django.utils.text import Truncator

from chat.models import Conversation, Message
from kg.read_models import episode_admin_url, node_admin_url


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class MessageInline(admin.TabularInline):
    model = Message
    fields = ["role", "episode", "text", "cited_nodes", "engine", "created_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Conversation)
class ConversationAdmin(ReadOnlyAdmin):
    list_display = ["title", "project", "created_by", "created_at"]
    list_filter = ["project"]
    search_fields = ["title"]
    inlines = [MessageInline]


@admin.register(Message)
class MessageAdmin(ReadOnlyAdmin):
    list_display = ["id", "conversation", "role", "episode_link", "short_text", "cited", "engine"]
    list_filter = ["role", "conversation__project"]
    search_fields = ["text"]
    list_select_related = ["conversation__project", "episode"]
    fields = ["conversation", "role", "episode_link", "text", "cited", "engine", "reply_to"]
    readonly_fields = fields

    @admin.display(description="message")
    def episode_link(self, message: Message) -> str:
        if not message.episode_id:
            return "—"
        return format_html(
            '<a href="{}">#{}</a>', episode_admin_url(message.episode_id), message.number
        )

    @admin.display(description="text")
    def short_text(self, message: Message) -> str:
        return Truncator(message.text).chars(80)

    @admin.display(description="cited nodes")
    def cited(self, message: Message) -> str:
        project = message.conversation.project_id
        return (
            format_html_join(
                ", ",
                '<a href="{}">#{}</a>',
                ((node_admin_url(project, n), n) for n in message.cited_nodes or []),
            )
            or "—"
        )
