"""Receivers for kg's signals: kg announces graph changes and never imports orgmemory."""

from __future__ import annotations

from orgmemory.services import on_project_graph_changed


def project_graph_changed_receiver(sender, project_id: int, **kwargs) -> None:
    on_project_graph_changed(project_id)
