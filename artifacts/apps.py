from django.apps import AppConfig


class ArtifactsConfig(AppConfig):
    name = "artifacts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from artifacts import tasks  # noqa: F401  registered: queued by name (kg.task_queue)

        # kg cannot import artifacts: the admin node page learns about citing claims this way.
        from artifacts.admin_references import register
        from artifacts.realdata import register as register_real_data_part

        register()
        register_real_data_part()
        from kg.commands import register_task_finder

        register_task_finder(generation_task_project)


def generation_task_project(task_id: str):
    """The project a PRD generation task writes for (task status is for its members)."""
    from artifacts.models import ArtifactVersion

    version = ArtifactVersion.objects.filter(task_id=task_id).select_related("artifact__project")
    found = version.first()
    return found.artifact.project if found else None
