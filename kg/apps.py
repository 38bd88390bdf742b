from django.apps import AppConfig


class KgConfig(AppConfig):
    name = "kg"
    verbose_name = "Knowledge graph"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from kg import ledger_lock  # noqa: F401  registers the SQLite trigger function
