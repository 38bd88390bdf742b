"""Create the demo organization, project and user (idempotent) and print how to log in."""

from __future__ import annotations

import os

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from kg.tenancy import ensure_demo


class Command(BaseCommand):
    help = "Create a demo organization/project/user if missing and print the login."

    def handle(self, *args, **options) -> None:
        password = os.environ.get("DEMO_PASSWORD", "groundwork-demo")
        if password == "groundwork-demo" and not settings.DEBUG:  # noqa: S105 - refused here
            # The demo user is a superuser; its default password is printed in the README.
            raise CommandError(
                "the demo login's default password is public: set DEMO_PASSWORD, or DEBUG=true "
                "on a development machine"
            )
        demo = ensure_demo(password=password)
        port = os.environ.get("PORT", "8000")
        self.stdout.write(
            "\n"
            f"  Open   http://127.0.0.1:{port}/\n"
            f"  Login  {demo.username} / {password}\n"
            f"  Project {demo.project_slug} in organization {demo.org_slug}\n"
        )
