from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.authtoken.views import obtain_auth_token

import artifacts.api
import orgmemory.api
from kg.views import health

api = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("", include("kg.api.urls")),
    path("", include("chat.api")),
    path("", include(artifacts.api.router_urls)),
    path("", include(orgmemory.api.router_urls)),
]

urlpatterns = [
    path("health", health, name="health"),
    path("admin/", admin.site.urls),
    path("", include("kg.workspace_urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", include(api)),
    path("", include("chat.urls")),
    path("", include("kg.research_urls")),
    path("", include("artifacts.urls")),
    path("", include("orgmemory.urls")),
]

# JSON under /api/ (when DEBUG is off; DEBUG shows Django's technical page instead).
handler404 = "kg.api.exceptions.not_found"
