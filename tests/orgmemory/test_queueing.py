"""The graph-changed signal queues one promotion per organization, after commit."""

from __future__ import annotations

import pytest
import redis
from django.conf import settings

from config.celery import app
from kg.models import Project
from kg.signals import project_graph_changed
from orgmemory.models import OrgInsight
from orgmemory.services import _pending_key, queue_promotion, sweep_all


@pytest.fixture
def eager():
    # The task runs inline, so the test sees what the worker would do, without a broker.
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


def test_signal_queues_promotion_on_commit(shared_pain, eager, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        project_graph_changed.send(sender=Project, project_id=shared_pain.couriers.pk)

    assert len(callbacks) == 1
    assert OrgInsight.objects.filter(organization=shared_pain.acme).count() == 1


def test_a_pending_run_absorbs_further_changes(shared_pain, eager):
    pending = _pending_key(shared_pain.acme.pk)
    redis.Redis.from_url(settings.LOCK_REDIS_URL).set(pending, "1", ex=60)

    assert queue_promotion(shared_pain.acme.pk) is False
    assert not OrgInsight.objects.exists()

    redis.Redis.from_url(settings.LOCK_REDIS_URL).delete(pending)
    assert queue_promotion(shared_pain.acme.pk) is True
    assert OrgInsight.objects.filter(organization=shared_pain.acme).count() == 1


def test_single_project_organizations_are_not_queued(shared_pain, eager):
    assert queue_promotion(shared_pain.globex.pk) is False
    assert sweep_all() == 1  # acme only
