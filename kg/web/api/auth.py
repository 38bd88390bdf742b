"""Signing in: the API token endpoint and the web login.

A wrong password answers 401 on the API (the credentials are well formed, just not valid) and
the login page again on the web. Two limits apply to both (kg.web.rate_limits): attempts per
client address (LOGIN_ATTEMPTS_PER_MINUTE), and failures per account from that address, which
after LOGIN_FREE_FAILURES make the next attempt wait longer each time. Either answers 429 with
Retry-After.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from redis.exceptions import RedisError
from rest_framework import exceptions, serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser
from rest_framework.request import Request
from rest_framework.response import Response

from kg.web.api.fields import StringField
from kg.web.api.parsers import BoundedJSONParser, StrictMultiPartParser
from kg.web.api.throttles import LimitsUnavailable, LoginThrottle
from kg.web.rate_limits import (
    client_address,
    forget_sign_in_failures,
    record_sign_in_failure,
    sign_in_wait,
    take,
)


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


def _username(data) -> str:
    value = data.get("username", "") if hasattr(data, "get") else ""
    return value if isinstance(value, str) else ""


class TokenView(ObtainAuthToken):
    serializer_class = TokenCredentials
    throttle_classes = [LoginThrottle]
    parser_classes = [FormParser, StrictMultiPartParser, BoundedJSONParser]

    def get_authenticate_header(self, request: Request) -> str:
        return 'Token realm="api"'

    def post(self, request: Request, *args, **kwargs) -> Response:
        try:
            return self._sign_in(request)
        except RedisError as exc:  # the failures cannot be counted: no guessing meanwhile
            raise LimitsUnavailable() from exc

    def _sign_in(self, request: Request) -> Response:
        username, address = _username(request.data), client_address(request)
        wait = sign_in_wait(username, address)
        if wait:
            raise exceptions.Throttled(
                wait, detail="Too many failed sign-ins for this account; try again later."
            )
        serializer = self.get_serializer(data=request.data)
        try:
            serializer.is_valid(raise_exception=True)
        except exceptions.AuthenticationFailed:
            record_sign_in_failure(username, address)
            raise
        forget_sign_in_failures(username, address)
        token, _ = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})


class ThrottledLoginView(auth_views.LoginView):
    """The web login, under the same two limits as the token endpoint."""

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            return self._sign_in(request, *args, **kwargs)
        except RedisError:  # the failures cannot be counted: no guessing meanwhile
            response = self.render_to_response(
                self.get_context_data(form=self._unchecked_form(), unavailable=True), status=503
            )
            response["Retry-After"] = "30"
            return response

    def _unchecked_form(self):
        # Unbound: rendering a bound form validates it, which would try the password anyway.
        return self.get_form_class()(request=self.request)

    def _sign_in(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        address = client_address(request)
        username = request.POST.get("username", "")
        wait = take("login", f"address:{address}", settings.LOGIN_ATTEMPTS_PER_MINUTE, 60)
        wait = wait or sign_in_wait(username, address)
        if wait:
            response = self.render_to_response(
                self.get_context_data(form=self._unchecked_form(), throttled=True), status=429
            )
            response["Retry-After"] = str(wait)
            return response
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        forget_sign_in_failures(self.request.POST.get("username", ""), client_address(self.request))
        return super().form_valid(form)

    def form_invalid(self, form):
        record_sign_in_failure(self.request.POST.get("username", ""), client_address(self.request))
        return super().form_invalid(form)
