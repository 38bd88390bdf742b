"""Rendering helpers for chat messages."""

from __future__ import annotations

import re

from django import template
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# After escaping, "#" only starts an entity as "&#"; a node reference is "#" + digits elsewhere.
NODE_REFERENCE = re.compile(r"(?<![&\w])#(\d{1,9})\b")


@register.filter
def message_html(message, project_slug: str = "") -> SafeString:
    """The message text, escaped, with line breaks and its checked node citations as links.

    Always escaped, even inside {% autoescape off %}: the text is a user's or a model's.
    Only numbers the reply's checks kept (message.cited_nodes) become links to their nodes.
    """
    text = conditional_escape(message.text)
    cited = set(message.cited_nodes or [])

    def link(match: re.Match) -> str:
        number = int(match.group(1))
        if number not in cited:
            return match.group(0)
        # With the project, a citation opens the node's evidence page: the quote is on it.
        href = (
            reverse("research:node", args=[project_slug, number])
            if project_slug
            else (f"#node-{number}")
        )
        return f'<a class="node-ref" href="{href}" data-node="{number}">#{number}</a>'

    html = NODE_REFERENCE.sub(link, str(text))
    return mark_safe(html.replace("\r\n", "\n").replace("\n", "<br>"))  # noqa: S308 - escaped above
