"""Tenancy services: who may see which project."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet

from kg.models import Language, Membership, Organization, Project, Role


class ProjectNotFound(LookupError):
    pass


class OrgNotFound(LookupError):
    pass


def is_member(user, org: Organization) -> bool:
    return bool(
        user.is_authenticated and Membership.objects.filter(user=user, organization=org).exists()
    )


def org_for_user(user, slug: str) -> Organization:
    """The organization, if the user is a member; otherwise OrgNotFound (never 'forbidden')."""
    org = Organization.objects.filter(slug=slug).first()
    if org is None or not is_member(user, org):
        raise OrgNotFound(f"organization {slug!r} not found")
    return org


def projects_for_user(user) -> QuerySet[Project]:
    if not user.is_authenticated:
        return Project.objects.none()
    return Project.objects.filter(organization__memberships__user=user).select_related(
        "organization"
    )


def project_for_user(user, slug: str) -> Project:
    """The project, if the user belongs to its organization; otherwise ProjectNotFound."""
    try:
        return projects_for_user(user).get(slug=slug)
    except Project.DoesNotExist:
        raise ProjectNotFound(f"project {slug!r} not found") from None


def find_project(slug: str) -> Project:
    try:
        return Project.objects.select_related("organization").get(slug=slug)
    except Project.DoesNotExist:
        raise ProjectNotFound(
            f"project {slug!r} does not exist (use --create to make it)"
        ) from None


@transaction.atomic
def get_or_create_project(org_slug: str, slug: str, language: str = Language.EN) -> Project:
    org, _ = Organization.objects.get_or_create(slug=org_slug, defaults={"name": org_slug})
    project, created = Project.objects.get_or_create(
        slug=slug, defaults={"organization": org, "name": slug, "language": language}
    )
    if not created and project.organization_id != org.id:
        raise ProjectNotFound(f"project {slug!r} belongs to another organization")
    return project


@dataclass
class Demo:
    username: str
    org_slug: str
    project_slug: str


@transaction.atomic
def ensure_demo(password: str, username: str = "demo") -> Demo:
    org, _ = Organization.objects.get_or_create(slug="demo", defaults={"name": "Demo Org"})
    project, _ = Project.objects.get_or_create(
        slug="demo", defaults={"organization": org, "name": "Demo product", "language": "en"}
    )
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(username=username)
    if created or not user.check_password(password):
        user.set_password(password)
        user.is_staff = True
        user.is_superuser = True
        user.save()
    Membership.objects.get_or_create(user=user, organization=org, defaults={"role": Role.OWNER})
    return Demo(username=username, org_slug=org.slug, project_slug=project.slug)
