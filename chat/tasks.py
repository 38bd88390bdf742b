"""Celery tasks of the chat app: take ids, call one function, safe to run twice."""

from __future__ import annotations

from celery import shared_task

MAX_RETRIES = 6  # about 4 minutes in all: a user waits for this reply


@shared_task(name="chat.assistant_reply", bind=True, max_retries=MAX_RETRIES)
def assistant_reply_task(self, message_id: int) -> dict:
    """Run the message's pipeline if it has not run, then write the assistant's reply."""
    from chat.assistant import TRANSIENT_ERRORS, reply_to_message
    from kg.commands import retry_delay

    try:
        reply = reply_to_message(message_id)
    except TRANSIENT_ERRORS as exc:
        if self.request.retries < self.max_retries:
            # Spaced to outlast a restart, with jitter (the pipeline's policy), so the reply
            # waits out an outage instead of answering "unavailable" after a few seconds.
            countdown = retry_delay(self.request.retries)
            raise self.retry(exc=exc, countdown=countdown) from exc
        # Out of retries: still answer, saying why, rather than leave the user waiting.
        reply = reply_to_message(message_id, unavailable=str(exc))
    return {"message": message_id, "reply": reply.pk, "cited_nodes": reply.cited_nodes}
