"""The transparency log, read-only: its newest checkpoint, its tiles, and a record's proofs."""
import json
import re
from functools import partial

from django.conf import settings
from django.http import FileResponse, Http404, HttpResponse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

from citations.json_errors import api_error_response
from citations.models import LogCheckpoint
from citations.pages.history import requested_time
from citations.pages.views import JSON_CONTENT_TYPE, _record_or_404
from citations.records.build import build_record
from citations.records.cache import cached_record
from citations.records.history import BadTime
from citations.transparency.proofs import NotYetCheckpointed, record_proofs

TILE = re.compile(r"^(entries|[0-9]{1,2})/(x[0-9]{3}/)*[0-9]{3}(\.p/([1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5]))?$")


@require_safe
def checkpoint(request):
    """The newest signed checkpoint (C2SP tlog-checkpoint in a signed note)."""
    newest = LogCheckpoint.objects.order_by("-size").first()
    if newest is None:
        raise Http404("the log has no checkpoint yet")
    response = HttpResponse(newest.note, content_type="text/plain; charset=utf-8")
    response["Access-Control-Allow-Origin"] = "*"
    patch_cache_control(response, public=True, max_age=5)    # a new one comes at most every minute
    return response


@require_safe
def tile(request, path: str):
    """A tile (C2SP tlog-tiles): full or partial, it never changes once written."""
    if not TILE.match(path):
        raise Http404("not a tile address")
    found = settings.LOG_DIR / "tile" / path
    if not found.is_file():
        raise Http404("no such tile")
    response = FileResponse(open(found, "rb"), content_type="application/octet-stream")  # noqa: SIM115 - FileResponse closes it
    response["Access-Control-Allow-Origin"] = "*"
    patch_cache_control(response, public=True, max_age=365 * 24 * 3600, immutable=True)
    return response


@require_safe
def record_proofs_json(request, arxiv_id: str):
    """The log proofs of the record /paper/<id>/citation-record.json serves now (or ?as_of=T)."""
    try:
        as_of = requested_time(request)
    except BadTime as error:
        return api_error_response(400, "invalid", str(error))
    body = _record_or_404(cached_record if as_of is None else partial(build_record, as_of=as_of), arxiv_id).body
    try:
        document = record_proofs(body)
    except NotYetCheckpointed as error:
        response = api_error_response(503, "not_yet_logged", f"{error}; the next comes within a minute")
        response["Retry-After"] = "60"
        return response
    response = HttpResponse(json.dumps(document, sort_keys=True), content_type=JSON_CONTENT_TYPE)
    response["Access-Control-Allow-Origin"] = "*"
    patch_cache_control(response, public=True, no_cache=True)
    return response
