"""Signing in: the API token endpoint and the web login, both throttled per client.

A wrong password answers 401 on the API (the credentials are well formed, just not valid) and
the login page again on the web; past LOGIN_ATTEMPTS_PER_MINUTE attempts a client gets 429.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from rest_framework import exceptions, serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle

from kg.web.api.fields import StringField


class LoginThrottle(SimpleRateThrottle):
    """Attempts per client address (successful or not), for the token endpoint."""

    scope = "login"

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TokenCredentials(AuthTokenSerializer):
    # JSON strings without NUL, as the schema says (DRF's CharField refuses NUL unannounced).
    username = StringField(label="Username", write_only=True)
    password = StringField(
        label="Password", style={"input_type": "password"}, trim_whitespace=False, write_only=True
    )

    def validate(self, attrs):
        try:
            return super().validate(attrs)
        except serializers.ValidationError as exc:
            codes = exc.get_codes()
            flat = codes.get("non_field_errors", []) if isinstance(codes, dict) else codes
            if "authorization" in flat:
                raise exceptions.AuthenticationFailed(
                    "Unable to log in with the provided credentials."
                ) from exc
            raise


class TokenView(ObtainAuthToken):
    serializer_class = TokenCredentials
    throttle_classes = [LoginThrottle]

    def get_authenticate_header(self, request: Request) -> str:
        return 'Token realm="api"'

    def post(self, request: Request, *args, **kwargs) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token, _ = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})


def _client(request: HttpRequest) -> str:
    return request.META.get("REMOTE_ADDR", "") or "unknown"


class ThrottledLoginView(auth_views.LoginView):
    """The web login: failed attempts are counted per client address for a minute."""

    def _key(self) -> str:
        return f"groundwork:login-failures:{_client(self.request)}"

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if cache.get(self._key(), 0) >= settings.LOGIN_ATTEMPTS_PER_MINUTE:
            response = self.render_to_response(
                self.get_context_data(form=self.get_form(), throttled=True), status=429
            )
            response["Retry-After"] = "60"
            return response
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        key = self._key()
        if cache.add(key, 1, timeout=60) is False:
            try:
                cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.set(key, 1, timeout=60)
        return super().form_invalid(form)
