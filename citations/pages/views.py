"""Public pages: the paper, its citation record (HTML and canonical JSON), integrity, evidence, the papers
held and their search."""
import json
from functools import partial, wraps
from urllib.parse import quote

from django.http import (
    Http404,
    HttpResponse,
    HttpResponseNotModified,
    HttpResponsePermanentRedirect,
    HttpResponseRedirect,
)
from django.shortcuts import render
from django.urls import Resolver404
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

from citations.arxiv_ids import is_canonical_arxiv_id
from citations.json_errors import api_error_response
from citations.models import PaperVersion
from citations.pages.history import as_of_query, bad_time_page, requested_time
from citations.pages.listing import BadListing, reference_listing
from citations.pages.paging import BadPage, page_of
from citations.pages.references import reference_address
from citations.pages.search import (
    MAX_QUERY_LENGTH,
    PAGE_SIZE,
    current_snapshots,
    paper_listings,
    papers_with_lists,
    parse_query,
    search_papers,
)
from citations.records.build import CAPS, BuiltRecord, RecordUnavailable, build_record
from citations.records.cache import CachedRecord, cached_record
from citations.records.citation_formats import bibtex, cited_references, csl_json
from citations.records.dumps import dump_file as find_dump_file
from citations.records.history import BadTime
from citations.records.presentation import (
    NOTICE_REASONS,
    STATE_LABELS,
    STATE_MEANINGS,
    author_names,
    coverage_lanes,
    inbound_state_counts,
    paper_categories,
    plain_thesis,
    recompute_digests,
    standing_summary,
    state_count_rows,
)
from citations.records.rows import observation_rows
from citations.records.timestamps import render_z
from citations.signing import sign
from citations.sources.record_checks import record_schema

JSON_CONTENT_TYPE = "application/json; charset=utf-8"


def canonical_paper_id(arxiv_id: str) -> str | None:
    """The bare id an address names, as the search box reads it (arXiv:2212.11808, 2212.11808v1)."""
    query = parse_query(arxiv_id)
    return query.value if query.kind == "arxiv_id" else None


def canonical_address(view):
    """A paper's pages answer at its bare id: /paper/arXiv:ID and /paper/IDv1 redirect there (301)."""
    @wraps(view)
    def wrapper(request, arxiv_id: str, **kwargs):
        if not is_canonical_arxiv_id(arxiv_id):
            canonical = canonical_paper_id(arxiv_id)
            if canonical is not None:
                path = request.path.replace(f"/paper/{arxiv_id}", f"/paper/{canonical}", 1)
                query = request.META.get("QUERY_STRING", "")
                return HttpResponsePermanentRedirect(path + (f"?{query}" if query else ""))
        return view(request, arxiv_id, **kwargs)
    return wrapper


def _record_or_404(make, arxiv_id: str):
    """make(arxiv_id=...) for a well-formed, held arXiv id; the 404 page (with the reason) otherwise."""
    if not is_canonical_arxiv_id(arxiv_id):
        raise Http404(f"{arxiv_id!r} is not an arXiv identifier")
    try:
        return make(arxiv_id=arxiv_id)
    except RecordUnavailable as error:
        raise Http404(str(error)) from None


def _built(arxiv_id: str, as_of=None) -> BuiltRecord:
    """The record built now, or as of a past time (the HTML pages need its rows, not only its bytes)."""
    return _record_or_404(partial(build_record, as_of=as_of), arxiv_id)


def record_etag(built: BuiltRecord | CachedRecord) -> str:
    # Weak: the body also carries as_of, which moves every minute while the facts (and so
    # the context digest) stay the same. Weak comparison is what If-None-Match uses.
    return f'W/"{built.context_digest}"'


def _etag_matches(header: str, etag: str) -> bool:
    if header.strip() == "*":
        return True
    opaque = etag.removeprefix("W/")
    return any(tag.strip().removeprefix("W/") == opaque for tag in header.split(","))


def record_json_response(request, arxiv_id: str) -> HttpResponse:
    """The canonical bytes with their ETag, or 304; shared by the page and the API.
    With ?as_of=T, the record as of T: the bytes `manage.py export_record ID --as-of T` prints."""
    try:
        as_of = requested_time(request)
    except BadTime as error:
        return api_error_response(400, "invalid", str(error))
    # Now: from the cache. A past time: built (a past record changes only with a backfill).
    built = _record_or_404(cached_record if as_of is None else partial(build_record, as_of=as_of), arxiv_id)
    signature = built.signature if isinstance(built, CachedRecord) else sign(built.body)
    etag = record_etag(built)
    if _etag_matches(request.headers.get("If-None-Match", ""), etag):
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(built.body, content_type=JSON_CONTENT_TYPE)
    response["ETag"] = etag
    response["Access-Control-Allow-Origin"] = "*"
    if signature is not None:
        # The signature of exactly these bytes; the .sig address serves it too (docs/verification.md).
        response["Pith-Signature"] = signature.header()
        response["Access-Control-Expose-Headers"] = "Pith-Signature, ETag"
    # Cacheable, but revalidated on every use: a correction must show at once, and an unchanged
    # record costs the client only a 304.
    patch_cache_control(response, public=True, no_cache=True)
    return response


@require_safe
@canonical_address
def record_json(request, arxiv_id: str):
    return record_json_response(request, arxiv_id)


@require_safe
@canonical_address
def record_html(request, arxiv_id: str):
    try:
        as_of = requested_time(request)
    except BadTime as error:
        return bad_time_page(request, error)
    built = _built(arxiv_id, as_of)
    record = built.record
    try:
        listing = reference_listing(built, request.GET.get("page", "1"), request.GET.get("state", ""),
                                    keep={"as_of": request.GET["as_of"]} if as_of is not None else None)
    except BadListing as error:
        return render(request, "citations/bad_request.html", {"reason": str(error)}, status=400)
    return render(request, "citations/record.html", {
        "record": record,
        "paper": record["paper"],
        "listing": listing,
        "thesis": plain_thesis(record),
        "outbound": listing.rows,
        "standing": standing_summary(record),
        "inbound": observation_rows(built, "inbound"),
        "state_counts": state_count_rows(record),
        "coverage": coverage_lanes(record),
        "inbound_total": record["coverage"][2]["denominator"],
        "etag": record_etag(built),
        "as_of_query": as_of_query(as_of),      # the JSON and integrity links of a past version keep its time
        "as_of_text": render_z(as_of),
        "history_url": f"/paper/{arxiv_id}/history",
    })


@require_safe
@canonical_address
def integrity(request, arxiv_id: str):
    try:
        as_of = requested_time(request)
    except BadTime as error:
        return bad_time_page(request, error)
    built = _built(arxiv_id, as_of)
    # Recompute from the bytes the JSON page serves, not from the dict they were made from.
    served = json.loads(built.body)
    checks = recompute_digests(served)
    return render(request, "citations/integrity.html", {
        "record": served,
        "paper": served["paper"],
        "checks": checks,
        "all_hold": all(check.holds for check in checks),
        "failed": [check for check in checks if not check.holds],
        "json_url": request.build_absolute_uri(served["links"]["json"] + as_of_query(as_of)),
        # The proofs of these very bytes: of the current record, or of the same past time. (Not ?as_of
        # the current record's own as_of: that is its build time cut to the minute, and a rebuild as of
        # it leaves out what was written in the minute before the build.)
        "proofs_url": f"/paper/{arxiv_id}/citation-record.proofs.json" + as_of_query(as_of),
        "body_bytes": len(built.body),
        "standing": standing_summary(served),
    })


@require_safe
@canonical_address
def paper(request, arxiv_id: str):
    built = _built(arxiv_id)
    record = built.record
    snapshot = current_snapshots().filter(paper__arxiv_id=arxiv_id).first()
    versions = list(PaperVersion.objects.filter(paper__arxiv_id=arxiv_id).order_by("version")
                    .values("version", "created_at"))
    return render(request, "citations/paper.html", {
        "record": record,
        "paper": record["paper"],
        "snapshot": snapshot,
        "authors": author_names(snapshot.authors) if snapshot else [],
        "categories": paper_categories(snapshot.primary_category, snapshot.categories) if snapshot else [],
        "versions": versions,
        "reference_states": state_count_rows(record),
        "thesis": plain_thesis(record),
        "citation_states": inbound_state_counts(record),
        "inbound_total": record["coverage"][2]["denominator"],
        "standing": standing_summary(record),
    })


@require_safe
@canonical_address
def reference(request, arxiv_id: str, reference_id):
    """A reference's lasting address (audit entries link it): its row in the record now, after any split or join."""
    address = reference_address(arxiv_id=arxiv_id, reference_id=reference_id)
    if address is None:
        raise Http404(f"arXiv:{arxiv_id} holds no reference {reference_id}")
    return HttpResponseRedirect(address)


CITATION_FORMATS = {
    "bib": (bibtex, "application/x-bibtex; charset=utf-8"),
    "csl.json": (csl_json, "application/vnd.citationstyles.csl+json; charset=utf-8"),
}


@require_safe
@canonical_address
def references_cited(request, arxiv_id: str, fmt: str, reference_id=None):
    """The paper's references (or one of them) as BibTeX or CSL-JSON, every one past the record's cap too."""
    write, content_type = CITATION_FORMATS[fmt]
    references = cited_references(_built(arxiv_id), observation_id=str(reference_id) if reference_id else None)
    if reference_id and not references:
        raise Http404(f"reference {reference_id} is not in the current reference list of arXiv:{arxiv_id}")
    response = HttpResponse(write(references), content_type=content_type)
    name = f"{arxiv_id.replace('/', '-')}-{f'ref{references[0].reference_index}' if reference_id else 'references'}"
    response["Content-Disposition"] = f'inline; filename="{name}.{fmt}"'
    response["Access-Control-Allow-Origin"] = "*"
    return response


@require_safe
def evidence(request):
    return render(request, "citations/evidence.html", {
        "states": [(state, STATE_LABELS[state], STATE_MEANINGS[state]) for state in STATE_LABELS],
        "reasons": sorted(NOTICE_REASONS.items()),
        "caps": CAPS,
    })


@require_safe
def record_schema_json(request):
    return HttpResponse(json.dumps(record_schema(), indent=2), content_type=JSON_CONTENT_TYPE)


@require_safe
def home(request):
    """The papers with a reference list, a page at a time (citations/pages/search.py: three statements)."""
    return _listing_page(request, "citations/home.html", papers_with_lists(), {})


@require_safe
def search(request):
    """Held papers by arXiv id, DOI, or title and author words."""
    values = request.GET.getlist("q")
    if len(values) > 1:
        return _bad_request(request, "citations/search.html", f"q is given {len(values)} times; give it once")
    text = values[0] if values else ""
    if len(text) > MAX_QUERY_LENGTH:
        return _bad_request(request, "citations/search.html",
                            f"a search is at most {MAX_QUERY_LENGTH} characters; this one has {len(text)}")
    query = parse_query(text)
    return _listing_page(request, "citations/search.html", search_papers(query),
                         {"query": query})


def _listing_page(request, template: str, snapshots, context: dict):
    try:     # lists never show abstracts
        page, total = page_of(snapshots.defer("abstract"), request.GET.get("page", "1"), PAGE_SIZE)
    except BadPage as error:
        return _bad_request(request, template, str(error), context)
    listed = paper_listings(page.object_list) if page else []
    query_text = context["query"].text if "query" in context else ""
    return render(request, template, {
        **context,
        "papers": listed,
        "page": page,
        "total": total,
        "page_query": f"q={quote(query_text)}&" if query_text else "",
    })


def _bad_request(request, template: str, reason: str, context: dict | None = None):
    """The list's own page, saying what was wrong with the address (400)."""
    return render(request, template, {**(context or {}), "reason": reason, "papers": []}, status=400)


@require_safe
def dump_file(request, name: str, file: str):
    """A file of a published dump. Published dumps never change: cacheable for a year."""
    from django.http import FileResponse

    path = find_dump_file(name, file)
    if path is None:
        raise Http404(f"no file {file!r} in a published dump {name!r}")
    content_type = "application/json" if file.endswith(".json") else "application/gzip"
    response = FileResponse(open(path, "rb"), content_type=content_type)
    patch_cache_control(response, public=True, max_age=365 * 24 * 3600, immutable=True)
    return response


@require_safe
def favicon(request):
    response = HttpResponse(status=204)       # no icon; say so once, and let browsers remember
    patch_cache_control(response, public=True, max_age=86400)
    return response


def not_found(request, exception=None):
    reason = _public_reason(exception)
    if request.path.startswith("/api/"):
        return api_error_response(404, "not_found", reason or "there is nothing at this address")
    return render(request, "404.html", {"reason": reason}, status=404)


def _public_reason(exception) -> str | None:
    """The reason a view gave for its 404, when it wrote one for readers. A URL resolver's 404
    carries the URL patterns it tried, whose reprs name the modules' absolute file paths: never shown."""
    if not isinstance(exception, Http404) or isinstance(exception, Resolver404) or not exception.args:
        return None
    reason = exception.args[0]
    return reason if isinstance(reason, str) else None


def server_error(request):
    # Never the error itself: it is logged, and the reader gets a page that leaks nothing.
    if request.path.startswith("/api/"):
        return api_error_response(500, "server_error", "something went wrong on our side; it was logged")
    return render(request, "500.html", status=500)
