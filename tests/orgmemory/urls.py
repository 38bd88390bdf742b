"""The URLs the lead wires into config/urls.py, mounted the same way for the tests."""

from django.urls import include, path

from orgmemory.api import router_urls

urlpatterns = [
    path("api/", include(router_urls)),
    path("", include("orgmemory.urls")),
]
