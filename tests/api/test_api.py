"""Every API endpoint: what it returns, and who is refused (401 anonymous, 404 other orgs)."""

from __future__ import annotations

import uuid

import pytest
from rest_framework.pagination import PageNumberPagination
from rest_framework.test import APIClient

from chat.models import Conversation, Message
from kg.graph import store
from kg.models import Episode

PROJECT = "/api/projects/couriers/"
OTHER = "/api/projects/warehouse/"


def _error(response, status: int) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["status"] == status
    assert body["code"] and body["message"]
    return body


# --- authentication ---------------------------------------------------------------------------

ANONYMOUS_GETS = [
    "/api/organizations/",
    "/api/organizations/acme/",
    "/api/projects/",
    PROJECT,
    PROJECT + "episodes/",
    PROJECT + "episodes/1/",
    PROJECT + "nodes/",
    PROJECT + "nodes/1/",
    PROJECT + "edges/",
    PROJECT + "gaps/",
    PROJECT + "contradictions/",
    PROJECT + f"contradictions/{uuid.uuid4()}/",
    PROJECT + "conversations/",
    PROJECT + "conversations/1/",
    PROJECT + "conversations/1/messages/",
    f"/api/tasks/{uuid.uuid4()}/",
]


@pytest.mark.parametrize("url", ANONYMOUS_GETS)
def test_anonymous_requests_are_refused_with_401(alice, url):
    response = APIClient().get(url)
    body = _error(response, 401)
    assert response["WWW-Authenticate"] == "Token"
    assert "credentials" in body["message"].lower()


@pytest.mark.parametrize(
    "url, data",
    [
        (PROJECT + "conversations/", {"title": "x"}),
        (PROJECT + "conversations/1/messages/", {"text": "hello"}),
        (PROJECT + f"contradictions/{uuid.uuid4()}/resolve/", {"answer": "yes"}),
    ],
)
def test_anonymous_writes_are_refused_and_write_nothing(alice, url, data):
    _error(APIClient().post(url, data, format="json"), 401)
    assert not Episode.objects.exists()
    assert not Conversation.objects.exists()


def test_a_bad_token_is_401(alice):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    _error(client.get("/api/projects/"), 401)


def test_session_auth_works_and_needs_csrf_for_writes(alice):
    user, _ = alice
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.get("/api/projects/").status_code == 200
    body = _error(client.post(PROJECT + "conversations/", {"title": "x"}, format="json"), 403)
    assert "CSRF" in body["message"]


def test_token_endpoint_hands_out_a_token(alice):
    response = APIClient().post(
        "/api/auth/token/", {"username": "alice", "password": "pw-123456"}, format="json"
    )
    assert response.status_code == 200
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert client.get("/api/projects/").status_code == 200
    wrong = APIClient().post(
        "/api/auth/token/", {"username": "alice", "password": "nope"}, format="json"
    )
    assert "credentials" in _error(wrong, 401)["message"]  # well formed, just not valid


# --- other organizations: always 404, never 403 (their existence is not disclosed) -------------

OTHER_ORG_GETS = [
    "/api/organizations/globex/",
    OTHER,
    OTHER + "episodes/",
    OTHER + "episodes/1/",
    OTHER + "nodes/",
    OTHER + "nodes/1/",
    OTHER + "edges/",
    OTHER + "gaps/",
    OTHER + "contradictions/",
    OTHER + "conversations/",
]


@pytest.mark.parametrize("url", OTHER_ORG_GETS)
def test_another_organizations_resources_are_404(api, other_research, url):
    _error(api.get(url), 404)


def test_another_organizations_contradiction_conversation_and_messages_are_404(
    api, bob, other_research
):
    bob_user, bob_project = bob
    conversation = Conversation.objects.create(project=bob_project, title="secret")
    uid = other_research.contradiction_uid
    _error(api.get(OTHER + f"contradictions/{uid}/"), 404)
    _error(api.post(OTHER + f"contradictions/{uid}/resolve/", {"answer": "x"}), 404)
    _error(api.get(OTHER + f"conversations/{conversation.pk}/"), 404)
    _error(api.get(OTHER + f"conversations/{conversation.pk}/messages/"), 404)
    before = Episode.objects.filter(project=bob_project).count()
    _error(api.post(OTHER + f"conversations/{conversation.pk}/messages/", {"text": "hi"}), 404)
    _error(api.post(OTHER + "conversations/", {"title": "mine now"}), 404)
    assert Episode.objects.filter(project=bob_project).count() == before
    assert Conversation.objects.filter(project=bob_project).count() == 1
    # Still open: the refused answer changed nothing in Bob's graph.
    [c] = store.list_contradictions(bob_project.graph_scope)
    assert c.status == "open"


def test_a_conversation_id_of_another_project_is_404_under_mine(api, bob):
    _, bob_project = bob
    theirs = Conversation.objects.create(project=bob_project, title="theirs")
    _error(api.get(PROJECT + f"conversations/{theirs.pk}/"), 404)
    _error(api.post(PROJECT + f"conversations/{theirs.pk}/messages/", {"text": "hi"}), 404)


# --- tenancy ----------------------------------------------------------------------------------


def test_organizations_and_projects_list_only_mine(api, bob):
    orgs = api.get("/api/organizations/").json()
    assert [o["slug"] for o in orgs["results"]] == ["acme"]
    assert orgs["results"][0]["role"] == "owner"
    assert api.get("/api/organizations/acme/").json()["name"] == "Acme"
    projects = api.get("/api/projects/").json()
    assert orgs["count"] == 1 and projects["count"] == 1
    [project] = projects["results"]
    assert project["slug"] == "couriers"
    assert project["organization"] == "acme"
    assert project["language"] == "en"


def test_project_detail_counts_its_episodes(api, research):
    body = api.get(PROJECT).json()
    assert body["slug"] == "couriers"
    assert body["episode_count"] == 4


# --- episodes ---------------------------------------------------------------------------------


def test_episodes_are_listed_with_their_processing_status(api, research):
    body = api.get(PROJECT + "episodes/").json()
    assert body["count"] == 4
    first = body["results"][0]
    assert first["number"] == 1
    assert first["author"] == "Pat PM"
    assert first["content"].startswith("Couriers tell us")
    assert first["processing"]["status"] == "pending"
    assert api.get(PROJECT + "episodes/?status=done").json()["count"] == 0
    assert api.get(PROJECT + "episodes/?status=pending").json()["count"] == 4
    _error(api.get(PROJECT + "episodes/?status=sleeping"), 400)


def test_episode_detail_lists_the_nodes_extracted_from_it(api, research):
    body = api.get(PROJECT + "episodes/4/").json()
    assert body["number"] == 4
    assert {(n["number"], n["type"]) for n in body["nodes"]} == {
        (1, "segment"),
        (5, "alternative"),
        (6, "competitor"),
    }
    _error(api.get(PROJECT + "episodes/99/"), 404)


def test_episodes_are_read_only(api, research):
    assert api.post(PROJECT + "episodes/", {"content": "x"}).status_code == 405
    assert api.delete(PROJECT + "episodes/1/").status_code == 405


# --- nodes ------------------------------------------------------------------------------------


def test_nodes_list_and_filters(api, research):
    body = api.get(PROJECT + "nodes/").json()
    assert [n["number"] for n in body["results"]] == [1, 2, 3, 4, 5, 6]
    couriers = body["results"][0]
    assert couriers == couriers | {"type": "segment", "label": "Couriers", "sources": 3}
    assert couriers["confidence"] == 85 and couriers["valid"] is True

    def numbers(query: str) -> list[int]:
        return [n["number"] for n in api.get(PROJECT + "nodes/?" + query).json()["results"]]

    assert numbers("type=insight") == [3, 4]
    assert numbers("valid=false") == [5]
    assert numbers("valid=true") == [1, 2, 3, 4, 6]
    assert numbers("min_confidence=80") == [1]
    assert numbers("type=pain&valid=true&min_confidence=60") == [2]


@pytest.mark.parametrize(
    "query, field",
    [
        ("type=unicorn", "type"),
        ("min_confidence=abc", "min_confidence"),
        ("min_confidence=101", "min_confidence"),
        ("valid=maybe", "valid"),
    ],
)
def test_bad_node_filters_are_400_with_the_field_named(api, research, query, field):
    body = _error(api.get(PROJECT + "nodes/?" + query), 400)
    assert field in body["errors"]
    assert field in body["message"]


def test_graph_lists_are_paginated(api, research, monkeypatch):
    monkeypatch.setattr(PageNumberPagination, "page_size", 4)
    first = api.get(PROJECT + "nodes/").json()
    assert first["count"] == 6 and len(first["results"]) == 4
    assert first["next"].endswith("page=2")
    second = api.get(first["next"]).json()
    assert [n["number"] for n in second["results"]] == [5, 6]
    _error(api.get(PROJECT + "nodes/?page=9"), 404)


def test_node_detail_is_the_evidence_trail(api, research):
    body = api.get(PROJECT + "nodes/1/").json()
    assert body["label"] == "Couriers"
    assert [e["episode_number"] for e in body["evidence"]] == [1, 2, 4]
    first = body["evidence"][0]
    assert first["quote"] == "Couriers"
    assert first["author"] == "Pat PM"
    assert first["kind"] == "chat_message"
    assert "the app lags on weak internet" in first["excerpt"]
    assert first["message_url"] == "/projects/couriers/research/messages/1/"
    assert body["confidence_explanation"] == "3 supporting episode(s) → 85 = 85"
    edges = {(e["relation"], e["direction"], e["target"]["number"]) for e in body["edges"]}
    assert edges == {("experiences", "out", 2), ("uses", "out", 6)}
    assert body["contradictions"] == []


def test_node_detail_explains_a_contradiction_penalty(api, research):
    body = api.get(PROJECT + "nodes/3/").json()
    assert body["confidence"] == 50
    assert "1 open contradiction(s)" in body["confidence_explanation"]
    [contradiction] = body["contradictions"]
    assert contradiction["b"]["number"] == 4
    _error(api.get(PROJECT + "nodes/77/"), 404)


# --- edges, gaps, contradictions --------------------------------------------------------------


def test_edges_list_and_filter(api, research):
    body = api.get(PROJECT + "edges/").json()
    assert body["count"] == 2
    edge = body["results"][0]
    assert edge["source"] == {"number": 1, "type": "segment", "label": "Couriers"}
    assert edge["quotes"]
    assert api.get(PROJECT + "edges/?relation=uses").json()["count"] == 1
    assert api.get(PROJECT + "edges/?valid=false").json()["count"] == 0
    _error(api.get(PROJECT + "edges/?relation=LOVES"), 400)


def test_gaps_are_questions(api, research):
    body = api.get(PROJECT + "gaps/").json()
    rules = {(g["rule"], g["node"]) for g in body["results"]}
    assert ("segment_without_triggers", 1) in rules
    assert ("pain_without_alternatives", 2) in rules
    assert all(g["question"].endswith(("?", ".")) for g in body["results"])


def test_contradictions_list_detail_and_filter(api, research):
    body = api.get(PROJECT + "contradictions/").json()
    [c] = body["results"]
    assert c["uid"] == research.contradiction_uid
    assert c["status"] == "open"
    assert (c["a"]["number"], c["b"]["number"]) == (3, 4)
    assert "Price is the main factor" in c["question"]
    assert api.get(PROJECT + "contradictions/?status=resolved").json()["count"] == 0
    assert api.get(PROJECT + f"contradictions/{c['uid']}/").json()["subject"] == "price"
    _error(api.get(PROJECT + f"contradictions/{uuid.uuid4()}/"), 404)
    _error(api.get(PROJECT + "contradictions/?status=maybe"), 400)


def test_resolving_a_contradiction_records_the_answer_as_an_episode(
    api, research, django_capture_on_commit_callbacks
):
    url = PROJECT + f"contradictions/{research.contradiction_uid}/resolve/"
    with django_capture_on_commit_callbacks() as queued:
        response = api.post(url, {"answer": "Price matters only to new couriers."}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["episode"]["number"] == 5
    assert body["episode"]["author"] == "alice"
    # No negation in the answer: it sides with #3 ("Price is the main factor").
    assert body["episode"]["source_ref"] == {
        "resolves": research.contradiction_uid,
        "keeps": f"{research.project.slug}-n3",
    }
    assert body["episode"]["processing"]["status"] == "pending"
    assert body["contradiction"]["status"] == "resolved"
    assert body["contradiction"]["resolution"].startswith("episode #5")
    assert (body["contradiction"]["kept"], body["contradiction"]["superseded"]) == (3, 4)
    assert body["contradiction"]["answer_message"] == 5
    # The answer goes through the pipeline like any message (and org memory is told).
    queued_names = [getattr(q, "func", q).__name__ for q in queued]
    assert queued_names.count("_enqueue") == 1
    # Answering twice would overwrite the first answer: refused.
    body = _error(api.post(url, {"answer": "again"}, format="json"), 409)
    assert "already resolved" in body["message"]
    # The penalty is gone once resolved.
    assert api.get(PROJECT + "nodes/3/").json()["confidence"] == 65


def test_resolve_needs_an_answer(api, research):
    url = PROJECT + f"contradictions/{research.contradiction_uid}/resolve/"
    assert "answer" in _error(api.post(url, {}, format="json"), 400)["errors"]
    assert "answer" in _error(api.post(url, {"answer": "   "}, format="json"), 400)["errors"]
    assert Episode.objects.filter(project=research.project).count() == 4


# --- conversations and messages ---------------------------------------------------------------


def test_conversations_create_list_detail(api, alice):
    created = api.post(PROJECT + "conversations/", {"title": "Interviews"}, format="json")
    assert created.status_code == 201
    body = created.json()
    assert body["title"] == "Interviews" and body["created_by"] == "alice"
    untitled = api.post(PROJECT + "conversations/", {}, format="json").json()
    assert untitled["title"] == "Research notes"
    listed = api.get(PROJECT + "conversations/").json()
    assert listed["count"] == 2
    detail = api.get(PROJECT + f"conversations/{body['id']}/").json()
    assert detail["message_count"] == 0
    _error(api.get(PROJECT + "conversations/999/"), 404)


def test_posting_a_message_records_its_episode_and_queues_the_reply(
    api, alice, django_capture_on_commit_callbacks, monkeypatch
):
    from chat.tasks import assistant_reply_task

    queued: list[tuple] = []
    monkeypatch.setattr(
        assistant_reply_task, "apply_async", lambda args, task_id: queued.append((args, task_id))
    )
    _, project = alice
    conversation = api.post(PROJECT + "conversations/", {}, format="json").json()
    url = PROJECT + f"conversations/{conversation['id']}/messages/"
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(url, {"text": "Couriers hate paper maps."}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    message = Message.objects.get(pk=body["id"])
    assert body["role"] == "user" and body["number"] == 1
    assert body["processing_status"] == "pending"
    assert message.episode.content == "Couriers hate paper maps."
    assert message.episode.author == "alice"
    assert message.episode.source_ref == {"channel": "chat", "conversation": conversation["id"]}
    assert queued == [([message.pk], body["reply_task_id"])]
    listed = api.get(url).json()
    assert [m["id"] for m in listed["results"]] == [message.pk]
    assert api.get(url + f"?after={message.pk}").json()["count"] == 0
    _error(api.get(url + "?after=-1"), 400)


def test_an_empty_or_oversized_message_is_400_and_writes_nothing(api, alice):
    conversation = api.post(PROJECT + "conversations/", {}, format="json").json()
    url = PROJECT + f"conversations/{conversation['id']}/messages/"
    assert "text" in _error(api.post(url, {"text": "  \n "}, format="json"), 400)["errors"]
    assert "text" in _error(api.post(url, {}, format="json"), 400)["errors"]
    big = api.post(url, {"text": "x" * 200_001}, format="json")
    assert "text" in _error(big, 400)["errors"]
    assert not Episode.objects.exists() and not Message.objects.exists()


# --- tasks, errors, schema --------------------------------------------------------------------


def owned_task(project, task_id: str | None = None) -> str:
    """A reply task of a conversation in `project` (task status is for its members)."""
    from chat.models import Conversation, Message

    task_id = task_id or str(uuid.uuid4())
    conversation = Conversation.objects.create(project=project, title="Tasks")
    Message.objects.create(conversation=conversation, role="user", text="?", reply_task_id=task_id)
    return task_id


def test_task_status_reads_the_result_backend(api, alice, embedded_server):
    task_id = owned_task(alice[1])
    body = api.get(f"/api/tasks/{task_id}/").json()
    assert body == {
        "id": task_id,
        "state": "PENDING",
        "ready": False,
        "successful": None,
        "error": "",
    }


def test_a_finished_task_reports_success(api, alice, embedded_server):
    from config.celery import app

    task_id = owned_task(alice[1])
    app.backend.store_result(task_id, {"reply": 1}, "SUCCESS")
    body = api.get(f"/api/tasks/{task_id}/").json()
    assert body["state"] == "SUCCESS" and body["ready"] is True and body["successful"] is True
    failed = owned_task(alice[1])
    app.backend.store_result(failed, ValueError("no luck"), "FAILURE")
    body = api.get(f"/api/tasks/{failed}/").json()
    assert body["successful"] is False and body["error"] == "ValueError: no luck"


def test_task_status_is_for_the_task_projects_members_only(api, alice, bob, embedded_server):
    bob_client = APIClient()
    bob_client.force_authenticate(bob[0])
    alices = owned_task(alice[1])
    _error(bob_client.get(f"/api/tasks/{alices}/"), 404)
    _error(api.get(f"/api/tasks/{uuid.uuid4()}/"), 404)  # nobody's task
    assert api.get(f"/api/tasks/{alices}/").status_code == 200


@pytest.mark.parametrize("debug", [False, True])
def test_unknown_api_paths_are_json_404(api, settings, debug):
    settings.DEBUG = debug
    _error(api.get("/api/nothing-here/"), 404)
    _error(APIClient().get("/api/nothing-here/"), 404)


def test_graph_outage_is_503_json(api, alice, settings):
    from kg.graph import reset_client

    settings.GRAPH_URI = "bolt://127.0.0.1:1"
    settings.GRAPH_TIMEOUT_SECONDS = 1
    reset_client()
    try:
        body = _error(api.get(PROJECT + "nodes/"), 503)
    finally:
        reset_client()
    assert "graph" in body["message"]


def test_schema_and_docs_are_served_without_a_cdn(api, alice):
    schema = api.get("/api/schema/?format=json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert "/api/projects/{slug}/nodes/{number}/" in paths
    assert "/api/projects/{slug}/contradictions/{uid}/resolve/" in paths
    assert "404" in paths["/api/projects/{slug}/nodes/"]["get"]["responses"]
    docs = api.get("/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in html
    assert "cdn" not in html.lower() and "unpkg" not in html.lower()


# --- uploads ---------------------------------------------------------------------------------


def _notes(name: str, text: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, text, content_type="text/markdown")


def test_uploaded_notes_become_file_chunk_episodes(api, alice, bob):
    notes = b"# Interviews\n\nCouriers say the app lags on weak internet.\n"
    response = api.post(
        PROJECT + "uploads/", {"file": _notes("notes.md", notes)}, format="multipart"
    )
    assert response.status_code == 201, response.content
    [episode] = response.json()["episodes"]
    assert episode["kind"] == "file_chunk"
    assert episode["content"] == "Couriers say the app lags on weak internet."
    assert episode["source_ref"]["file"] == "notes.md"
    assert episode["source_ref"]["section"] == "Interviews"
    assert episode["processing"]["status"] == "pending"
    assert response.json()["errors"] == []

    broken = api.post(
        PROJECT + "uploads/", {"file": _notes("bad.txt", b"\xc3(\n")}, format="multipart"
    )
    assert "not valid UTF-8" in _error(broken, 400)["message"]
    _error(api.post(OTHER + "uploads/", {"file": _notes("n.md", notes)}, format="multipart"), 404)
    _error(
        APIClient().post(PROJECT + "uploads/", {"file": _notes("n.md", notes)}, format="multipart"),
        401,
    )
