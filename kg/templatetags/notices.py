"""Notices a page shows once: set by the server through Django's messages framework (in the
session or a signed cookie), never read from the address, so a link cannot forge one."""

from __future__ import annotations

from django import template
from django.contrib.messages import get_messages

register = template.Library()


@register.inclusion_tag("groundwork/_notices.html", takes_context=True)
def notices(context: template.Context) -> dict:
    # Read from the request, not the context: the chat pages call their own list `messages`.
    request = context.get("request")
    return {"notices": list(get_messages(request)) if request is not None else []}
