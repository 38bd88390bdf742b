"""Corrections through the real pipeline (offline engine), the real SQL ledger and the real graph:
each action and its refusals, the ledger's immutability, what later messages do, and a rebuild
that replays episodes and corrections to the same graph with no model call."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction

from kg import corrections as fix
from kg.graph import store
from kg.models import Correction, LLMCall, Membership, ResolutionDecision, Role
from kg.models.corrections import ImmutableCorrectionError
from kg.operations.rebuild import rebuild_project_graph
from kg.pipeline.ingest import episode_ingest
from kg.pipeline.resolve import node_key
from kg.pipeline.revision import project_revision
from kg.tenancy import NotAllowed
from kg.undo import undo_correction
from tests.kg.pipeline_helpers import make_project, record_messages

pytestmark = pytest.mark.django_db

MESSAGES = [
    {
        "text": "Couriers in Berlin hate the slow checkout. The slow checkout makes them lose "
        "orders.",
        "at": "2026-01-01T10:00:00Z",
        "author": "Anna",
    },
    {
        "text": "Restaurant owners complain that the payment screen freezes every evening.",
        "at": "2026-01-02T10:00:00Z",
        "author": "Ben",
    },
    {
        "text": "Our app targets the food delivery market. Couriers use WhatsApp groups to "
        "coordinate shifts.",
        "at": "2026-01-03T10:00:00Z",
        "author": "Anna",
    },
    {
        "text": "The checkout is slow for couriers again; the payment screen freezes too.",
        "at": "2026-01-04T10:00:00Z",
        "author": "Ben",
    },
]


def _user(project, name: str, role: str = Role.EDITOR, first: str = ""):
    user = get_user_model().objects.create_user(username=name, password="pw", first_name=first)
    Membership.objects.create(user=user, organization=project.organization, role=role)
    return user


def _ingest(project, messages):
    for episode in record_messages(project, messages):
        episode_ingest(episode.pk)


def _by_label(project, node_type: str, label: str):
    found = [
        n
        for n in store.list_nodes(project.graph_scope, node_type)
        if n.label == label or node_key(label) in n.alias_keys
    ]
    assert found, f"no {node_type} {label!r}"
    return found[0]


def _graph(project) -> dict:
    scope = project.graph_scope
    return {
        "nodes": [n.model_dump() for n in store.list_nodes(scope)],
        "edges": sorted((e.model_dump() for e in store.list_edges(scope)), key=lambda e: e["uid"]),
        "supersessions": [s.model_dump() for s in store.list_supersessions(scope)],
    }


@pytest.fixture
def research(graph):
    project = make_project("corrections")
    _ingest(project, MESSAGES)
    anna = _user(project, "anna", first="Anna")
    return project, anna


def test_merge_joins_evidence_edges_and_names_and_closes_the_absorbed(research):
    project, anna = research
    keep = _by_label(project, "pain", "slow checkout")
    gone = _by_label(project, "pain", "lose orders")
    couriers = _by_label(project, "segment", "couriers")
    before = project_revision(project)

    done = fix.merge_nodes(project, anna, keep.number, gone.number, note="same pain")

    assert project_revision(project) == before + 1
    survivor = store.node_by_number(project.graph_scope, keep.number)
    closed = store.node_by_number(project.graph_scope, gone.number)
    assert done.node.uid == survivor.uid
    assert "lose orders" in survivor.aliases
    assert {(e.episode_uid, e.start) for e in gone.evidence} <= {
        (e.episode_uid, e.start) for e in survivor.evidence
    }
    assert closed.status == "merged" and closed.merged_into == survivor.uid
    assert closed.invalid_at is not None and closed.evidence  # kept for audit
    # The absorbed node's edge now leaves from the segment to the survivor, and none is left.
    assert not store.edges_of_node(project.graph_scope, gone.uid)
    into_survivor = [e for e in store.edges_of_node(project.graph_scope, survivor.uid)]
    assert any(e.source == couriers.uid and e.relation == "experiences" for e in into_survivor)
    assert [(s.old, s.new) for s in store.list_supersessions(project.graph_scope)] == [
        (gone.uid, survivor.uid)
    ]
    row = Correction.objects.get(project=project)
    assert (row.action, row.author_name, row.note, row.number) == ("merge", "Anna", "same pain", 1)


def test_refusals_say_why_and_record_nothing(research):
    project, anna = research
    pain = _by_label(project, "pain", "slow checkout")
    segment = _by_label(project, "segment", "couriers")
    refusals = [
        (lambda: fix.merge_nodes(project, anna, pain.number, pain.number), "itself"),
        (lambda: fix.merge_nodes(project, anna, pain.number, segment.number), "one type"),
        (lambda: fix.retype_node(project, anna, segment.number, "pain"), "ontology"),
        (lambda: fix.retype_node(project, anna, segment.number, "planet"), "not in the ontology"),
        (lambda: fix.rename_node(project, anna, pain.number, "   "), "1 to"),
        (lambda: fix.rename_node(project, anna, pain.number, "lose orders"), "merge the two"),
        (lambda: fix.split_alias(project, anna, pain.number, "no such name"), "not an alias"),
    ]
    for attempt, reason in refusals:
        with pytest.raises(fix.CorrectionRefused, match=reason):
            attempt()
    with pytest.raises(fix.NodeNotFound):
        fix.reject_node(project, anna, 999)
    fix.reject_node(project, anna, pain.number)
    with pytest.raises(fix.CorrectionRefused, match="rejected"):
        fix.confirm_node(project, anna, pain.number)
    assert Correction.objects.filter(project=project).count() == 1


def test_retype_refusal_names_the_edge_that_would_leave_the_ontology(research):
    project, anna = research
    segment = _by_label(project, "segment", "couriers")
    with pytest.raises(fix.CorrectionRefused) as refused:
        fix.retype_node(project, anna, segment.number, "pain")
    assert "experiences" in str(refused.value) or "uses" in str(refused.value)
    assert store.node_by_number(project.graph_scope, segment.number).type == "segment"


def test_rename_keeps_the_old_label_as_an_alias(research):
    project, anna = research
    pain = _by_label(project, "pain", "slow checkout")
    fix.rename_node(project, anna, pain.number, "Checkout takes too long")
    renamed = store.node_by_number(project.graph_scope, pain.number)
    assert renamed.label == "Checkout takes too long"
    assert "slow checkout" in renamed.aliases


def test_split_moves_the_alias_and_its_evidence_to_a_new_node(research):
    project, anna = research
    pain = _by_label(project, "pain", "slow checkout")
    alias = "checkout is slow for couriers again"
    assert alias in pain.aliases
    done = fix.split_alias(project, anna, pain.number, alias)
    new, old = done.node, store.node_by_number(project.graph_scope, pain.number)
    assert new.number > max(n.number for n in store.list_nodes(project.graph_scope) if n != new) - 1
    assert store.node_by_number(project.graph_scope, new.number).label == alias
    assert alias not in old.aliases
    assert [e.episode_number for e in new.evidence] == [4]
    assert 4 not in {e.episode_number for e in old.evidence} and old.evidence
    # Episode 4 mentions the new node now, not the old one: the graph's links agree with the
    # evidence, so a check for lost evidence finds none.
    from kg.operations.consistency import evidence_lacking_mentions

    mentioned = store.mentioned_episodes(project.graph_scope)
    assert mentioned[old.uid] == {e.episode_uid for e in old.evidence}
    assert mentioned[new.uid] == {e.episode_uid for e in new.evidence}
    assert evidence_lacking_mentions(project) == []


def test_confirm_counts_as_a_source_and_explains_itself(research):
    project, anna = research
    pain = _by_label(project, "pain", "lose orders")
    assert pain.confidence == 65
    fix.confirm_node(project, anna, pain.number)
    confirmed = store.node_by_number(project.graph_scope, pain.number)
    assert confirmed.confirmed_by == ["Anna"] and confirmed.confidence == 80
    with pytest.raises(fix.CorrectionRefused, match="already confirmed by Anna"):
        fix.confirm_node(project, anna, pain.number)
    from kg.reading.node_trail import node_trail

    trail = node_trail(project, pain.number)
    assert trail.confidence_explanation.startswith("confirmed by Anna, 1 source")


def test_edge_edit_and_remove(research):
    project, anna = research
    couriers = _by_label(project, "segment", "couriers")
    whatsapp = _by_label(project, "alternative", "WhatsApp")
    edge = next(e for e in store.edges_of_node(project.graph_scope, whatsapp.uid))
    with pytest.raises(fix.CorrectionRefused, match="does not allow"):
        fix.edit_edge(project, anna, couriers.number, edge.uid, "experiences")
    fix.remove_edge(project, anna, couriers.number, edge.uid, note="not a tool they use")
    closed = next(e for e in store.edges_of_node(project.graph_scope, whatsapp.uid))
    assert closed.invalid_at is not None and closed.evidence
    with pytest.raises(fix.CorrectionRefused, match="already closed"):
        fix.remove_edge(project, anna, couriers.number, edge.uid)

    pain = _by_label(project, "pain", "slow checkout")
    other = _by_label(project, "pain", "lose orders")
    experiences = next(
        e
        for e in store.edges_of_node(project.graph_scope, pain.uid)
        if e.source == couriers.uid and e.invalid_at is None
    )
    with pytest.raises(fix.CorrectionRefused, match="already says that"):
        fix.edit_edge(project, anna, pain.number, experiences.uid, "experiences")
    fix.edit_edge(project, anna, pain.number, experiences.uid, target=other.number)
    old = next(
        e for e in store.edges_of_node(project.graph_scope, pain.uid) if e.source == couriers.uid
    )
    assert old.invalid_at is not None
    moved = [
        e
        for e in store.edges_of_node(project.graph_scope, other.uid)
        if e.source == couriers.uid and e.relation == "experiences"
    ]
    assert moved and moved[0].invalid_at is None
    assert {(e.episode_uid, e.start) for e in experiences.evidence} <= {
        (e.episode_uid, e.start) for e in moved[0].evidence
    }


def test_viewers_and_archived_projects_are_refused(research):
    project, _ = research
    viewer = _user(project, "vic", Role.VIEWER)
    pain = _by_label(project, "pain", "slow checkout")
    with pytest.raises(NotAllowed):
        fix.confirm_node(project, viewer, pain.number)
    assert not Correction.objects.filter(project=project).exists()


def test_the_ledger_is_immutable(research):
    project, anna = research
    pain = _by_label(project, "pain", "slow checkout")
    fix.confirm_node(project, anna, pain.number)
    row = Correction.objects.get(project=project)
    with pytest.raises(ImmutableCorrectionError):
        row.save()
    with pytest.raises(ImmutableCorrectionError):
        Correction.objects.filter(pk=row.pk).update(note="changed")
    with pytest.raises(ImmutableCorrectionError):
        row.delete()
    for statement in ("UPDATE kg_correction SET note = 'x'", "DELETE FROM kg_correction"):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    assert Correction.objects.get(pk=row.pk).note == ""


LATER = [
    {
        # a merged alias, a split label, a rejected label and a retyped label, said again
        "text": "Couriers lose orders. The checkout is slow for couriers again. Restaurant "
        "owners complain that the payment screen is broken. Couriers use WhatsApp groups.",
        "at": "2026-02-01T10:00:00Z",
        "author": "Cleo",
    }
]


def _correct_all(project, anna):
    keep = _by_label(project, "pain", "slow checkout")
    gone = _by_label(project, "pain", "lose orders")
    fix.merge_nodes(project, anna, keep.number, gone.number)
    split = fix.split_alias(project, anna, keep.number, "checkout is slow for couriers again")
    junk = _by_label(project, "feature", "orders")  # what a complaint says was lost, as a part
    fix.reject_node(project, anna, junk.number, note="not a feature")
    whatsapp = _by_label(project, "alternative", "WhatsApp")
    fix.retype_node(project, anna, whatsapp.number, "competitor")
    return keep, gone, split.node, junk, whatsapp


def test_later_messages_follow_the_corrections(research):
    project, anna = research
    keep, gone, split, junk, whatsapp = _correct_all(project, anna)
    count = len(store.list_nodes(project.graph_scope))
    _ingest(project, LATER)
    scope = project.graph_scope
    later = {e.episode_number for e in store.node_by_number(scope, keep.number).evidence}
    assert 5 in later  # "lose orders" resolved to the survivor
    assert 5 not in {e.episode_number for e in store.node_by_number(scope, gone.number).evidence}
    assert 5 in {e.episode_number for e in store.node_by_number(scope, split.number).evidence}
    rejected = store.node_by_number(scope, junk.number)
    assert 5 in {e.episode_number for e in rejected.evidence}  # attached, still hidden
    assert rejected.status == "rejected" and rejected.invalid_at is not None
    retyped = store.node_by_number(scope, whatsapp.number)
    assert retyped.type == "competitor" and 5 in {e.episode_number for e in retyped.evidence}
    nodes = store.list_nodes(scope)
    assert not [n for n in nodes if n.type == "alternative" and "whatsapp" in n.key]
    assert not [n for n in nodes if n.number > count and n.type == "feature" and n.key == junk.key]
    assert ResolutionDecision.objects.filter(project=project, method="correction").exists()


def test_rebuild_replays_episodes_and_corrections_to_the_same_graph(research):
    project, anna = research
    _correct_all(project, anna)
    _ingest(project, LATER)
    pain = _by_label(project, "pain", "slow checkout")
    fix.confirm_node(project, anna, pain.number)
    before, calls = _graph(project), LLMCall.objects.count()
    revision = project_revision(project)

    rebuild_project_graph(project)

    assert _graph(project) == before
    assert LLMCall.objects.count() == calls  # no model call on replay
    assert project_revision(project) > revision


def test_with_the_model_a_replay_after_corrections_asks_it_nothing(graph, openai_mode):
    project = make_project("scripted-fix", name="RouteMate")
    anna = _user(project, "anna", first="Anna")
    first, second = record_messages(
        project,
        [
            {"at": "2026-03-01T10:00:00Z", "text": "The checkout is slow and orders get lost."},
            {"at": "2026-03-02T10:00:00Z", "text": "Again orders get lost at night."},
        ],
    )
    openai_mode.script(
        {
            "nodes": [
                {
                    "ref": "n1",
                    "type": "pain",
                    "label": "checkout is slow",
                    "quote": "checkout is slow",
                },
                {
                    "ref": "n2",
                    "type": "pain",
                    "label": "orders get lost",
                    "quote": "orders get lost",
                },
            ]
        },
        {
            "nodes": [
                {
                    "ref": "n1",
                    "type": "pain",
                    "label": "orders get lost",
                    "quote": "orders get lost",
                }
            ]
        },
    )
    episode_ingest(first.pk)
    keep = _by_label(project, "pain", "checkout is slow")
    gone = _by_label(project, "pain", "orders get lost")
    fix.merge_nodes(project, anna, keep.number, gone.number)
    episode_ingest(second.pk)
    assert openai_mode.calls == 2
    survivor = store.node_by_number(project.graph_scope, keep.number)
    assert {e.episode_number for e in survivor.evidence} == {1, 2}  # the merged alias followed
    before = _graph(project)

    rebuild_project_graph(project)

    assert openai_mode.calls == 2  # episodes and corrections replayed from the record
    assert _graph(project) == before


def test_a_rejected_node_gains_no_confidence_from_later_evidence(research):
    project, anna = research
    pain = _by_label(project, "pain", "slow checkout")
    assert pain.confidence > 0
    fix.reject_node(project, anna, pain.number, note="not a finding")
    assert store.node_by_number(project.graph_scope, pain.number).confidence == 0
    _ingest(project, [{**LATER[0], "text": "The slow checkout again, the slow checkout."}])
    rejected = store.node_by_number(project.graph_scope, pain.number)
    assert 5 in {e.episode_number for e in rejected.evidence}  # attached, hidden
    assert rejected.confidence == 0
    from kg.reading.node_trail import node_trail

    trail = node_trail(project, pain.number)
    assert trail.computed_confidence == 0 and trail.confidence_explanation.startswith("rejected")


def _open_edge(project, source, target, relation: str):
    return next(
        (
            e
            for e in store.edges_of_node(project.graph_scope, source.uid)
            if e.source == source.uid
            and e.target == target.uid
            and e.relation == relation
            and e.invalid_at is None
        ),
        None,
    )


def test_add_an_edge_inside_the_ontology_citing_a_message(research):
    project, anna = research
    couriers = _by_label(project, "segment", "couriers")
    lose = _by_label(project, "pain", "lose orders")
    slow = _by_label(project, "pain", "slow checkout")
    assert _open_edge(project, couriers, lose, "experiences") is None

    def add(relation, other, message, quote):
        return lambda: fix.add_edge(project, anna, couriers.number, relation, other, message, quote)

    refusals = [
        (add("blocks", lose.number, 1, "x"), "does not allow"),
        (add("experiences", lose.number, 99, "lose orders"), "not in this project"),
        (add("experiences", lose.number, 2, "lose orders"), "does not say"),
        (add("experiences", slow.number, 1, "slow checkout"), "already experiences"),
        (add("experiences", couriers.number, 1, "couriers"), "two different"),
    ]
    for attempt, reason in refusals:
        with pytest.raises(fix.CorrectionRefused, match=reason):
            attempt()
    assert not Correction.objects.filter(project=project).exists()

    # From the pain's page: the edge comes in, from the segment.
    said = "makes them lose orders"
    done = fix.add_edge(
        project, anna, lose.number, "experiences", couriers.number, 1, said, outgoing=False
    )
    assert done.node.uid == lose.uid
    added = _open_edge(project, couriers, lose, "experiences")
    assert added is not None and added.confidence == 65
    assert [(e.episode_number, e.quote) for e in added.evidence] == [(1, "makes them lose orders")]
    row = Correction.objects.get(project=project)
    assert (row.action, row.node_uid, row.other_uid) == ("add_edge", couriers.uid, lose.uid)


def test_resource_an_edge_to_the_quote_that_says_it(research):
    project, anna = research
    couriers = _by_label(project, "segment", "couriers")
    slow = _by_label(project, "pain", "slow checkout")
    edge = _open_edge(project, couriers, slow, "experiences")
    assert {e.episode_number for e in edge.evidence} == {1, 4}
    with pytest.raises(fix.CorrectionRefused, match="does not say"):
        fix.resource_edge(project, anna, slow.number, edge.uid, 1, "payment screen")
    fix.resource_edge(
        project, anna, slow.number, edge.uid, 1, "Couriers in Berlin hate the slow checkout"
    )
    cited = _open_edge(project, couriers, slow, "experiences")
    assert [(e.episode_number, e.quote) for e in cited.evidence] == [
        (1, "Couriers in Berlin hate the slow checkout")
    ]
    assert cited.confidence == 65  # one source now
    with pytest.raises(fix.CorrectionRefused, match="exactly that already"):
        fix.resource_edge(
            project, anna, slow.number, edge.uid, 1, "Couriers in Berlin hate the slow checkout"
        )
    row = Correction.objects.get(project=project)
    assert row.params["cited"] == [[e.episode_number, e.quote] for e in edge.evidence]


def test_edge_corrections_are_replayed_by_a_rebuild(research):
    project, anna = research
    couriers = _by_label(project, "segment", "couriers")
    lose = _by_label(project, "pain", "lose orders")
    slow = _by_label(project, "pain", "slow checkout")
    fix.add_edge(project, anna, couriers.number, "experiences", lose.number, 1, "lose orders")
    edge = _open_edge(project, couriers, slow, "experiences")
    fix.resource_edge(project, anna, slow.number, edge.uid, 4, "The checkout is slow for couriers")
    _ingest(project, LATER)
    before = _graph(project)
    rebuild_project_graph(project)
    assert _graph(project) == before
    assert _open_edge(project, couriers, lose, "experiences") is not None


def test_viewers_cannot_correct_edges_or_undo(research):
    project, anna = research
    viewer = _user(project, "vic", Role.VIEWER)
    couriers = _by_label(project, "segment", "couriers")
    lose = _by_label(project, "pain", "lose orders")
    with pytest.raises(NotAllowed):
        fix.add_edge(project, viewer, couriers.number, "experiences", lose.number, 1, "lose orders")
    fix.confirm_node(project, anna, lose.number)
    with pytest.raises(NotAllowed):
        undo_correction(project, viewer, 1)
    assert Correction.objects.filter(project=project).count() == 1


def _corrections_to_undo(project, anna):
    couriers = _by_label(project, "segment", "couriers")
    slow = _by_label(project, "pain", "slow checkout")
    lose = _by_label(project, "pain", "lose orders")
    whatsapp = _by_label(project, "alternative", "WhatsApp")
    uses = next(e for e in store.edges_of_node(project.graph_scope, whatsapp.uid))
    experiences = _open_edge(project, couriers, slow, "experiences")
    return {
        "merge": lambda: fix.merge_nodes(project, anna, slow.number, lose.number),
        "split": lambda: fix.split_alias(
            project, anna, slow.number, "checkout is slow for couriers again"
        ),
        "rename": lambda: fix.rename_node(project, anna, slow.number, "Checkout takes long"),
        "retype": lambda: fix.retype_node(project, anna, whatsapp.number, "competitor"),
        "reject": lambda: fix.reject_node(project, anna, slow.number),
        "confirm": lambda: fix.confirm_node(project, anna, lose.number),
        "edit_edge": lambda: fix.edit_edge(
            project, anna, slow.number, experiences.uid, target=lose.number
        ),
        "remove_edge": lambda: fix.remove_edge(project, anna, whatsapp.number, uses.uid),
        "add_edge": lambda: fix.add_edge(
            project, anna, couriers.number, "experiences", lose.number, 1, "lose orders"
        ),
        "resource_edge": lambda: fix.resource_edge(
            project, anna, slow.number, experiences.uid, 1, "hate the slow checkout"
        ),
    }


@pytest.mark.parametrize(
    "action",
    [
        "merge",
        "split",
        "rename",
        "retype",
        "reject",
        "confirm",
        "edit_edge",
        "remove_edge",
        "add_edge",
        "resource_edge",
    ],
)
def test_undo_reverts_each_kind_of_correction(research, action):
    project, anna = research
    before = _graph(project)
    done = _corrections_to_undo(project, anna)[action]()
    assert _graph(project) != before
    revision = project_revision(project)

    undone = undo_correction(project, anna, done.correction.number, note="my mistake")

    assert _graph(project) == before
    assert project_revision(project) > revision
    rows = list(Correction.objects.filter(project=project).order_by("number"))
    assert [(c.number, c.action) for c in rows] == [(1, action), (2, "undo")]  # appended
    assert rows[1].params["reverts"] == 1 and rows[1].note == "my mistake"
    assert undone.reverted.number == 1 and "undone" in undone.message
    rebuild_project_graph(project)  # the ledger replays to the same graph
    assert _graph(project) == before


def test_undo_of_an_undo_makes_the_correction_hold_again(research):
    project, anna = research
    slow = _by_label(project, "pain", "slow checkout")
    lose = _by_label(project, "pain", "lose orders")
    fix.merge_nodes(project, anna, slow.number, lose.number)
    merged = _graph(project)
    undo_correction(project, anna, 1)
    with pytest.raises(fix.CorrectionRefused, match="already undone"):
        undo_correction(project, anna, 1)
    with pytest.raises(fix.NodeNotFound):
        undo_correction(project, anna, 99)
    assert store.node_by_number(project.graph_scope, lose.number).status == ""
    undo_correction(project, anna, 2)
    assert _graph(project) == merged
    assert Correction.objects.filter(project=project).count() == 3


def test_an_undone_merge_teaches_later_messages_nothing(research):
    project, anna = research
    slow = _by_label(project, "pain", "slow checkout")
    lose = _by_label(project, "pain", "lose orders")
    fix.merge_nodes(project, anna, slow.number, lose.number)
    undo_correction(project, anna, 1)
    _ingest(project, LATER)
    scope = project.graph_scope
    assert 5 in {e.episode_number for e in store.node_by_number(scope, lose.number).evidence}
    assert store.node_by_number(scope, lose.number).invalid_at is None
    before = _graph(project)
    rebuild_project_graph(project)
    assert _graph(project) == before


def test_after_a_split_the_split_node_is_split_from_and_supersedes_nothing_wrongly(research):
    from kg.reading.node_trail import node_trail

    project, anna = research
    slow = _by_label(project, "pain", "slow checkout")
    lose = _by_label(project, "pain", "lose orders")
    fix.merge_nodes(project, anna, slow.number, lose.number)
    assert [s.other.number for s in node_trail(project, slow.number).supersedes] == [lose.number]

    new = fix.split_alias(project, anna, slow.number, "lose orders").node

    source, split, merged = (node_trail(project, n) for n in (slow.number, new.number, lose.number))
    assert source.supersedes == []  # "lose orders" lives in the split-off node now
    assert [s.other.number for s in split.split_from] == [slow.number]
    assert [(s.other.number, s.relation) for s in split.supersedes] == [
        (lose.number, "merged into")
    ]
    assert [s.other.number for s in merged.superseded_by] == [new.number]
    assert source.split_from == [] and merged.node.merged_into == new.uid
    before = _graph(project)
    rebuild_project_graph(project)
    assert _graph(project) == before


def test_no_correction_or_undo_meets_a_graph_being_replayed(research):
    from kg.pipeline.locks import replay_lock

    project, anna = research
    pain = _by_label(project, "pain", "slow checkout")
    fix.confirm_node(project, anna, pain.number)
    with replay_lock(project.pk):  # as an undo or kg_rebuild holds it while it replays
        with pytest.raises(fix.CorrectionRefused, match="being replayed"):
            fix.reject_node(project, anna, pain.number)
        with pytest.raises(fix.CorrectionRefused, match="being replayed"):
            undo_correction(project, anna, 1)
    assert Correction.objects.filter(project=project).count() == 1
    fix.reject_node(project, anna, pain.number)  # once it is done
    assert Correction.objects.filter(project=project).count() == 2
