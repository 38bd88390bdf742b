"""PRD pages, included at the site root: path("", include("artifacts.urls"))."""

from django.urls import path

from artifacts import views

app_name = "artifacts"

urlpatterns = [
    path("projects/<slug:slug>/prd/", views.prd_view, name="prd"),
    path("projects/<slug:slug>/prd/<int:number>.md", views.prd_markdown, name="prd-markdown"),
    path("projects/<slug:slug>/prd/generate", views.prd_generate, name="prd-generate"),
    path("projects/<slug:slug>/prd/runs/<int:run_id>/", views.prd_progress, name="prd-progress"),
    path("projects/<slug:slug>/prd/status/<int:run_id>", views.prd_status, name="prd-status"),
]
