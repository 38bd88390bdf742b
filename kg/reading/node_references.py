"""Sections other apps add to the admin node page, without kg importing them.

Dependencies point one way (chat, artifacts, orgmemory → kg), yet the node page should say
which PRD claims cite the node. So an app registers a provider from its AppConfig.ready(),
and the node page asks every registered provider:

    register_node_reference_provider(claims_citing_node, section="PRD claims citing this node")

A provider is fn(project, node_uid, node_number) -> list[NodeReference].
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from kg.models import Project

logger = logging.getLogger("groundwork.admin")


@dataclass(frozen=True)
class NodeReference:
    title: str
    url: str = ""  # the admin page
    text: str = ""
    page_url: str = ""  # the product page any member of the project may open


NodeReferenceProvider = Callable[[Project, str, int], list[NodeReference]]


@dataclass(frozen=True)
class NodeReferenceSection:
    title: str
    references: list[NodeReference] = field(default_factory=list)
    error: str = ""


_providers: dict[NodeReferenceProvider, str] = {}
_lock = threading.Lock()


def register_node_reference_provider(
    provider: NodeReferenceProvider, *, section: str = "References"
) -> NodeReferenceProvider:
    """Add a section to the node page. Registering the same function twice keeps one entry,
    because ready() can run more than once (tests, reloads)."""
    with _lock:
        _providers[provider] = section
    return provider


def unregister_node_reference_provider(provider: NodeReferenceProvider) -> None:
    with _lock:
        _providers.pop(provider, None)


def node_reference_providers() -> dict[NodeReferenceProvider, str]:
    """What is registered (provider → section title), e.g. for a test that adds its own."""
    with _lock:
        return dict(_providers)


def node_reference_sections(
    project: Project, node_uid: str, node_number: int
) -> list[NodeReferenceSection]:
    """Ask every provider. A provider that fails becomes a section with its error: another
    app's bug must not hide a node's evidence trail from the admin."""
    with _lock:
        registered = list(_providers.items())
    sections = []
    for provider, title in registered:
        try:
            references = list(provider(project, node_uid, node_number))
        except Exception as exc:
            logger.exception("node reference provider %r failed", provider)
            sections.append(NodeReferenceSection(title=title, error=f"{type(exc).__name__}: {exc}"))
            continue
        sections.append(NodeReferenceSection(title=title, references=references))
    return sections
