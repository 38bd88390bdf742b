from django.apps import AppConfig


class KgConfig(AppConfig):
    name = "kg"
    verbose_name = "Knowledge graph"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Registered by importing: the SQLite trigger function; the tasks, queued by name
        # (kg.task_queue).
        from kg import tasks  # noqa: F401
        from kg.ledger import lock as ledger_lock  # noqa: F401
