"""Episodes are immutable: through the ORM and through raw SQL."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from kg.models import Episode, EpisodeKind
from kg.models.episodes import ImmutableEpisodeError


@pytest.fixture
def episode(org_project):
    return Episode.objects.create(
        project=org_project,
        number=1,
        kind=EpisodeKind.CHAT_MESSAGE,
        content="Price matters",
        author="pm",
        valid_at=timezone.now(),
    )


def test_content_hash_is_recorded(episode):
    import hashlib

    assert episode.content_sha256 == hashlib.sha256(b"Price matters").hexdigest()


def test_orm_refuses_save_update_and_delete(episode):
    episode.content = "changed"
    with pytest.raises(ImmutableEpisodeError):
        episode.save()
    with pytest.raises(ImmutableEpisodeError):
        Episode.objects.filter(pk=episode.pk).update(content="changed")
    with pytest.raises(ImmutableEpisodeError):
        episode.delete()
    with pytest.raises(ImmutableEpisodeError):
        Episode.objects.filter(pk=episode.pk).delete()
    assert Episode.objects.get(pk=episode.pk).content == "Price matters"


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE kg_episode SET content = 'changed' WHERE id = %s",
        "DELETE FROM kg_episode WHERE id = %s",
    ],
)
def test_database_refuses_raw_sql(episode, statement):
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement, [episode.pk])
    assert Episode.objects.get(pk=episode.pk).content == "Price matters"
