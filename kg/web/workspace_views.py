"""The workspace a team runs by itself: sign-up, invitations, people and projects.

Pages parse the form, call one kg.tenancy function and render or redirect. Refusals by role
are 403 pages that say which role is needed; an organization or project the user does not
belong to is a 404, as everywhere else.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.mail import send_mail
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from kg import tenancy
from kg.confirmation import ConfirmationNeeded
from kg.models import Invitation, Language, Membership, Organization, Role
from kg.web.confirm_page import confirmation_page, is_confirmed
from kg.web.page_access import readable_project
from kg.web.rate_limits import client_address, take

BACKEND = "django.contrib.auth.backends.ModelBackend"


def _too_many(what: str, wait: int) -> str:
    minutes = max(1, (wait + 59) // 60)
    return f"too many {what} from here; try again in {minutes} minute(s)"


def _signup_wait(request: HttpRequest) -> int | None:
    """Counts a sign-up attempt of the client's address (an hour's window)."""
    return take("signup", client_address(request), settings.SIGNUPS_PER_HOUR, 3600)


def _org(request: HttpRequest, slug: str) -> Organization:
    try:
        return tenancy.org_for_user(request.user, slug)
    except tenancy.OrgNotFound as exc:
        raise Http404(str(exc)) from None


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = {k: request.POST.get(k, "") for k in ("username", "email", "organization")}
    error, status = "", 200
    wait = _signup_wait(request) if request.method == "POST" else None
    if wait:
        error, status = _too_many("sign-ups", wait), 429
    elif request.method == "POST":
        try:
            user = tenancy.sign_up(
                form["username"],
                form["email"],
                request.POST.get("password", ""),
                form["organization"],
            )
        except tenancy.TenancyRejected as exc:
            error, status = str(exc), 400
        else:
            login(request, user, backend=BACKEND)
            return redirect("chat:projects")
    response = render(
        request, "workspace/signup.html", {"form": form, "error": error}, status=status
    )
    if wait:
        response["Retry-After"] = str(wait)
    return response


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """Signed in: join with one click. Signed out: sign up here (or sign in and come back)."""
    try:
        invite = tenancy.open_invitation(token)
    except tenancy.TenancyRejected as exc:
        return render(request, "workspace/invitation.html", {"error": str(exc)}, status=404)
    form = {k: request.POST.get(k, "") for k in ("username", "email")}
    error, status = "", 200
    # Signing up through an invitation counts as a sign-up of the address.
    signing_up = request.method == "POST" and not request.user.is_authenticated
    wait = _signup_wait(request) if signing_up else None
    if wait:
        error, status = _too_many("sign-ups", wait), 429
    elif request.method == "POST":
        try:
            if request.user.is_authenticated:
                tenancy.accept_invitation(token, request.user)
            else:
                user = tenancy.sign_up_by_invitation(
                    token, form["username"], form["email"], request.POST.get("password", "")
                )
                login(request, user, backend=BACKEND)
        except tenancy.TenancyRejected as exc:
            error, status = str(exc), 400
        else:
            return redirect("chat:projects")
    response = render(
        request,
        "workspace/invitation.html",
        {"invite": invite, "form": form, "error": error, "token": token},
        status=status,
    )
    if wait:
        response["Retry-After"] = str(wait)
    return response


def _invitation_url(request: HttpRequest, invite: Invitation) -> str:
    return request.build_absolute_uri(reverse("workspace:invitation", args=[invite.token]))


@login_required
@require_http_methods(["GET", "POST"])
def people(request: HttpRequest, org_slug: str) -> HttpResponse:
    """Members and their roles; owners and admins invite here (a link, and a mail if given)."""
    org = _org(request, org_slug)
    role = tenancy.role_in(request.user, org)
    created: Invitation | None = None
    error = mail_error = ""
    status = 200
    wait = None
    if request.method == "POST":
        wait = take("invitation", f"user:{request.user.pk}", settings.INVITATIONS_PER_HOUR, 3600)
    if wait:
        error, status = _too_many("invitations", wait), 429
    elif request.method == "POST":
        try:
            created = tenancy.create_invitation(
                request.user, org, request.POST.get("role", ""), request.POST.get("email", "")
            )
        except tenancy.NotAllowed as exc:
            raise PermissionDenied(str(exc)) from None
        except tenancy.TenancyRejected as exc:
            error, status = str(exc), 400
        if created and created.email:
            try:
                send_mail(
                    f"You are invited to {org.name} on Groundwork",
                    f"{request.user.get_username()} invites you to {org.name} as "
                    f"{created.role}.\nOpen this link to join: "
                    f"{_invitation_url(request, created)}\n",
                    None,
                    [created.email],
                )
            except OSError as exc:  # no mail server here: the link on the page still works
                mail_error = f"the mail could not be sent ({exc}); send the link yourself"
    manages = role in tenancy.MANAGER_ROLES
    return render(
        request,
        "workspace/people.html",
        {
            "organization": org,
            "role": role,
            "manages": manages,
            "members": Membership.objects.filter(organization=org)
            .select_related("user")
            .order_by("user__username"),
            "roles": Role.choices if role == Role.OWNER else Role.choices[1:],
            "pending": (
                org.invitations.filter(accepted_at__isnull=True).order_by("-created_at")[:20]
                if manages
                else []
            ),
            "created": created,
            "created_url": _invitation_url(request, created) if created else "",
            "error": error,
            "mail_error": mail_error,
        },
        status=status,
    )


@login_required
@require_POST
def member(request: HttpRequest, org_slug: str, membership_id: int) -> HttpResponse:
    org = _org(request, org_slug)
    membership = get_object_or_404(Membership, organization=org, pk=membership_id)
    try:
        if request.POST.get("action") == "remove":
            tenancy.remove_member(request.user, membership, confirmed=is_confirmed(request))
        else:
            tenancy.change_role(request.user, membership, request.POST.get("role", ""))
    except ConfirmationNeeded as needed:
        return confirmation_page(request, needed, reverse("workspace:people", args=[org.slug]))
    except tenancy.NotAllowed as exc:
        raise PermissionDenied(str(exc)) from None
    except tenancy.TenancyRejected as exc:
        return render(
            request, "workspace/error.html", {"error": str(exc), "organization": org}, status=400
        )
    return redirect("workspace:people", org_slug=org.slug)


@login_required
@require_POST
def new_project(request: HttpRequest, org_slug: str) -> HttpResponse:
    org = _org(request, org_slug)
    try:
        project = tenancy.create_project(
            request.user,
            org,
            request.POST.get("name", ""),
            request.POST.get("language", Language.EN),
            request.POST.get("description", ""),
        )
    except tenancy.NotAllowed as exc:
        raise PermissionDenied(str(exc)) from None
    except tenancy.TenancyRejected as exc:
        return render(
            request, "workspace/error.html", {"error": str(exc), "organization": org}, status=400
        )
    return redirect("chat:chat", slug=project.slug)


@login_required
@require_http_methods(["GET", "POST"])
def project_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """Rename, language, description, archive: owners and admins; members see the settings."""
    project = readable_project(request, slug)
    error = ""
    if request.method == "POST":
        try:
            action = request.POST.get("action", "save")
            if action in ("archive", "restore"):
                tenancy.set_project_archived(request.user, project, action == "archive")
            else:
                tenancy.update_project(
                    request.user,
                    project,
                    request.POST.get("name", ""),
                    request.POST.get("language", ""),
                    request.POST.get("description", ""),
                )
        except tenancy.NotAllowed as exc:
            raise PermissionDenied(str(exc)) from None
        except tenancy.TenancyRejected as exc:
            error = str(exc)
            project.refresh_from_db()
        else:
            return redirect("workspace:project-settings", slug=project.slug)
    return render(
        request,
        "workspace/project_settings.html",
        {
            "project": project,
            "languages": Language.choices,
            "manages": tenancy.can_manage(request.user, project.organization_id),
            "error": error,
        },
        status=400 if error else 200,
    )
