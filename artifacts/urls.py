"""PRD pages, included at the site root: path("", include("artifacts.urls"))."""

from django.urls import path

import kg.web.api.converters  # noqa: F401  registers <project:...>
from artifacts import views

app_name = "artifacts"

urlpatterns = [
    path("projects/<project:slug>/prd/", views.prd_view, name="prd"),
    path("projects/<project:slug>/prd/<int:number>.md", views.prd_markdown, name="prd-markdown"),
    path(
        "projects/<project:slug>/prd/<int:number>.docx",
        views.prd_docx_download,
        name="prd-docx",
    ),
    path(
        "projects/<project:slug>/prd/<int:number>-requirements.csv",
        views.prd_requirements_csv,
        name="prd-csv",
    ),
    path("projects/<project:slug>/prd/<int:number>/edit", views.prd_edit, name="prd-edit"),
    path("projects/<project:slug>/prd/generate", views.prd_generate, name="prd-generate"),
    path("projects/<project:slug>/prd/runs/<int:run_id>/", views.prd_progress, name="prd-progress"),
    path("projects/<project:slug>/prd/status/<int:run_id>", views.prd_status, name="prd-status"),
]
