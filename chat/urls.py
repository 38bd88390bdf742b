"""Web chat pages (mounted at the site root by config.urls)."""

from django.urls import path

import kg.web.api.converters  # noqa: F401  registers <num:...> and <project:...>
from chat import views

app_name = "chat"
P = "projects/<project:slug>/"

urlpatterns = [
    path("", views.project_list, name="projects"),
    path(P + "chat/", views.chat_page, name="chat"),
    path(P + "chat/new/", views.new_conversation, name="new-conversation"),
    path(P + "chat/<num:conversation_id>/", views.chat_page, name="conversation"),
    path(P + "chat/<num:conversation_id>/send/", views.send_message, name="send"),
    path(
        P + "chat/<num:conversation_id>/rename/",
        views.rename_conversation,
        name="rename-conversation",
    ),
    path(P + "chat/<num:conversation_id>/messages/", views.messages_partial, name="messages"),
    path(P + "panel/", views.panel, name="panel"),
    path(P + "upload/", views.upload_notes, name="upload"),
    path(P + "imports/<num:import_id>/", views.import_status, name="import-status"),
    path(
        P + "contradictions/<uuid:uid>/answer/",
        views.answer_contradiction,
        name="answer-contradiction",
    ),
    path(P + "messages/<num:number>/", views.message_link, name="message"),
    path(P + "ask/", views.ask_page, name="ask"),
]
