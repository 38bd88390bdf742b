"""Tenancy: Organization → Project, and who belongs to which organization."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models


class Language(models.TextChoices):
    EN = "en", "English"
    RU = "ru", "Russian"


class Role(models.TextChoices):
    """Viewers read; editors also write research (messages, uploads, answers, PRDs); admins
    also manage people and projects; owners also grant and take the owner role."""

    OWNER = "owner", "Owner"
    ADMIN = "admin", "Admin"
    EDITOR = "editor", "Editor"
    VIEWER = "viewer", "Viewer"


class Organization(models.Model):
    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.name or self.slug


class Project(models.Model):
    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, related_name="projects"
    )
    # The address, unique within the organization: another organization's names are no
    # business of this one's (a global namespace answered "beta-app-2" to a name taken
    # elsewhere, telling that it exists).
    slug = models.SlugField()
    # The project's key in the graph and in shared keys, unique across the installation (the
    # graph knows no organizations' namespaces): the slug when free, else the slug and a few
    # random characters. Never shown, never changed.
    graph_key = models.CharField(max_length=80, unique=True, editable=False)
    name = models.CharField(max_length=200)
    language = models.CharField(max_length=2, choices=Language.choices, default=Language.EN)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    archived_at = models.DateTimeField(
        null=True, blank=True, help_text="An archived project is read-only; its research stays."
    )

    class Meta:
        ordering = ["slug"]
        constraints = [
            models.UniqueConstraint(
                fields=["organization", "slug"], name="project_slug_unique_in_organization"
            )
        ]

    def __str__(self) -> str:
        return self.name or self.slug

    def save(self, *args, **kwargs) -> None:
        if not self.graph_key:
            self.graph_key = _free_graph_key(self.slug)
        super().save(*args, **kwargs)

    @property
    def archived(self) -> bool:
        return self.archived_at is not None

    @property
    def graph_scope(self):  # -> kg.graph.GraphScope, imported lazily to keep models light
        from kg.graph.records import GraphScope

        return GraphScope(org=self.organization.slug, project=self.graph_key)


def _free_graph_key(slug: str) -> str:
    key = slug
    while Project.objects.filter(graph_key=key).exists():
        key = f"{slug}-{secrets.token_hex(4)}"
    return key


class Membership(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    organization = models.ForeignKey(
        Organization, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.EDITOR)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "organization"], name="unique_membership")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.organization} ({self.role})"


class Invitation(models.Model):
    """A link that makes whoever opens it (signed in or signing up) a member with a role.
    Used once; the token is the only secret in the link."""

    organization = models.ForeignKey(
        Organization, on_delete=models.CASCADE, related_name="invitations"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.EDITOR)
    email = models.EmailField(blank=True)
    token = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["organization", "-created_at"]

    def __str__(self) -> str:
        return f"invitation to {self.organization} as {self.role}"
