from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

import artifacts.api
import orgmemory.api
from kg.web.api.auth import ThrottledLoginView, TokenView
from kg.web.views import alive, health

api = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("auth/token/", TokenView.as_view(), name="api-token"),
    path("", include("kg.web.api.urls")),
    path("", include("chat.api")),
    path("", include(artifacts.api.router_urls)),
    path("", include(orgmemory.api.router_urls)),
]

accounts = [
    path(
        "login/",
        ThrottledLoginView.as_view(
            extra_context={"password_reset_enabled": settings.PASSWORD_RESET_ENABLED}
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
]
if settings.PASSWORD_RESET_ENABLED:
    # Without a mail server the reset page would claim to have sent a mail that never leaves.
    accounts += [
        path("password_reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
        path(
            "password_reset/done/",
            auth_views.PasswordResetDoneView.as_view(),
            name="password_reset_done",
        ),
        path(
            "reset/<uidb64>/<token>/",
            auth_views.PasswordResetConfirmView.as_view(),
            name="password_reset_confirm",
        ),
        path(
            "reset/done/",
            auth_views.PasswordResetCompleteView.as_view(),
            name="password_reset_complete",
        ),
    ]

urlpatterns = [
    path("health", health, name="health"),
    path("health/live", alive, name="alive"),
    path("admin/", admin.site.urls),
    path("", include("kg.web.workspace_urls")),
    path("accounts/", include(accounts)),
    path("api/", include(api)),
    path("", include("chat.urls")),
    path("", include("kg.web.research_urls")),
    path("", include("artifacts.urls")),
    path("", include("orgmemory.urls")),
]

# JSON under /api/ (when DEBUG is off; DEBUG shows Django's technical page instead).
handler404 = "kg.web.api.exceptions.not_found"
