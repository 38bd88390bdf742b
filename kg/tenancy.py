"""Tenancy services: who may see which project."""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.text import slugify

from kg.confirmation import ConfirmationNeeded
from kg.models import Invitation, Language, Membership, Organization, Project, Role

INVITATION_DAYS = 14
WRITER_ROLES = frozenset({Role.OWNER, Role.ADMIN, Role.EDITOR})
MANAGER_ROLES = frozenset({Role.OWNER, Role.ADMIN})


def product_name(project: Project) -> str:
    """The product's name to tell a model, or "" when the project has no name of its own.

    A name that only repeats the slug is an address, not the product's name (kg_ingest --create
    used to copy the slug into it): told "reviews", extraction takes every message that uses the
    word for a mention of the product, and makes its rivals competitors of "reviews". Without a
    name, the product comes from what the research itself names.
    """
    name = " ".join(project.name.split())
    if not name or name.casefold() == project.slug.casefold():
        return ""
    return name


class ProjectNotFound(LookupError):
    pass


class AmbiguousProject(ProjectNotFound):
    """A bare slug that more than one organization (of the user's) has; says the full names."""


class OrgNotFound(LookupError):
    pass


class NotAllowed(PermissionError):
    """A member asked for something their role does not allow; the message says which role."""


class TenancyRejected(ValueError):
    """Input that cannot become a user, organization, project or invitation; says why."""


class ProjectNameTaken(TenancyRejected):
    """Another project of the organization has this name: the list could not tell them apart."""


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


def _one_project(candidates: QuerySet[Project], reference: str, missing: str) -> Project:
    """The project a path names: `slug` or `<organization>~<slug>`, among `candidates`."""
    org_slug, _, slug = reference.rpartition("~")
    if org_slug:
        candidates = candidates.filter(organization__slug=org_slug)
    found = list(candidates.filter(slug=slug)[:2])
    if not found:
        raise ProjectNotFound(missing)
    if len(found) > 1:
        addresses = " or ".join(f"{p.organization.slug}~{p.slug}" for p in found)
        raise AmbiguousProject(
            f"project {slug!r} is in more than one of your organizations; name it with its "
            f"organization: {addresses}"
        )
    return found[0]


def project_for_user(user, slug: str) -> Project:
    """The project, if the user belongs to its organization; otherwise ProjectNotFound.

    `slug` is unique within an organization; a member of several organizations with the same
    slug names the project `<organization>~<slug>`. Only the user's own projects are looked
    at, so the answer says nothing of other organizations'."""
    return _one_project(projects_for_user(user), slug, f"project {slug!r} not found")


def find_project(slug: str) -> Project:
    """For the operator's commands: `slug` (when one organization has it) or `<org>~<slug>`."""
    return _one_project(
        Project.objects.select_related("organization"),
        slug,
        f"project {slug!r} does not exist (use --create to make it)",
    )


@transaction.atomic
def get_or_create_project(
    org_slug: str, slug: str, language: str = Language.EN, name: str = ""
) -> Project:
    """The project at `slug`, or a new one in the organization (made too if missing).

    A new project is called `name`, or has no name (the slug is an address, not the
    product's name); ProjectNameTaken when the organization already has a project of that name.
    """
    org, _ = Organization.objects.get_or_create(slug=org_slug, defaults={"name": org_slug})
    project = Project.objects.filter(organization=org, slug=slug).first()
    if project is not None:
        return project
    name = _clean_name(name, "project") if name.strip() else ""
    if name:
        check_project_name_free(_locked(org), name)
    return Project.objects.create(organization=org, slug=slug, name=name, language=language)


@dataclass
class Demo:
    username: str
    org_slug: str
    project_slug: str


@transaction.atomic
def ensure_demo(password: str, username: str = "demo") -> Demo:
    org, _ = Organization.objects.get_or_create(slug="demo", defaults={"name": "Demo Org"})
    project, _ = Project.objects.get_or_create(
        organization=org, slug="demo", defaults={"name": "Demo product", "language": "en"}
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


# --- roles -----------------------------------------------------------------------------------


def role_in(user, org: Organization | int) -> str | None:
    """The user's role in the organization, or None for a non-member."""
    if not user.is_authenticated:
        return None
    org_id = org if isinstance(org, int) else org.pk
    return (
        Membership.objects.filter(user=user, organization_id=org_id)
        .values_list("role", flat=True)
        .first()
    )


def can_write(user, project: Project) -> bool:
    """May write research in the project: an editor or above, and the project not archived."""
    return not project.archived and role_in(user, project.organization_id) in WRITER_ROLES


def can_manage(user, org: Organization | int) -> bool:
    return role_in(user, org) in MANAGER_ROLES


def check_can_write(user, project: Project) -> None:
    if project.archived:
        raise NotAllowed(f"project {project.slug!r} is archived; it can be read, not changed")
    if role_in(user, project.organization_id) not in WRITER_ROLES:
        raise NotAllowed("viewers can read the research; an editor, admin or owner can write it")


def check_can_manage(user, org: Organization) -> None:
    if not can_manage(user, org):
        raise NotAllowed("only an organization's owners and admins manage people and projects")


def writable_project_for_user(user, slug: str) -> Project:
    """The project for a write: ProjectNotFound for a non-member, NotAllowed for a viewer."""
    project = project_for_user(user, slug)
    check_can_write(user, project)
    return project


def managed_orgs(user) -> QuerySet[Organization]:
    if not user.is_authenticated:
        return Organization.objects.none()
    return Organization.objects.filter(
        memberships__user=user, memberships__role__in=MANAGER_ROLES
    ).distinct()


def orgs_of_user(user) -> QuerySet[Organization]:
    if not user.is_authenticated:
        return Organization.objects.none()
    return Organization.objects.filter(memberships__user=user).distinct()


# --- sign-up, organizations and projects ---------------------------------------------------


# Characters that reorder the text around them when shown (U+202E turns "gpj.exe" into
# "exe.jpg" on screen): a name with one displays differently from what it is.
BIDI_CONTROLS = {
    "\u061c": "ARABIC LETTER MARK",
    "\u200e": "LEFT-TO-RIGHT MARK",
    "\u200f": "RIGHT-TO-LEFT MARK",
    "\u202a": "LEFT-TO-RIGHT EMBEDDING",
    "\u202b": "RIGHT-TO-LEFT EMBEDDING",
    "\u202c": "POP DIRECTIONAL FORMATTING",
    "\u202d": "LEFT-TO-RIGHT OVERRIDE",
    "\u202e": "RIGHT-TO-LEFT OVERRIDE",
    "\u2066": "LEFT-TO-RIGHT ISOLATE",
    "\u2067": "RIGHT-TO-LEFT ISOLATE",
    "\u2068": "FIRST STRONG ISOLATE",
    "\u2069": "POP DIRECTIONAL ISOLATE",
}


def bidi_control_in(text: str) -> str | None:
    """How the first bidirectional control character in `text` is written (U+202E, its name),
    or None when there is none."""
    for character in text:
        if character in BIDI_CONTROLS:
            return f"U+{ord(character):04X} ({BIDI_CONTROLS[character]})"
    return None


def without_bidi_controls(text: str) -> str:
    return "".join(character for character in text if character not in BIDI_CONTROLS)


def _unique_slug(taken: QuerySet, text: str, fallback: str) -> str:
    """A slug from `text` that none of `taken` has: `base`, `base-2`, `base-3`..."""
    base = (slugify(text) or fallback)[:40].strip("-") or fallback
    slug, n = base, 2
    while taken.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def _clean_name(value: str, what: str) -> str:
    name = " ".join((value or "").split())
    if not name:
        raise TenancyRejected(f"the {what} needs a name")
    control = bidi_control_in(name)
    if control:
        raise TenancyRejected(
            f"the {what}'s name contains {control}, which changes how the text around it is "
            "shown; remove it"
        )
    if len(name) > 200:
        raise TenancyRejected(f"the {what}'s name has {len(name)} characters; the limit is 200")
    return name


def project_name_key(name: str) -> str:
    """What two project names are compared by: case and runs of whitespace do not count."""
    return " ".join(name.split()).casefold()


def check_project_name_free(org: Organization, name: str, exclude: Project | None = None) -> None:
    """ProjectNameTaken when another project of the organization has the name (archived ones
    too: restored, they would sit beside it)."""
    key = project_name_key(name)
    others = Project.objects.filter(organization=org)
    if exclude is not None:
        others = others.exclude(pk=exclude.pk)
    # Compared here, not by the database: SQLite's case-insensitive match knows only ASCII.
    for other_name, other_slug in others.values_list("name", "slug"):
        if project_name_key(other_name) == key:
            raise ProjectNameTaken(
                f'{org.name} already has a project named "{other_name}" (at /{other_slug}/); '
                "choose another name"
            )


def _locked(org: Organization) -> Organization:
    """The organization's row locked to the end of the transaction, so two requests naming a
    project the same cannot both pass the check (SQLite serialises writers anyway)."""
    return Organization.objects.select_for_update().get(pk=org.pk)


def _new_user(username: str, email: str, password: str):
    username = (username or "").strip()
    user_model = get_user_model()
    if not username or len(username) > 150:
        raise TenancyRejected("choose a user name of 1 to 150 characters")
    if user_model.objects.filter(username__iexact=username).exists():
        raise TenancyRejected(f"the user name {username!r} is taken")
    candidate = user_model(username=username, email=(email or "").strip())
    try:
        validate_password(password, candidate)
    except ValidationError as exc:
        raise TenancyRejected(" ".join(exc.messages)) from None
    try:
        return user_model.objects.create_user(username, candidate.email, password)
    except IntegrityError:
        raise TenancyRejected(f"the user name {username!r} is taken") from None


@transaction.atomic
def sign_up(username: str, email: str, password: str, org_name: str):
    """A new user and their own organization, of which they are the owner."""
    name = _clean_name(org_name, "organization")
    user = _new_user(username, email, password)
    org = Organization.objects.create(
        slug=_unique_slug(Organization.objects.all(), name, "org"), name=name
    )
    Membership.objects.create(user=user, organization=org, role=Role.OWNER)
    return user


@transaction.atomic
def create_project(
    user, org: Organization, name: str, language: str = Language.EN, description: str = ""
) -> Project:
    check_can_manage(user, org)
    name = _clean_name(name, "project")
    if language not in Language.values:
        raise TenancyRejected(
            f"unknown language {language!r}; use one of: {', '.join(Language.values)}"
        )
    check_project_name_free(_locked(org), name)
    # Unique in the organization, and among the projects the creator sees (so their own
    # addresses stay plain slugs); other organizations' projects are not looked at.
    taken = Project.objects.filter(pk__in=projects_for_user(user)) | org.projects.all()
    return Project.objects.create(
        organization=org,
        slug=_unique_slug(taken, name, "project"),
        name=name,
        language=language,
        description=(description or "").strip()[:2000],
    )


@transaction.atomic
def update_project(user, project: Project, name: str, language: str, description: str) -> Project:
    """Rename, change the language or the description. The slug (the address) stays."""
    check_can_manage(user, project.organization)
    if language not in Language.values:
        raise TenancyRejected(
            f"unknown language {language!r}; use one of: {', '.join(Language.values)}"
        )
    name = _clean_name(name, "project")
    check_project_name_free(_locked(project.organization), name, exclude=project)
    project.name = name
    project.language = language
    project.description = (description or "").strip()[:2000]
    project.save(update_fields=["name", "language", "description"])
    return project


def set_project_archived(user, project: Project, archived: bool) -> Project:
    check_can_manage(user, project.organization)
    project.archived_at = timezone.now() if archived else None
    project.save(update_fields=["archived_at"])
    return project


# --- people ----------------------------------------------------------------------------------


def _grantable(actor_role: str | None, role: str) -> None:
    if role not in Role.values:
        raise TenancyRejected(f"unknown role {role!r}; use one of: {', '.join(Role.values)}")
    if actor_role not in MANAGER_ROLES:
        raise NotAllowed("only an organization's owners and admins manage people")
    if role == Role.OWNER and actor_role != Role.OWNER:
        raise NotAllowed("only an owner can make someone an owner")


def create_invitation(user, org: Organization, role: str, email: str = "") -> Invitation:
    _grantable(role_in(user, org), role)
    return Invitation.objects.create(
        organization=org,
        role=role,
        email=(email or "").strip()[:254],
        token=secrets.token_urlsafe(32),
        invited_by=user,
        expires_at=timezone.now() + dt.timedelta(days=INVITATION_DAYS),
    )


def open_invitation(token: str) -> Invitation:
    """The invitation behind a link, if it can still be used; otherwise TenancyRejected."""
    invitation = (
        Invitation.objects.select_related("organization").filter(token=token or "-").first()
    )
    if invitation is None:
        raise TenancyRejected("this invitation link is not valid")
    if invitation.accepted_at is not None:
        raise TenancyRejected("this invitation link has already been used")
    if invitation.expires_at <= timezone.now():
        raise TenancyRejected("this invitation link has expired; ask for a new one")
    return invitation


@transaction.atomic
def accept_invitation(token: str, user) -> Membership:
    """Join the organization with the invitation's role. A member keeps the higher role."""
    # Locked first, so two people opening one link at once cannot both use it.
    Invitation.objects.select_for_update().filter(token=token or "-").first()
    invitation = open_invitation(token)
    membership, created = Membership.objects.get_or_create(
        user=user, organization=invitation.organization, defaults={"role": invitation.role}
    )
    if not created and ROLE_ORDER.index(invitation.role) < ROLE_ORDER.index(membership.role):
        membership.role = invitation.role
        membership.save(update_fields=["role"])
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return membership


@transaction.atomic
def sign_up_by_invitation(token: str, username: str, email: str, password: str):
    open_invitation(token)
    user = _new_user(username, email, password)
    accept_invitation(token, user)
    return user


ROLE_ORDER = [Role.OWNER, Role.ADMIN, Role.EDITOR, Role.VIEWER]


def _owners_left(org: Organization, without: Membership) -> int:
    return (
        Membership.objects.filter(organization=org, role=Role.OWNER).exclude(pk=without.pk).count()
    )


@transaction.atomic
def change_role(user, membership: Membership, role: str) -> Membership:
    actor = role_in(user, membership.organization_id)
    _grantable(actor, role)
    if membership.role == Role.OWNER and actor != Role.OWNER:
        raise NotAllowed("only an owner can change an owner's role")
    if (
        membership.role == Role.OWNER
        and role != Role.OWNER
        and not _owners_left(membership.organization, membership)
    ):
        raise TenancyRejected("an organization keeps at least one owner")
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def remove_member(user, membership: Membership, confirmed: bool = True) -> None:
    """Unless `confirmed`, only asks (ConfirmationNeeded) once the removal is allowed."""
    actor = role_in(user, membership.organization_id)
    if actor not in MANAGER_ROLES:
        raise NotAllowed("only an organization's owners and admins manage people")
    if membership.role == Role.OWNER and actor != Role.OWNER:
        raise NotAllowed("only an owner can remove an owner")
    if membership.role == Role.OWNER and not _owners_left(membership.organization, membership):
        raise TenancyRejected("an organization keeps at least one owner")
    if not confirmed:
        org = membership.organization
        raise ConfirmationNeeded(
            f"Remove {membership.user.get_username()} ({membership.get_role_display()}) from "
            f"{org.name}?",
            "They lose access to its projects at once; what they wrote and corrected stays. "
            "An invitation brings them back.",
            "Yes, remove",
        )
    membership.delete()
