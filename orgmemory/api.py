"""REST API for org insights: list and detail, membership-checked, paginated.

The lead includes `router_urls` under /api/, giving
    /api/organizations/<org_slug>/insights/         list   (?status=active|inactive, ?page=N)
    /api/organizations/<org_slug>/insights/<id>/    detail
(beside kg's /api/organizations/<slug>/). Errors take kg.web.api.exceptions' JSON shape.
An organization the user does not belong to answers 404, exactly like one that does not exist.
"""

from __future__ import annotations

from django.http import Http404
from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from pydantic import BaseModel
from rest_framework.exceptions import ValidationError
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

import kg.web.api.converters  # noqa: F401  registers <num:...>
from kg.tenancy import OrgNotFound, org_for_user
from orgmemory.models import InsightStatus
from orgmemory.services import (
    OrgInsightNotFound,
    OrgInsightView,
    accessible_project_ids,
    describe_insights,
    insight_for_user,
    org_insights,
)


class OrgInsightPage(BaseModel):
    """The paginated list, as DRF's PageNumberPagination writes it (for the schema)."""

    count: int
    next: str | None
    previous: str | None
    results: list[OrgInsightView]


def _org_or_404(request: Request, org_slug: str):
    try:
        return org_for_user(request.user, org_slug)
    except OrgNotFound:
        raise Http404("organization not found") from None


class OrgInsightListView(GenericAPIView):
    @extend_schema(
        operation_id="org_insights_list",
        tags=["org insights"],
        responses=OrgInsightPage,
        parameters=[OpenApiParameter("status", str, enum=list(InsightStatus.values))],
    )
    def get(self, request: Request, org_slug: str) -> Response:
        org = _org_or_404(request, org_slug)
        status = request.query_params.get("status")  # present but empty is a mistake too
        if status is not None and status not in InsightStatus.values:
            raise ValidationError({"status": f"one of {', '.join(InsightStatus.values)}"})
        # Paginate the queryset, then describe only the page: an org can hold many insights.
        page = self.paginate_queryset(org_insights(org, status))
        views = describe_insights(page, accessible_project_ids(request.user, org))
        return self.get_paginated_response([v.model_dump(mode="json") for v in views])


class OrgInsightDetailView(GenericAPIView):
    @extend_schema(
        operation_id="org_insights_retrieve", tags=["org insights"], responses=OrgInsightView
    )
    def get(self, request: Request, org_slug: str, insight_id: int) -> Response:
        org = _org_or_404(request, org_slug)
        try:
            view = insight_for_user(request.user, org, insight_id)
        except OrgInsightNotFound:
            raise Http404("insight not found") from None
        return Response(view.model_dump(mode="json"))


router_urls = [
    path(
        "organizations/<slug:org_slug>/insights/",
        OrgInsightListView.as_view(),
        name="orgmemory-api-insight-list",
    ),
    path(
        "organizations/<slug:org_slug>/insights/<num:insight_id>/",
        OrgInsightDetailView.as_view(),
        name="orgmemory-api-insight-detail",
    ),
]
