"""The chat admin: read-only, linking messages to their episodes and cited nodes."""

from __future__ import annotations

from django.urls import reverse

from chat import services
from chat.models import Message, Role


def test_message_admin_links_to_the_episode_and_the_cited_nodes(
    admin_client, alice, queued_replies
):
    user, project = alice
    conversation = services.create_conversation(project, user, "Discovery")
    question = services.post_user_message(conversation, user, "Couriers hate <b>maps</b>.")
    Message.objects.create(
        conversation=conversation,
        role=Role.ASSISTANT,
        text="Couriers (#2).",
        reply_to=question,
        cited_nodes=[2],
    )
    html = admin_client.get(reverse("admin:chat_message_changelist")).content.decode()
    assert f'href="/admin/kg/episode/{question.episode_id}/change/">#1</a>' in html
    assert f'href="/admin/kg/project/{project.pk}/nodes/2/">#2</a>' in html
    assert "&lt;b&gt;maps&lt;/b&gt;" in html
    conversation_page = admin_client.get(
        reverse("admin:chat_conversation_change", args=[conversation.pk])
    )
    assert conversation_page.status_code == 200
    assert admin_client.get(reverse("admin:chat_message_add")).status_code == 403
