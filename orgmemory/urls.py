from django.urls import path

from orgmemory.views import org_insights_page

app_name = "orgmemory"

urlpatterns = [
    path("orgs/<slug:org_slug>/insights/", org_insights_page, name="insights"),
]
