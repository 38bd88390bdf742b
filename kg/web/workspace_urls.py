"""Workspace pages (sign-up, invitations, people, projects), mounted at the site root."""

from django.urls import path

import kg.web.api.converters  # noqa: F401  registers <project:...>
from kg.web import workspace_views as views

app_name = "workspace"

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("invitations/<str:token>/", views.invitation, name="invitation"),
    path("orgs/<slug:org_slug>/people/", views.people, name="people"),
    path("orgs/<slug:org_slug>/people/<int:membership_id>/", views.member, name="member"),
    path("orgs/<slug:org_slug>/projects/new/", views.new_project, name="new-project"),
    path("projects/<project:slug>/settings/", views.project_settings, name="project-settings"),
]
