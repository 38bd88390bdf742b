"""Chat services: a message becomes an episode with the right number and author."""

from __future__ import annotations

import pytest
from django.db import transaction

from chat import services
from chat.models import Message, Role
from kg.graph import store
from kg.ledger.episodes import EpisodeInput, EpisodeRejected, record_episode
from kg.models import Episode, EpisodeKind
from kg.web.api.services import ContradictionAlreadyResolved


def test_a_message_becomes_the_next_episode_with_its_author(
    alice, queued_replies, django_capture_on_commit_callbacks
):
    user, project = alice
    user.first_name, user.last_name = "Alice", "Archer"
    user.save()
    # An imported record already took number 1: the chat continues the project's numbering.
    record_episode(
        project, EpisodeInput(content="imported", kind=EpisodeKind.IMPORT), enqueue=False
    )
    conversation = services.create_conversation(project, user, "Interviews")

    with django_capture_on_commit_callbacks(execute=True):
        message = services.post_user_message(conversation, user, "  Couriers hate paper maps.\n")

    episode = message.episode
    assert message.role == Role.USER
    assert message.number == episode.number == 2
    assert message.dom_id == "message-2"
    assert episode.content == message.text == "Couriers hate paper maps."
    assert episode.author == "Alice Archer"
    assert episode.kind == EpisodeKind.CHAT_MESSAGE
    assert episode.source_ref == {"channel": "chat", "conversation": conversation.pk}
    assert episode.processing.status == "pending"
    # Queued after commit, under the id the API hands out.
    assert queued_replies == [([message.pk], message.reply_task_id)]


def test_the_reply_is_not_queued_when_the_transaction_rolls_back(alice, queued_replies):
    user, project = alice
    conversation = services.create_conversation(project, user)
    with pytest.raises(RuntimeError), transaction.atomic():
        services.post_user_message(conversation, user, "never happened")
        raise RuntimeError("rolled back")
    assert not Episode.objects.exists() and not Message.objects.exists()
    assert queued_replies == []


@pytest.mark.parametrize("text", ["", "   \n\t", "a\x00b"])
def test_a_message_that_cannot_be_an_episode_writes_nothing(alice, queued_replies, text):
    user, project = alice
    conversation = services.create_conversation(project, user)
    with pytest.raises(EpisodeRejected):
        services.post_user_message(conversation, user, text)
    assert not Episode.objects.exists() and not Message.objects.exists()


def test_current_conversation_is_the_latest_or_a_new_one(alice):
    user, project = alice
    first = services.current_conversation(project, user)
    assert first.title == services.DEFAULT_TITLE
    assert services.current_conversation(project, user) == first
    second = services.create_conversation(project, user, "Later")
    assert services.current_conversation(project, user) == second


def test_conversation_of_another_project_is_not_found(alice, bob):
    _, project = alice
    bob_user, bob_project = bob
    theirs = services.create_conversation(bob_project, bob_user)
    with pytest.raises(services.ConversationNotFound):
        services.conversation_in(project, theirs.pk)


def test_awaiting_reply_lists_unanswered_user_messages(alice, queued_replies):
    user, project = alice
    conversation = services.create_conversation(project, user)
    first = services.post_user_message(conversation, user, "one")
    second = services.post_user_message(conversation, user, "two")
    reply = Message.objects.create(
        conversation=conversation, role=Role.ASSISTANT, text="ok", reply_to=first
    )
    assert services.awaiting_reply(conversation) == [second]
    # Written after "two", the reply to "one" is still listed in its thread, before "two".
    assert [m.pk for m in services.messages_of(conversation, after=first.pk)] == [
        reply.pk,
        second.pk,
    ]


def test_answering_a_contradiction_resolves_it_and_shows_the_answer_in_the_chat(
    alice, research, queued_replies, django_capture_on_commit_callbacks
):
    user, project = alice
    conversation = services.create_conversation(project, user)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        message = services.answer_contradiction(
            project,
            conversation,
            user,
            research.contradiction_uid,
            "Price matters to new couriers.",
        )
    assert message.episode.number == 5
    assert message.episode.source_ref == {
        "resolves": research.contradiction_uid,
        "keeps": f"{project.slug}-n3",
    }
    assert message.conversation == conversation
    [contradiction] = store.list_contradictions(project.graph_scope)
    assert contradiction.status == "resolved"
    assert contradiction.resolution.startswith("episode #5")
    # The pipeline (kg.episode_ingest, queued by kg) and the reply are both queued.
    assert len(callbacks) == 2
    assert queued_replies == [([message.pk], message.reply_task_id)]
    with pytest.raises(ContradictionAlreadyResolved):
        services.answer_contradiction(project, conversation, user, research.contradiction_uid, "x")


def test_research_panel_groups_current_nodes_with_their_sources(alice, research):
    _, project = alice
    panel = services.research_panel(project)
    groups = {g.type: g for g in panel.groups}
    assert [n.number for n in groups["segment"].nodes] == [1]
    couriers = groups["segment"].nodes[0]
    assert (couriers.label, couriers.confidence, couriers.sources) == ("Couriers", 85, 3)
    assert "alternative" not in groups  # #5 was closed: not what the research holds now
    assert panel.node_count == 5
    assert [(c.a, c.b) for c in panel.contradictions] == [(3, 4)]
    assert any(g.node == 1 for g in panel.gaps)
    assert panel.in_progress == 4  # the seeded episodes never went through the pipeline
    assert panel.engine.startswith("offline engine")


def test_research_panel_survives_a_graph_outage(alice, settings):
    from kg.graph import reset_client

    _, project = alice
    settings.GRAPH_URI = "bolt://127.0.0.1:1"
    settings.GRAPH_TIMEOUT_SECONDS = 1
    reset_client()
    try:
        panel = services.research_panel(project)
    finally:
        reset_client()
    assert panel.graph_error and panel.groups == []
