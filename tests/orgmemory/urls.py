"""The site's URLs, as config/urls.py mounts them: the page extends the site's base template,
whose top bar links to the other apps' pages."""

from config.urls import handler404, urlpatterns  # noqa: F401
