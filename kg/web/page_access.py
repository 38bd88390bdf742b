"""The project a page asks for, answered as pages answer: 404 for someone who is not a member
(a non-member learns nothing of the project, not even that it exists), 403 for a change a
member may not make. The API answers the same from tenancy's exceptions (kg.web.api.exceptions)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from kg.models import Project
from kg.tenancy import NotAllowed, ProjectNotFound, check_can_write, project_for_user


def readable_project(request: HttpRequest, slug: str) -> Project:
    """The project, for a member of its organization; 404 for anyone else."""
    try:
        return project_for_user(request.user, slug)
    except ProjectNotFound as exc:
        raise Http404(str(exc)) from None


def writable_project(request: HttpRequest, slug: str) -> Project:
    """The project for a change: 404 for a non-member, 403 for a viewer or an archive."""
    project = readable_project(request, slug)
    try:
        check_can_write(request.user, project)
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from None
    return project
