"""Migrate the database as its owner and grant the app's role (kg.operations.database_roles)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from kg.operations.database_roles import set_up_database


class Command(BaseCommand):
    help = (
        "Apply migrations as DATABASE_OWNER_URL's role, then create or update DATABASE_URL's "
        "role with what the app needs (INSERT and SELECT only on the ledger). Idempotent: run "
        "it after every upgrade. Without DATABASE_OWNER_URL, migrations only."
    )

    def handle(self, *args, verbosity: int = 1, **options) -> None:
        setup = set_up_database(verbosity=verbosity)
        if setup.roles is None:
            self.stdout.write("one database role (DATABASE_OWNER_URL unset): migrations applied")
            return
        roles = setup.roles
        self.stdout.write(
            f"migrations applied as {roles.owner}; app role {roles.app} "
            f"{'created' if roles.created else 'updated'}: INSERT and SELECT only on "
            f"{', '.join(roles.ledger_tables)}"
        )
