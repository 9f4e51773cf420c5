"""A record's history for people: its versions (/paper/<id>/history), two versions compared
(?from=T1&to=T2), and the `?as_of=` every record page takes."""
from datetime import datetime
from urllib.parse import quote

from django.http import Http404
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from citations.arxiv_ids import is_canonical_arxiv_id
from citations.models.generations import generation_of
from citations.records.build import RecordUnavailable, build_record
from citations.records.cache import cache_get, cache_set
from citations.records.history import BadTime, diff_records, parse_as_of, record_history
from citations.records.timestamps import render_z, truncate_to_minute

# A history is cached under the record's generations and the minute it was built in: any write a
# record shows bumps a generation, and a new minute can make a new version. Short-lived, so an
# observation dated a little ahead of this clock (validation.FUTURE_SKEW) is not missed for long.
HISTORY_CACHE_SECONDS = 120


def requested_time(request, name: str = "as_of") -> datetime | None:
    """The time a query parameter names (None when absent or empty); BadTime when it names none."""
    values = request.GET.getlist(name)
    if len(values) > 1:
        raise BadTime(f"{name} is given {len(values)} times; give it once")
    if not values or not values[0].strip():
        return None
    return parse_as_of(values[0], what=name)


def as_of_query(as_of: datetime | None) -> str:
    """'?as_of=2026-08-04T14:44:00Z' for a past version, '' for the record as it is now."""
    return f"?as_of={quote(render_z(as_of), safe=':')}" if as_of is not None else ""


def bad_time_page(request, error: BadTime):
    """The 400 page: what was wrong with the time, and how to write one."""
    return render(request, "citations/bad_request.html", {"reason": str(error)}, status=400)


@require_safe
def history(request, arxiv_id: str):
    """The record's versions, newest first; with ?from=T1[&to=T2], what changed from one to the other."""
    if not is_canonical_arxiv_id(arxiv_id):
        raise Http404(f"{arxiv_id!r} is not an arXiv identifier")
    try:
        since, until = requested_time(request, "from"), requested_time(request, "to")
    except BadTime as error:
        return bad_time_page(request, error)
    if since is not None or until is not None:
        return _compare(request, arxiv_id, since, until)
    try:
        found = _cached_history(arxiv_id)
    except RecordUnavailable as error:
        raise Http404(str(error)) from None
    return render(request, "citations/history.html", {
        "arxiv_id": arxiv_id,
        "history": found,
        "rows": _version_rows(found),
        "links": _links(arxiv_id),
    })


def _version_rows(found) -> list[dict]:
    """Each version with its address (none for the current record built as of now) and its comparison
    with the version before it."""
    rows = []
    for n, version in enumerate(found.versions):
        previous = found.versions[n + 1] if n + 1 < len(found.versions) else None
        rows.append({
            "version": version,
            "query": "" if version.as_of == found.built_at else as_of_query(version.as_of),
            "compare_query": (f"?from={quote(previous.as_of_text, safe=':')}&to={quote(version.as_of_text, safe=':')}"
                              if previous is not None else ""),
        })
    return rows


def _cached_history(arxiv_id: str):
    now = timezone.now()
    store, paper = generation_of(arxiv_id)
    key = f"records:history:{arxiv_id}:{render_z(truncate_to_minute(now))}:{store}:{paper}"
    found = cache_get(key)
    if found is None:
        found = record_history(arxiv_id=arxiv_id, now=now)
        cache_set(key, found, HISTORY_CACHE_SECONDS)
    return found


def _compare(request, arxiv_id: str, since: datetime | None, until: datetime | None):
    if since is None:
        return bad_time_page(request, BadTime("to is given without from: compare from one time to another, "
                                              "?from=T1&to=T2 (to defaults to now)"))
    try:
        after = build_record(arxiv_id=arxiv_id, as_of=until)
    except RecordUnavailable as error:
        raise Http404(str(error)) from None
    try:
        before, before_missing = build_record(arxiv_id=arxiv_id, as_of=since), None
    except RecordUnavailable as error:
        before, before_missing = None, str(error)       # the record did not exist yet: all of it is new
    changes = diff_records(before.record if before else None, after.record)
    return render(request, "citations/history.html", {
        "arxiv_id": arxiv_id,
        "compare": True,
        "since": since,
        "until": until,
        "since_query": as_of_query(since),
        "until_query": as_of_query(until),
        "since_text": render_z(since),
        "until_text": render_z(until),
        "before": before.record if before else None,
        "before_missing": before_missing,
        "after": after.record,
        "changes": changes,
        "links": _links(arxiv_id),
    })


def _links(arxiv_id: str) -> dict:
    return {"html": f"/paper/{arxiv_id}/citation-record", "json": f"/paper/{arxiv_id}/citation-record.json",
            "integrity": f"/paper/{arxiv_id}/integrity", "history": f"/paper/{arxiv_id}/history",
            "paper": f"/paper/{arxiv_id}"}
