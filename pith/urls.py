from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("citations.api.urls")),
    path("", include("curation.urls")),
    path("", include("citations.urls")),
]

handler404 = "citations.pages.views.not_found"
handler500 = "citations.pages.views.server_error"
