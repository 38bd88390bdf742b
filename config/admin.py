"""The admin is for the installation's superusers only.

It shows every organization's data (the ledger, the audit, the graph); organization members,
staff or not, work in the product's own pages and API, which are scoped to their
organizations. A staff flag alone opens nothing here.
"""

from __future__ import annotations

from django.contrib.admin import AdminSite
from django.contrib.admin.apps import AdminConfig
from django.http import HttpRequest


class GroundworkAdminSite(AdminSite):
    def has_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_superuser


class GroundworkAdminConfig(AdminConfig):
    default_site = "config.admin.GroundworkAdminSite"
