"""API list pages served from a cache while nothing any list shows has changed.

The same scheme as record bodies (citations/records/cache.py): every write that changes what a list
shows bumps the lists' generation in its own transaction, and a page is filed under the generation
read before it was built, so the next response of every process shows the write. A hit costs that
one read of LIST_SHARDS counter rows; a miss builds the page as before. A page differs by its full
address (host and scheme too: its next/previous links are absolute) and by whether the reader is
staff (audit entries name curators only for staff). Only JSON pages that answered 200 are kept.
The jobs list has a generation of its own, bumped by every write of a job (citations/models/jobs.py),
so a running job's progress, which operators poll, never empties the other lists' pages.

Consumers who walk a whole list hit mostly distinct pages, which are built each time; the cache
is for the pages read again and again (the first page of a list or a filter, a popular paper's).
"""
import hashlib

from django.conf import settings
from django.http import HttpResponse

from citations.models.generations import jobs_generation, lists_generation
from citations.records.cache import LocalBodies, cache_get, cache_set

local_pages = LocalBodies(capacity=settings.API_PAGE_LOCAL_ENTRIES)
CONTENT_TYPE = "application/json"


def cached_list_page(view, request, build, generation_of=lists_generation) -> HttpResponse:
    """The page `build()` answers (a DRF Response), rendered once per generation (generation_of():
    the lists', or the jobs list's own)."""
    if request.accepted_renderer.format != "json":
        return build()                              # the browsable API: built each time
    address = hashlib.sha256(request.build_absolute_uri().encode()).hexdigest()[:32]
    key = f"api:page:{view.basename}:{int(request.user.is_staff)}:{address}"
    # Read already with the request's token (citations/api/authentication.py), or now: before the
    # page is built either way, so a write racing the build costs a rebuild, never a stale page.
    generation = getattr(request._request, GENERATIONS_READ, {}).get(generation_of)
    if generation is None:
        generation = generation_of()
    body = local_pages.get(key, generation)
    if body is None:
        body = cache_get(f"{key}:{generation}")
        if body is None:
            response = build()
            if response.status_code != 200:
                return response
            body = request.accepted_renderer.render(response.data, request.accepted_media_type,
                                                    view.get_renderer_context())
            cache_set(f"{key}:{generation}", body, settings.API_PAGE_CACHE_SECONDS)
        local_pages.put(key, generation, body)
    return HttpResponse(body, content_type=CONTENT_TYPE)


GENERATIONS_READ = "pith_generations_read"


def remember_generations(request, generations: dict) -> None:
    """Generations read for this request (the generation function -> its value), for cached_list_page."""
    setattr(getattr(request, "_request", request), GENERATIONS_READ, generations)


class CachedListMixin:
    """list() served by cached_list_page, under list_generation()."""

    list_generation = staticmethod(lists_generation)

    def list(self, request, *args, **kwargs):
        return cached_list_page(self, request, lambda: super(CachedListMixin, self).list(request, *args, **kwargs),
                                self.list_generation)


class CachedJobListMixin(CachedListMixin):
    """The jobs list, under its own generation (citations/models/jobs.py bumps it on every job write)."""

    list_generation = staticmethod(jobs_generation)
