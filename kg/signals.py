"""Signals kg sends so that other apps can react without kg importing them."""

from django.dispatch import Signal

# Sent after an episode's pipeline run changed a project's graph. kwargs: project_id (int).
project_graph_changed = Signal()
