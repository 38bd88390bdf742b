from django.apps import AppConfig


class OrgmemoryConfig(AppConfig):
    name = "orgmemory"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Organization memory"

    def ready(self) -> None:
        from kg.read_models import (
            project_graph_changed,
            register_node_reference_provider,
            register_org_insight_provider,
        )
        from orgmemory import tasks  # noqa: F401  registered: queued by name (kg.task_queue)
        from orgmemory.services import org_insight_notes, org_insights_citing_node
        from orgmemory.signals import project_graph_changed_receiver

        project_graph_changed.connect(
            project_graph_changed_receiver, dispatch_uid="orgmemory.project_graph_changed"
        )
        register_node_reference_provider(
            org_insights_citing_node, section="Organization insights resting on this node"
        )
        register_org_insight_provider(org_insight_notes)
