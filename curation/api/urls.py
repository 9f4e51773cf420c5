"""Curation's routes under /api/v1/, beside citations' (citations/api/urls.py lists them in the API root)."""
from django.urls import include, path
from rest_framework.routers import SimpleRouter

from curation.api import views

router = SimpleRouter()
router.register("overrides", views.OverrideViewSet, basename="override")
router.register("observations", views.ReferenceCorrectionViewSet, basename="observation")

urlpatterns = [
    path("api/v1/", include(router.urls)),
]
