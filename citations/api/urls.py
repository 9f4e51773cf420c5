from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from citations.api import views
from citations.api.dumps import DumpViewSet

router = DefaultRouter()
router.register("papers", views.PaperViewSet, basename="paper")
router.register("observations", views.ObservationViewSet, basename="observation")
router.register("works", views.CitedWorkViewSet, basename="work")
router.register("changes", views.ChangeViewSet, basename="change")
router.register("standing-events", views.StandingEventViewSet, basename="standing-event")
router.register("overrides", views.OverrideViewSet, basename="override")
router.register("jobs", views.JobViewSet, basename="job")
router.register("dumps", DumpViewSet, basename="dump")

urlpatterns = [
    path("api/v1/health", views.health, name="api-health"),
    path("api/v1/", include(router.urls)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
]
