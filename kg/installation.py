"""The installation's name: what keeps two installations apart on one Redis or graph server.

Locks, the broker epoch and the project graphs are all keyed by it, so installations sharing a
server never share a lock or a graph.
"""

from __future__ import annotations

from django.conf import settings


def installation_namespace() -> str:
    """The setting GROUNDWORK_INSTALLATION, else the SQL database's name."""
    configured = getattr(settings, "GROUNDWORK_INSTALLATION", "")
    if configured:
        return configured
    name = str(settings.DATABASES["default"].get("NAME") or "default")
    return name.rsplit("/", 1)[-1]
