from __future__ import annotations

import pytest

# The API tests' fixtures, shared (pytest only allows pytest_plugins in the root conftest).
from tests.api.conftest import _fast_passwords, alice, bob, research  # noqa: F401


@pytest.fixture
def queued_replies(monkeypatch) -> list[tuple[list[int], str]]:
    """Reply tasks queued on commit, recorded instead of sent to the broker."""
    from chat.tasks import assistant_reply_task

    queued: list[tuple[list[int], str]] = []
    monkeypatch.setattr(
        assistant_reply_task,
        "apply_async",
        lambda args, task_id: queued.append((list(args), task_id)),
    )
    return queued


@pytest.fixture
def browser_client(client, alice):  # noqa: F811 - the imported fixture, requested
    """Django's test client, logged in as Alice."""
    user, _ = alice
    client.force_login(user)
    return client
