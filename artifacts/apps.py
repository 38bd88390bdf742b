from django.apps import AppConfig


class ArtifactsConfig(AppConfig):
    name = "artifacts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # kg cannot import artifacts: the admin node page learns about citing claims this way.
        from artifacts.admin_references import register
        from artifacts.realdata import register as register_real_data_part

        register()
        register_real_data_part()
