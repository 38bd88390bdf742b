"""Celery tasks of the chat app: take ids, call one function, safe to run twice."""

from __future__ import annotations

from celery import shared_task

MAX_RETRIES = 5


@shared_task(name="chat.assistant_reply", bind=True, max_retries=MAX_RETRIES)
def assistant_reply_task(self, message_id: int) -> dict:
    """Run the message's pipeline if it has not run, then write the assistant's reply."""
    from chat.assistant import TRANSIENT_ERRORS, reply_to_message

    try:
        reply = reply_to_message(message_id)
    except TRANSIENT_ERRORS as exc:
        if self.request.retries < self.max_retries:
            raise self.retry(exc=exc, countdown=2**self.request.retries) from exc
        # Out of retries: still answer, saying why, rather than leave the user waiting.
        reply = reply_to_message(message_id, unavailable=str(exc))
    return {"message": message_id, "reply": reply.pk, "cited_nodes": reply.cited_nodes}
