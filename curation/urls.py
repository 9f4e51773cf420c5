from django.urls import path

from curation import views

app_name = "curation"
urlpatterns = [
    path("curation/overrides/", views.override_list, name="overrides"),
    path("curation/overrides/<int:pk>", views.override_entry, name="override"),
]
