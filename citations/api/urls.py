from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from citations.api import views
from citations.api.dumps import DumpViewSet

# Lists served under /api/v1/ by the apps above citations (curation's overrides), by prefix and URL
# name: they add themselves here when their app is ready, and the API root lists them too.
ROOT_ENTRIES: dict[str, str] = {}


class Router(DefaultRouter):
    """The API root lists the health check and the lists of the apps above beside its own."""

    def get_api_root_view(self, api_urls=None):
        api_root_dict = {prefix: self.routes[0].name.format(basename=basename) for prefix, _, basename in self.registry}
        api_root_dict.update(ROOT_ENTRIES)
        api_root_dict["health"] = "api-health"
        return self.APIRootView.as_view(api_root_dict=api_root_dict)


router = Router()
router.register("papers", views.PaperViewSet, basename="paper")
router.register("observations", views.ObservationViewSet, basename="observation")
router.register("works", views.CitedWorkViewSet, basename="work")
router.register("changes", views.ChangeViewSet, basename="change")
router.register("standing-events", views.StandingEventViewSet, basename="standing-event")
router.register("jobs", views.JobViewSet, basename="job")
router.register("dumps", DumpViewSet, basename="dump")

urlpatterns = [
    path("api/v1/health", views.health, name="api-health"),
    path("api/v1/health/", views.health_with_slash),
    path("api/v1/", include(router.urls)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
]
