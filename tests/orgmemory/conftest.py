"""Fixtures for org memory: one organization with two projects, another organization, users."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model

from kg.graph import EpisodeStub, Evidence, NodeRecord, store
from kg.models import Membership, Organization, Project, Role
from kg.pipeline.resolve import node_key

VALID_AT = "2026-03-05T10:00:00.000000Z"


@pytest.fixture(autouse=True)
def _offline_engine(settings):
    # Confirmations in the fuzzy band go to the deterministic offline engine, never a network.
    settings.LLM_ENGINE = "offline"


def write_node(
    project: Project,
    number: int,
    label: str,
    quote: str,
    *,
    node_type: str = "pain",
    confidence: int = 65,
    invalid_at: str | None = None,
    episode_number: int | None = None,
) -> NodeRecord:
    """Write one node with one piece of evidence (and its episode stub) into a project's graph."""
    episode_number = episode_number or number
    episode_uid = f"{project.slug}-episode-{episode_number}"
    scope = project.graph_scope
    store.upsert_episode_stub(
        scope, EpisodeStub(uid=episode_uid, number=episode_number, valid_at=VALID_AT)
    )
    node = NodeRecord(
        uid=f"{project.slug}-node-{number}",
        number=number,
        type=node_type,
        label=label,
        key=node_key(label),
        confidence=confidence,
        valid_at=VALID_AT,
        invalid_at=invalid_at,
        evidence=[
            Evidence(
                episode_uid=episode_uid,
                episode_number=episode_number,
                quote=quote,
                start=0,
                end=len(quote),
                valid_at=VALID_AT,
            )
        ],
    )
    store.write_nodes(scope, [node])
    return node


@dataclass
class World:
    acme: Organization
    couriers: Project
    warehouse: Project
    globex: Organization
    rival: Project
    member: object  # member of acme
    outsider: object  # member of globex only


@pytest.fixture
def world(db, graph) -> World:
    acme = Organization.objects.create(slug="acme", name="Acme")
    couriers = Project.objects.create(organization=acme, slug="couriers", name="Couriers app")
    warehouse = Project.objects.create(organization=acme, slug="warehouse", name="Warehouse")
    globex = Organization.objects.create(slug="globex", name="Globex")
    rival = Project.objects.create(organization=globex, slug="rival", name="Rival app")
    users = get_user_model().objects
    member = users.create_user("mia")  # no password: force_login, and no slow hashing
    outsider = users.create_user("otto")
    Membership.objects.create(user=member, organization=acme, role=Role.EDITOR)
    Membership.objects.create(user=outsider, organization=globex, role=Role.OWNER)
    return World(acme, couriers, warehouse, globex, rival, member, outsider)


@pytest.fixture
def shared_pain(world: World) -> World:
    """The same pain in two acme projects, in different words; the same pain in globex too."""
    write_node(
        world.couriers,
        1,
        "app lags on weak internet",
        "the app lags on weak internet in basements",
    )
    write_node(
        world.couriers, 2, "Uber Eats", "we compared it with Uber Eats", node_type="competitor"
    )
    write_node(
        world.warehouse,
        1,
        "the app is slow when internet is weak",
        "honestly the app is slow when internet is weak in the loading bay",
    )
    write_node(world.warehouse, 2, "pricing page is confusing", "the pricing page is confusing")
    write_node(world.rival, 1, "app lags on weak internet", "our app lags on weak internet too")
    return world
