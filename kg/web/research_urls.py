"""The research view of a project, mounted at the site root."""

from django.urls import path

import kg.web.api.converters  # noqa: F401  registers <num:...> and <project:...>
from kg.web import correction_views
from kg.web import research_views as views

app_name = "research"
P = "projects/<project:slug>/research/"

urlpatterns = [
    path(P, views.nodes_page, name="nodes"),
    path(P + "nodes/<num:number>/", views.node_page, name="node"),
    path(P + "nodes/<num:number>/correct/", views.correct_node, name="correct"),
    path(P + "messages/<num:number>/", views.message_page, name="message"),
    path(P + "search/", views.search_page, name="search"),
    path(P + "export.json", views.export_download, name="export"),
    path(P + "corrections/<num:number>/undo/", correction_views.undo, name="undo"),
]
