from django.urls import path, re_path
from django.views.generic import RedirectView

from curation import views

app_name = "curation"
urlpatterns = [
    path("curation/overrides/", views.override_list, name="overrides"),
    path("curation/overrides/<int:pk>", views.override_entry, name="override"),
    # The audit trail's admin list was /admin/curation/override/ until the model moved to citations.
    re_path(r"^admin/curation/override/(?P<rest>.*)$",
            RedirectView.as_view(url="/admin/citations/override/%(rest)s", permanent=True, query_string=True),
            name="old-audit-trail-address"),
]
