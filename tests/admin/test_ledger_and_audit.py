"""Tenancy, the read-only episode ledger and the extraction audit in the admin."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.urls import reverse

from kg.graph import store
from kg.models import (
    Episode,
    EpisodeProcessing,
    ExtractionRejection,
    LLMCall,
    Membership,
    ProcessingStatus,
)
from kg.reading.node_trail import node_admin_url, nodes_admin_url
from tests.admin.conftest import add_episode, evidence, node

pytestmark = pytest.mark.django_db


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


@pytest.fixture
def audit(trail):
    call = LLMCall.objects.create(
        operation="extraction",
        engine="offline",
        model="offline-rules-v1",
        prompt_hash="9f2c4e1ab7d03355",
        prompt=[{"role": "user", "content": "Extract from: Our couriers say..."}],
        raw_output='{"nodes": [{"label": "Invented pain", "quote": "never said"}]}',
        project=trail.project,
        episode=trail.e1,
    )
    rejection = ExtractionRejection.objects.create(
        episode=trail.e1,
        llm_call=call,
        round=2,
        item_kind="node",
        item={"type": "pain", "label": "Invented pain", "quote": "never said"},
        reason="quote not in episode: copy it word for word",
        final=True,
    )
    return call, rejection


def test_staff_opens_every_changelist(admin_client, trail, audit):
    user = get_user_model().objects.get(username="admin")
    Membership.objects.create(user=user, organization=trail.project.organization)
    for model in (
        "organization",
        "project",
        "membership",
        "episode",
        "llmcall",
        "extractionrejection",
        "resolutiondecision",
    ):
        page = text(admin_client.get(reverse(f"admin:kg_{model}_changelist")))
        assert '<table id="result_list">' in page, model
    assert "acme" in text(
        admin_client.get(reverse("admin:kg_organization_changelist"), {"q": "acm"})
    )
    assert "Couriers app" in text(
        admin_client.get(reverse("admin:kg_project_changelist"), {"language__exact": "en"})
    )
    assert "Acme" in text(
        admin_client.get(reverse("admin:kg_membership_changelist"), {"q": "admin"})
    )


def test_episode_changelist_search_and_filters(admin_client, trail):
    url = reverse("admin:kg_episode_changelist")
    assert "drivers call dispatch" in text(admin_client.get(url, {"q": "dispatch"}))
    assert "drivers call dispatch" not in text(admin_client.get(url, {"q": "EU market"}))
    by_kind = text(admin_client.get(url, {"kind__exact": "file_chunk"}))
    assert "drivers call dispatch" in by_kind and "EU market" not in by_kind
    by_project = text(admin_client.get(url, {"project__id__exact": trail.project.pk}))
    assert "1 of" not in by_project and "3 episodes" in by_project
    by_day = text(
        admin_client.get(url, {"valid_at__year": 2026, "valid_at__month": 3, "valid_at__day": 25})
    )
    assert "EU market" in by_day and "dispatch" not in by_day


def test_episode_page_lists_its_nodes_edges_and_status(admin_client, trail):
    EpisodeProcessing.objects.filter(episode=trail.e1).update(
        status=ProcessingStatus.FAILED, error="GraphUnavailable: boom"
    )
    page = text(admin_client.get(reverse("admin:kg_episode_change", args=[trail.e1.pk])))
    for n in (trail.lag, trail.couriers, trail.paper_maps, trail.price_matters):
        assert node_admin_url(trail.project, n.number) in page
    assert node_admin_url(trail.project, trail.us.number) not in page  # said in episode 2
    assert "Edges (2)" in page and "experiences" in page and "addresses" in page
    assert "<mark>Our couriers say the app lags on weak internet in basements</mark>" in page
    assert "Failed" in page and "GraphUnavailable: boom" in page
    assert "message" in page and "47" in page  # the source reference


def test_episode_pages_offer_no_editing(admin_client, trail):
    change_url = reverse("admin:kg_episode_change", args=[trail.e1.pk])
    page = text(admin_client.get(change_url))
    assert 'name="_save"' not in page
    assert 'name="_continue"' not in page
    assert 'name="_addanother"' not in page
    assert reverse("admin:kg_episode_delete", args=[trail.e1.pk]) not in page
    assert "<textarea" not in page
    response = admin_client.post(change_url, {"content": "rewritten history", "author": "x"})
    assert response.status_code == 403
    assert Episode.objects.get(pk=trail.e1.pk).content.startswith("Our couriers say")
    assert admin_client.get(reverse("admin:kg_episode_add")).status_code == 403
    assert admin_client.post(reverse("admin:kg_episode_add"), {"content": "x"}).status_code == 403
    delete_url = reverse("admin:kg_episode_delete", args=[trail.e1.pk])
    assert admin_client.get(delete_url).status_code == 403
    assert admin_client.post(delete_url, {"post": "yes"}).status_code == 403
    changelist = text(admin_client.get(reverse("admin:kg_episode_changelist")))
    assert 'value="delete_selected"' not in changelist
    assert 'value="rerun_failed"' in changelist
    assert reverse("admin:kg_episode_add") not in changelist
    admin_client.post(
        reverse("admin:kg_episode_changelist"),
        {"action": "delete_selected", "_selected_action": [trail.e1.pk], "post": "yes"},
    )
    assert Episode.objects.filter(pk=trail.e1.pk).exists()


def test_audit_pages_are_read_only_and_searchable(admin_client, trail, audit):
    call, rejection = audit
    calls = reverse("admin:kg_llmcall_changelist")
    assert "9f2c4e1ab7d0" in text(admin_client.get(calls, {"q": "9f2c4e1a"}))
    assert "9f2c4e1ab7d0" in text(admin_client.get(calls, {"q": "Invented pain"}))
    assert "9f2c4e1ab7d0" not in text(admin_client.get(calls, {"q": "nothing like it"}))
    assert "9f2c4e1ab7d0" in text(
        admin_client.get(
            calls, {"operation": "extraction", "model": "offline-rules-v1", "parsed_ok__exact": 1}
        )
    )
    assert "9f2c4e1ab7d0" not in text(admin_client.get(calls, {"parsed_ok__exact": 0}))
    call_page = text(admin_client.get(reverse("admin:kg_llmcall_change", args=[call.pk])))
    assert "Invented pain" in call_page and "Extract from: Our couriers say..." in call_page
    assert 'name="_save"' not in call_page

    rejections = reverse("admin:kg_extractionrejection_changelist")
    listing = text(admin_client.get(rejections, {"final__exact": 1, "item_kind": "node"}))
    assert "quote not in episode: copy it word for word" in listing
    assert "copy it word" not in text(admin_client.get(rejections, {"final__exact": 0}))
    rejection_page = text(
        admin_client.get(reverse("admin:kg_extractionrejection_change", args=[rejection.pk]))
    )
    assert "Invented pain" in rejection_page and "never said" in rejection_page
    assert reverse("admin:kg_llmcall_change", args=[call.pk]) in rejection_page
    assert 'name="_save"' not in rejection_page

    decisions = text(
        admin_client.get(reverse("admin:kg_resolutiondecision_changelist"), {"method": "fuzzy"})
    )
    assert "93.5" in decisions and node_admin_url(trail.project, trail.lag.number) in decisions

    for model, pk in (
        ("llmcall", call.pk),
        ("extractionrejection", rejection.pk),
        ("resolutiondecision", trail.project.resolutions.first().pk),
    ):
        assert admin_client.get(reverse(f"admin:kg_{model}_add")).status_code == 403
        assert admin_client.post(reverse(f"admin:kg_{model}_change", args=[pk])).status_code == 403
        assert admin_client.get(reverse(f"admin:kg_{model}_delete", args=[pk])).status_code == 403

    episode_page = text(admin_client.get(reverse("admin:kg_episode_change", args=[trail.e1.pk])))
    assert f"?episode__id__exact={trail.e1.pk}" in episode_page
    assert "Extraction rejections (1)" in episode_page
    filtered = text(admin_client.get(rejections, {"episode__id__exact": trail.e1.pk}))
    assert "copy it word" in filtered


@pytest.mark.parametrize("staff", [False, None])
def test_non_staff_are_sent_to_the_admin_login(client, trail, staff):
    if staff is False:
        client.force_login(get_user_model().objects.create_user("member", password="x"))
    for url in (
        node_admin_url(trail.project, trail.lag.number),
        nodes_admin_url(trail.project),
        reverse("admin:kg_episode_change", args=[trail.e1.pk]),
        reverse("admin:kg_llmcall_changelist"),
    ):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("admin:login") + "?next=")


def test_staff_who_is_not_superuser_cannot_open_the_graph(client, trail):
    user = get_user_model().objects.create_user("clerk", password="x", is_staff=True)
    client.force_login(user)
    for url in (node_admin_url(trail.project, trail.lag.number), nodes_admin_url(trail.project)):
        response = client.get(url)
        assert response.status_code == 302  # the admin is for superusers (config.admin)
        assert response["Location"].startswith(reverse("admin:login"))


def _post_action(admin_client, model: str, action: str, pks: list[int]):
    response = admin_client.post(
        reverse(f"admin:kg_{model}_changelist"),
        {"action": action, "_selected_action": pks, "index": 0},
    )
    assert response.status_code == 302
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_rerun_reports_each_failed_episode(admin_client, trail, monkeypatch):
    """The reporting, with the pipeline replaced: one episode fails again, one succeeds."""
    for episode in (trail.e1, trail.e2):
        EpisodeProcessing.objects.filter(episode=episode).update(status=ProcessingStatus.FAILED)
    ran = []

    def ingest(episode_id: int, force: bool = False):
        ran.append(episode_id)
        if episode_id == trail.e2.pk:
            raise ConnectionError("graph down")

    monkeypatch.setattr("kg.admin.episode_ingest", ingest)
    notes = _post_action(
        admin_client, "episode", "rerun_failed", [trail.e1.pk, trail.e2.pk, trail.e3.pk]
    )
    assert sorted(ran) == sorted([trail.e1.pk, trail.e2.pk])  # e3 had not failed
    assert "1 selected episode(s) had not failed and were left alone." in notes
    assert "couriers #2 failed again: ConnectionError: graph down" in notes
    assert "Pipeline re-run succeeded for 1 episode(s): #1." in notes


def test_rerun_calls_the_real_pipeline(admin_client, org_project, graph):
    """Whatever the pipeline's outcome, the message and the recorded status agree."""
    episode = add_episode(org_project, "Couriers say the app lags on weak internet.")
    EpisodeProcessing.objects.filter(episode=episode).update(
        status=ProcessingStatus.FAILED, error="old error"
    )
    notes = _post_action(admin_client, "episode", "rerun_failed", [episode.pk])
    processing = EpisodeProcessing.objects.get(episode=episode)
    assert processing.attempts == 1
    if processing.status == ProcessingStatus.DONE:
        assert notes == ["Pipeline re-run succeeded for 1 episode(s): #1."]
    else:
        assert processing.status == ProcessingStatus.FAILED
        assert processing.error != "old error"
        assert notes == [f"couriers #1 failed again: {processing.error}"]


def test_rebuild_action_replays_the_ledger(admin_client, org_project, graph):
    scope = org_project.graph_scope
    stray = add_episode(org_project, "A stray node.")
    store.write_nodes(scope, [node(1, "pain", "Stray", [evidence(stray, "stray node")], 65)])
    assert store.count_nodes(scope) == 1
    notes = _post_action(admin_client, "project", "rebuild_graph", [org_project.pk])
    processing = EpisodeProcessing.objects.get(episode=stray)
    if processing.status == ProcessingStatus.DONE:
        assert notes == ["couriers: graph rebuilt from 1 episode(s)."]
    else:
        # Without a working extractor the replay fails: the admin is told, nothing crashes.
        assert len(notes) == 1 and notes[0].startswith("couriers: rebuild failed: ")
    # Either way the old graph was dropped before the replay.
    assert store.node_by_number(scope, 1) is None or store.node_by_number(scope, 1).label != "Stray"
