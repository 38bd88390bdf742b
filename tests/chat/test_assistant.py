"""The assistant's reply: what it says, what it cites, and that it never cites what is not there."""

from __future__ import annotations

import json

import pytest

from chat import assistant, services
from chat.models import Message, Role
from chat.prompts.assistant_reply import TEXTS, AssistantReplyResponse
from kg.graph import store
from kg.llm.engines import OFFLINE_MODEL
from kg.models import LLMCall, ProcessingStatus
from tests.fixtures.llm_server import Status


def _user_message(conversation, episode, text=None) -> Message:
    return Message.objects.create(
        conversation=conversation,
        role=Role.USER,
        episode=episode,
        text=text or episode.content,
    )


@pytest.fixture
def conversation(alice):
    user, project = alice
    return services.create_conversation(project, user)


def test_with_nothing_known_it_says_so_and_asks_an_opening_question(
    conversation, graph, queued_replies
):
    user = conversation.created_by
    message = services.post_user_message(conversation, user, "Hello there.")
    draft = assistant.compose_reply(conversation.project, message)
    lines = draft.text.splitlines()
    assert lines[0] == "Nothing in the research yet."
    assert lines[-1] == TEXTS["en"]["opening"]
    assert draft.cited_nodes == []
    assert draft.engine == f"offline:{OFFLINE_MODEL}"


def test_it_acknowledges_what_the_message_added_and_asks_about_the_contradiction_first(
    conversation, research
):
    message = _user_message(conversation, research.episodes[0])
    draft = assistant.compose_reply(conversation.project, message)
    lines = draft.text.splitlines()
    assert lines[0] == (
        "From this message: segment #1 “Couriers”, pain #2 “App lags on weak internet”."
    )
    assert lines[1].startswith("The research now holds 5 facts: ")
    assert "Best supported: competitor #6 “Yandex Maps”" in lines[2]
    assert lines[-1] == (
        "The research disagrees about price: #3 “Price is the main factor” vs "
        "#4 “Price does not matter”. Which holds now?"
    )
    existing = {n.number for n in store.list_nodes(conversation.project.graph_scope)}
    assert set(draft.cited_nodes) <= existing
    assert {1, 2, 3, 4, 6} <= set(draft.cited_nodes)
    assert 5 not in draft.cited_nodes  # closed nodes are not what the research holds now


def test_without_contradictions_it_asks_about_a_gap_of_what_the_message_touched(
    conversation, research, alice
):
    user, project = alice
    services.answer_contradiction(
        project, conversation, user, research.contradiction_uid, "Price matters."
    )
    message = _user_message(conversation, research.episodes[0])
    draft = assistant.compose_reply(project, message)
    question = draft.text.splitlines()[-1]
    assert question == "What makes Couriers look for a solution? (#1)"


def test_it_does_not_repeat_the_question_it_just_asked(conversation, research):
    message = _user_message(conversation, research.episodes[0])
    first = assistant.reply_to_message(message.pk)
    second_message = _user_message(conversation, research.episodes[1])
    second = assistant.reply_to_message(second_message.pk)
    assert first.text.splitlines()[-1] != second.text.splitlines()[-1]
    assert "disagrees" in first.text.splitlines()[-1]


def test_russian_projects_get_russian_replies(bob, graph, queued_replies):
    from tests.api.research import member

    user, project = member("ivan", "romashka", "kurery", language="ru")
    conversation = services.create_conversation(project, user)
    message = services.post_user_message(conversation, user, "Привет.")
    draft = assistant.compose_reply(project, message)
    assert draft.text.splitlines()[0] == "В исследовании пока ничего нет."


# --- checking replies -------------------------------------------------------------------------


def test_statements_citing_unknown_nodes_are_dropped(alice):
    _, project = alice
    answer = AssistantReplyResponse(
        text="Couriers (#1) lag (#2). Also #99 is huge!\nAsk about #3 vs #4?",
        cited_nodes=[1, 2, 99, 7],
    )
    draft = assistant.checked_reply(answer, {1, 2, 3, 4}, project, "test")
    assert draft.text == "Couriers (#1) lag (#2).\nAsk about #3 vs #4?"
    assert draft.cited_nodes == [1, 2, 3, 4]
    assert draft.dropped == 1


def test_numbers_inside_quoted_user_words_are_not_references(alice):
    _, project = alice
    answer = AssistantReplyResponse(text="Pain #2 “ticket #4521 is still open” matters.")
    draft = assistant.checked_reply(answer, {2}, project, "test")
    assert draft.text == "Pain #2 “ticket #4521 is still open” matters."
    assert draft.cited_nodes == [2]


def test_message_references_are_checked_against_the_ledger(alice, research):
    _, project = alice
    answer = AssistantReplyResponse(text="You said so in message #1. And in message #40.")
    draft = assistant.checked_reply(answer, set(), project, "test")
    assert draft.text == "You said so in message #1."
    assert draft.cited_nodes == []


# --- the whole reply, through the pipeline ----------------------------------------------------


def test_reply_to_message_runs_the_pipeline_first_and_replies_once(
    conversation, graph, queued_replies
):
    user = conversation.created_by
    message = services.post_user_message(
        conversation, user, "Couriers hate paper maps because the app lags in basements."
    )
    reply = assistant.reply_to_message(message.pk)

    message.episode.processing.refresh_from_db()
    assert message.episode.processing.status == ProcessingStatus.DONE
    nodes = {n.number: n for n in store.list_nodes(conversation.project.graph_scope)}
    assert nodes, "the offline extractor found nothing"
    assert reply.role == Role.ASSISTANT and reply.reply_to == message
    assert reply.text.startswith("From this message: ")
    assert reply.cited_nodes and set(reply.cited_nodes) <= set(nodes)
    assert reply.engine == f"offline:{OFFLINE_MODEL}"
    # Idempotent: a second run (a retried task) returns the same reply.
    assert assistant.reply_to_message(message.pk) == reply
    assert Message.objects.filter(reply_to=message).count() == 1


def test_a_failed_pipeline_is_reported_in_the_reply(
    conversation, graph, queued_replies, monkeypatch
):
    from kg.pipeline import ingest

    def broken(episode_id, **kwargs):
        raise ValueError("the extractor choked")

    monkeypatch.setattr(ingest, "episode_ingest", broken)
    message = services.post_user_message(conversation, conversation.created_by, "Hi.")
    reply = assistant.reply_to_message(message.pk)
    assert reply.text.splitlines()[0] == (
        "I could not analyse this message: ValueError: the extractor choked."
    )


def test_transient_failures_propagate_so_the_task_retries(
    conversation, graph, queued_replies, monkeypatch
):
    from kg.graph import GraphUnavailable
    from kg.pipeline import ingest

    def down(episode_id, **kwargs):
        raise GraphUnavailable("graph down")

    monkeypatch.setattr(ingest, "episode_ingest", down)
    message = services.post_user_message(conversation, conversation.created_by, "Hi.")
    with pytest.raises(GraphUnavailable):
        assistant.reply_to_message(message.pk)
    assert not Message.objects.filter(reply_to=message).exists()
    # Out of retries: the task still answers, saying why.
    reply = assistant.reply_to_message(message.pk, unavailable="graph down")
    assert reply.text == "I could not analyse this message: graph down."
    assert reply.engine == "system"


def test_only_user_messages_get_replies(conversation):
    own = Message.objects.create(conversation=conversation, role=Role.ASSISTANT, text="hi")
    with pytest.raises(ValueError, match="only users get replies"):
        assistant.reply_to_message(own.pk)


# --- openai mode: the model refers to numbers; the system checks them ----------------------------


def test_openai_mode_keeps_only_statements_about_existing_nodes(
    conversation, research, openai_mode
):
    openai_mode.script(
        {
            "text": "This message adds couriers (#1) and their lag (#2). "
            "Pain #77 is the biggest one.\nWhich is true now, #3 or #4?",
            "cited_nodes": [1, 2, 77, 3, 4],
        }
    )
    message = _user_message(conversation, research.episodes[0])
    draft = assistant.compose_reply(conversation.project, message)

    assert draft.text == (
        "This message adds couriers (#1) and their lag (#2).\nWhich is true now, #3 or #4?"
    )
    assert draft.cited_nodes == [1, 2, 3, 4]
    assert draft.engine == "openai:scripted-model"
    [request] = openai_mode.requests
    prompt = request["messages"][1]["content"]
    state = json.loads(prompt.split("Research state:\n", 1)[1].split("\n\nMessage:\n")[0])
    assert state["from_message"] == [1, 2]
    assert state["questions"][0]["kind"] == "contradiction"
    assert {n["number"] for n in state["nodes"]} == {1, 2, 3, 4, 6}
    assert LLMCall.objects.filter(operation="assistant_reply", engine="openai").count() == 1


def test_openai_mode_falls_back_to_the_offline_reply_when_the_model_fails(
    conversation, research, openai_mode
):
    openai_mode.script("this is not json", Status(500, "down"), Status(500), Status(500))
    message = _user_message(conversation, research.episodes[0])
    draft = assistant.compose_reply(conversation.project, message)
    assert draft.engine == "offline:fallback"
    assert draft.text.startswith("From this message: segment #1")


def test_openai_mode_falls_back_when_nothing_survives_the_checks(
    conversation, research, openai_mode
):
    openai_mode.script({"text": "Pain #500 and segment #501 dominate.", "cited_nodes": [500]})
    message = _user_message(conversation, research.episodes[0])
    draft = assistant.compose_reply(conversation.project, message)
    assert draft.engine == "offline:fallback"
    assert "#500" not in draft.text and 500 not in draft.cited_nodes
