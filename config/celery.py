"""The Celery application, configured from Django settings (CELERY_* names)."""

import os

from celery import Celery
from celery.signals import setup_logging

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("groundwork")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect
def logging_from_settings(**kwargs) -> None:
    """The worker logs through LOGGING (config/settings.py), as the web does: a root handler
    of Celery's own would print every line of the project's loggers a second time."""
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)
