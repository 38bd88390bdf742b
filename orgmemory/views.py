"""Web page: the organization's shared insights with their evidence chains."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from kg.tenancy import OrgNotFound, org_for_user
from orgmemory.models import InsightStatus
from orgmemory.services import insights_for_user


@require_GET
@login_required
def org_insights_page(request: HttpRequest, org_slug: str) -> HttpResponse:
    try:
        org = org_for_user(request.user, org_slug)
    except OrgNotFound:
        raise Http404("organization not found") from None
    insights = insights_for_user(request.user, org)
    return render(
        request,
        "orgmemory/insights.html",
        {
            "organization": org,
            "active": [i for i in insights if i.status == InsightStatus.ACTIVE],
            "inactive": [i for i in insights if i.status == InsightStatus.INACTIVE],
        },
    )
