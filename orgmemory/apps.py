from django.apps import AppConfig


class OrgmemoryConfig(AppConfig):
    name = "orgmemory"
    default_auto_field = "django.db.models.BigAutoField"
