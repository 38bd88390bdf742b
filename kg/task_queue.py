"""Queueing a Celery task by its name.

A tasks module imports the functions its tasks run; the code that queues a task therefore
names it instead of importing it, or the two modules would import each other. An app whose
tasks are queued here imports its tasks module when it is ready (AppConfig.ready), so the name
is always registered, and a task queued in eager mode (tests) runs in place as before.
"""

from __future__ import annotations

from typing import Any

from celery import current_app
from celery.result import AsyncResult


def queue_task(
    name: str, args: tuple | list = (), kwargs: dict | None = None, **options: Any
) -> AsyncResult:
    """Queue the task registered as `name` (options as for apply_async: task_id, countdown...).

    Raises celery.exceptions.NotRegistered for a name no app's tasks module defines.
    """
    return current_app.tasks[name].apply_async(args=args, kwargs=kwargs, **options)
