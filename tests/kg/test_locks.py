"""The lease lock: renewed while held, freed within a lease when its holder dies, fenced."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time

import pytest
import redis

from kg.operations.embedded import free_port
from kg.pipeline.locks import (
    Lease,
    LeaseLost,
    LockBusy,
    LockReleaseFailed,
    installation_namespace,
    lock_redis,
    named_lock,
    project_lock,
)


def _abandon(lease: Lease) -> None:
    """What a killed holder leaves behind: the key, with no heartbeat renewing it."""
    lease._stop.set()
    lease._heartbeat.join()


def test_a_held_lease_is_renewed_past_its_length(embedded_server):
    with named_lock("renewal", lease_seconds=1.0) as lease:
        time.sleep(2.5)  # two and a half leases
        lease.check()
        with pytest.raises(LockBusy):
            Lease("renewal", lease_seconds=1.0).acquire(wait_seconds=0.5)
    # Released at the end of the block: free at once.
    Lease("renewal", lease_seconds=1.0).acquire(wait_seconds=0.1).release()


def test_an_abandoned_lease_frees_the_lock_and_fences_its_holder(embedded_server):
    first = Lease("expiry", lease_seconds=1.0).acquire()
    _abandon(first)
    started = time.monotonic()
    second = Lease("expiry", lease_seconds=1.0).acquire(wait_seconds=5)
    waited = time.monotonic() - started
    try:
        assert waited < 1.5
        assert second.token > first.token
        second.check()
        with pytest.raises(LeaseLost):
            first.check()  # the stale holder must not write
    finally:
        second.release()


def test_a_stalled_holder_that_outlived_its_lease_is_refused_before_the_server(embedded_server):
    lease = Lease("stalled", lease_seconds=1.0).acquire()
    _abandon(lease)
    time.sleep(1.1)
    with pytest.raises(LeaseLost, match="not renewed"):
        lease.check()


def test_a_killed_holder_frees_the_project_within_one_lease(embedded_server, settings):
    """A real process takes the project lock and is killed with SIGKILL."""
    env = os.environ | {
        "LOCK_REDIS_URL": settings.LOCK_REDIS_URL,
        "GROUNDWORK_INSTALLATION": installation_namespace(),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "true",  # a development start: the development secret key is accepted
    }
    script = (
        "import django, time; django.setup()\n"
        "from kg.pipeline.locks import project_lock\n"
        "with project_lock(4242):\n"
        "    print('held', flush=True); time.sleep(600)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline().strip() == b"held"
        time.sleep(1)
        holder.kill()
        holder.wait()
        started = time.monotonic()
        with project_lock(4242) as lease:
            waited = time.monotonic() - started
            lease.check()
    finally:
        if holder.poll() is None:
            holder.kill()
    assert waited <= 16  # one 15 s lease at most, not the old 600 s TTL
    print(f"project lock free {waited:.1f}s after its holder was killed")


def test_a_failed_release_is_logged_and_raised(embedded_server, caplog):
    lease = Lease("release").acquire()
    real_client = lease._client
    lease._client = redis.Redis(port=free_port(), socket_connect_timeout=1)  # Redis "down"
    with (
        caplog.at_level(logging.ERROR, logger="groundwork.locks"),
        pytest.raises(LockReleaseFailed),
    ):
        lease.release()
    assert "not released" in caplog.text
    real_client.delete(lease.key)


def test_a_release_failure_inside_a_failing_block_keeps_the_blocks_error(embedded_server):
    with pytest.raises(ValueError) as raised, named_lock("release-in-error") as lease:
        lease._client = redis.Redis(port=free_port(), socket_connect_timeout=1)
        raise ValueError("the work failed")
    assert any("not released" in note for note in raised.value.__notes__)
    lock_redis().delete(lease.key)


def test_installations_sharing_one_redis_never_share_a_lock(embedded_server, settings):
    settings.GROUNDWORK_INSTALLATION = "first"
    with project_lock(7) as first:
        settings.GROUNDWORK_INSTALLATION = "second"
        with project_lock(7) as second:  # would wait 600 s if the keys were shared
            assert first.key != second.key
            assert first.key.startswith("groundwork:first:")
            second.check()
        settings.GROUNDWORK_INSTALLATION = "first"
        first.check()


def test_the_namespace_defaults_to_the_database_name(settings):
    settings.GROUNDWORK_INSTALLATION = ""
    name = str(settings.DATABASES["default"]["NAME"]).rsplit("/", 1)[-1]
    assert installation_namespace() == name
