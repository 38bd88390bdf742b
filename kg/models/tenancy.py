"""Tenancy: Organization → Project, and who belongs to which organization."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Language(models.TextChoices):
    EN = "en", "English"
    RU = "ru", "Russian"


class Role(models.TextChoices):
    OWNER = "owner", "Owner"
    ADMIN = "admin", "Admin"
    MEMBER = "member", "Member"


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
    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=200)
    language = models.CharField(max_length=2, choices=Language.choices, default=Language.EN)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.name or self.slug

    @property
    def graph_scope(self):  # -> kg.graph.GraphScope, imported lazily to keep models light
        from kg.graph.records import GraphScope

        return GraphScope(org=self.organization.slug, project=self.slug)


class Membership(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    organization = models.ForeignKey(
        Organization, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "organization"], name="unique_membership")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.organization} ({self.role})"
