"""Signatures beside the records: a record's detached signature and the public keys that check it."""
import json
from functools import partial

from django.http import HttpResponse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

from citations.json_errors import api_error_response
from citations.pages.history import requested_time
from citations.pages.views import JSON_CONTENT_TYPE, _record_or_404
from citations.records.build import build_record
from citations.records.cache import cached_record
from citations.records.history import BadTime
from citations.signing import keys_document, sign, signature_document


@require_safe
def record_signature(request, arxiv_id: str):
    """The detached Ed25519 signature of the bytes /paper/<id>/citation-record.json serves now (or ?as_of=T).
    The JSON response carries the same signature in its Pith-Signature header; this address is for a
    client holding the bytes already (its signed_sha256 says which bytes were signed)."""
    try:
        as_of = requested_time(request)
    except BadTime as error:
        return api_error_response(400, "invalid", str(error))
    if as_of is None:
        record = _record_or_404(cached_record, arxiv_id)
        body, signature = record.body, record.signature
    else:
        body = _record_or_404(partial(build_record, as_of=as_of), arxiv_id).body
        signature = sign(body)
    if signature is None:
        return api_error_response(503, "unavailable", "this server has no signing key configured")
    response = HttpResponse(json.dumps(signature_document(body, signature), sort_keys=True),
                            content_type=JSON_CONTENT_TYPE)
    response["Access-Control-Allow-Origin"] = "*"
    patch_cache_control(response, public=True, no_cache=True)
    return response


@require_safe
def public_keys(request):
    """Every key Pith has signed with, with its key id and validity period (a rotation keeps old keys)."""
    response = HttpResponse(json.dumps(keys_document(), indent=2), content_type=JSON_CONTENT_TYPE)
    response["Access-Control-Allow-Origin"] = "*"
    patch_cache_control(response, public=True, max_age=300)
    return response
