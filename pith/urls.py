from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    # Before admin/: curation's old admin address redirects, and the admin answers 404 to any other.
    path("", include("curation.urls")),
    path("admin/", admin.site.urls),
    path("", include("curation.api.urls")),
    path("", include("citations.api.urls")),
    path("", include("citations.urls")),
]

handler404 = "citations.api.errors.not_found"
handler500 = "citations.pages.views.server_error"
