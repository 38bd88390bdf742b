"""A PM edits the PRD: a new version with author, time and diff; the edited sentence keeps its
citations and is checked again; viewers cannot edit."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from artifacts.editing import Edit, EditRejected, edit_prd, version_changes
from artifacts.models import ArtifactVersion, Claim, Section
from artifacts.services import generate_prd
from kg.models import Membership, Role
from kg.tenancy import NotAllowed

pytestmark = pytest.mark.django_db


def _order(version: ArtifactVersion, section: str, text: str) -> int:
    return Claim.objects.get(version=version, section=section, text=text).order


def _quotes(version: ArtifactVersion, section: str, text: str) -> list[str]:
    claim = Claim.objects.get(version=version, section=section, text=text)
    return [c.quote for c in claim.citations.order_by("order")]


@pytest.fixture
def viewer(project):
    user = get_user_model().objects.create_user(username="vic", password="pw-secret-123")
    Membership.objects.create(user=user, organization=project.organization, role=Role.VIEWER)
    return user


def test_an_edit_is_a_new_version_with_its_author_and_the_diff(client, member, couriers):
    first = generate_prd(couriers.project)
    before = "Problem: App lags on weak internet."
    after = "Problem: the app lags on weak internet in basements."
    client.force_login(member)

    response = client.post(
        "/projects/couriers/prd/1/edit",
        {"sentence": f"problem:{_order(first, Section.PROBLEM, before)}", "text": after},
    )

    assert response.status_code == 302
    assert response["Location"] == "/projects/couriers/prd/?version=2"
    second = ArtifactVersion.objects.get(number=2)
    assert (second.edited_from, second.edited_by) == (first, "alice")
    assert second.completed_at is not None
    # The sentence keeps its citations; everything else is copied as it was.
    assert _quotes(second, Section.PROBLEM, after) == _quotes(first, Section.PROBLEM, before)
    edited = Claim.objects.get(version=second, text=after)
    assert edited.edited and edited.flag == ""
    assert first.claims.count() == second.claims.count()
    assert Claim.objects.filter(version=first, text=before).exists()  # v1 is unchanged
    changes = version_changes(first, second)
    assert [(c.section, c.before, c.after) for c in changes] == [("problem", before, after)]
    assert second.report["edit"]["changes"][0]["before"] == before
    page = client.get("/projects/couriers/prd/?version=2").content.decode()
    assert "Edited by alice from version 1" in page
    assert f"<del>{before}</del> → <ins>{after}</ins>" in page


def test_an_edited_number_no_quote_states_is_flagged(member, couriers):
    first = generate_prd(couriers.project)
    sentence = next(
        c for c in Claim.objects.filter(version=first, section=Section.PAINS) if "delayed" in c.text
    )
    assert any("3 of 10" in q for q in _quotes(first, Section.PAINS, sentence.text))

    kept = edit_prd(
        couriers.project,
        member,
        1,
        Edit(Section.PAINS, sentence.order, "Pain: 3 of 10 orders get delayed."),
    )
    changed = edit_prd(
        couriers.project,
        member,
        kept.number,
        Edit(Section.PAINS, sentence.order, "Pain: 5 of 10 orders get delayed."),
    )

    assert Claim.objects.get(version=kept, text="Pain: 3 of 10 orders get delayed.").flag == ""
    flagged = Claim.objects.get(version=changed, text="Pain: 5 of 10 orders get delayed.")
    assert "5" in flagged.flag and "no cited quote" in flagged.flag
    assert flagged.citations.exists()  # kept with its citations, flagged — not dropped
    assert "**Flagged after an edit: the number(s) 5" in changed.markdown
    [change] = version_changes(kept, changed)
    assert change.flag == flagged.flag


def test_a_viewer_cannot_edit(client, viewer, couriers):
    first = generate_prd(couriers.project)
    order = _order(first, Section.PROBLEM, "Problem: App lags on weak internet.")

    with pytest.raises(NotAllowed):
        edit_prd(couriers.project, viewer, 1, Edit(Section.PROBLEM, order, "Problem: none."))
    client.force_login(viewer)
    response = client.post(
        "/projects/couriers/prd/1/edit", {"sentence": f"problem:{order}", "text": "Problem: x."}
    )
    assert response.status_code == 403
    assert "Edit a sentence" not in client.get("/projects/couriers/prd/").content.decode()
    assert ArtifactVersion.objects.filter(number__isnull=False).count() == 1


def test_removing_a_sentence_and_what_cannot_be_edited(member, couriers):
    first = generate_prd(couriers.project)
    order = _order(first, Section.PROBLEM, "Problem: App lags on weak internet.")

    removed = edit_prd(couriers.project, member, 1, Edit(Section.PROBLEM, order, "  "))

    assert not Claim.objects.filter(version=removed, text="Problem: App lags on weak internet.")
    assert removed.claims.count() == first.claims.count() - 1
    [change] = version_changes(first, removed)
    assert (change.before, change.after) == ("Problem: App lags on weak internet.", "")
    with pytest.raises(EditRejected, match="written by the system"):
        edit_prd(couriers.project, member, 1, Edit(Section.OPEN_QUESTIONS, 0, "No questions."))
    with pytest.raises(EditRejected, match="no sentence 999"):
        edit_prd(couriers.project, member, 1, Edit(Section.PROBLEM, 999, "Problem: x."))
    with pytest.raises(ArtifactVersion.DoesNotExist):
        edit_prd(couriers.project, member, 42, Edit(Section.PROBLEM, order, "Problem: x."))


def test_the_api_edits_a_sentence_and_answers_with_the_diff(member, viewer, couriers):
    first = generate_prd(couriers.project)
    before = "Problem: App lags on weak internet."
    order = _order(first, Section.PROBLEM, before)
    url = "/api/projects/couriers/prd/versions/1/edit/"
    api = APIClient()
    api.force_authenticate(member)

    response = api.post(
        url, {"section": "problem", "order": order, "text": "Problem: 7 apps lag."}, format="json"
    )

    assert response.status_code == 201
    body = response.json()
    assert (body["version"], body["edited_from"], body["edited_by"]) == (2, 1, "alice")
    [change] = body["changes"]
    assert (change["before"], change["after"]) == (before, "Problem: 7 apps lag.")
    assert "7" in change["flag"]
    detail = api.get("/api/projects/couriers/prd/versions/2/").json()
    problem = next(s for s in detail["sections"] if s["key"] == "problem")
    edited = next(c for c in problem["claims"] if c["text"] == "Problem: 7 apps lag.")
    assert edited["edited"] is True and edited["flag"] == change["flag"]
    bad = api.post(url, {"section": "appendix", "order": 0, "text": "x"}, format="json")
    assert bad.status_code == 400 and "written by the system" in str(bad.json())
    api.force_authenticate(viewer)
    refused = api.post(url, {"section": "problem", "order": order, "text": "x"}, format="json")
    assert refused.status_code == 403
    assert ArtifactVersion.objects.filter(number__isnull=False).count() == 2


def test_regenerating_keeps_the_edit_or_shows_it_was_not_kept(client, member, couriers):
    first = generate_prd(couriers.project)
    before = "Problem: App lags on weak internet."
    after = "Problem: the app lags on weak internet in basements."
    order = _order(first, Section.PROBLEM, before)
    edited = edit_prd(couriers.project, member, 1, Edit(Section.PROBLEM, order, after))

    # Nothing changed in the research: the edited version is the answer, the edit kept.
    again = generate_prd(couriers.project)
    assert again.pk == edited.pk

    e10 = couriers.say("Couriers want a dark theme for night shifts.", "2026-03-20T10:00:00Z")
    couriers.node("feature", "Dark theme", (e10, "a dark theme for night shifts"))
    regenerated = generate_prd(couriers.project)

    assert regenerated.number == 3
    assert regenerated.report["edits_not_kept"] == [
        {"section": "problem", "text": after, "version": 2}
    ]
    client.force_login(member)
    page = client.get("/projects/couriers/prd/?version=3").content.decode()
    assert "Edits not in this version" in page and after in page
