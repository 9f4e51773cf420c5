"""References waiting for their work: resolved again when a work they could name arrives.

A reference that found nothing (unresolved, or parse-uncertain) is filed under the keys the resolver
looked it up by: its title's blocking keys, when the title can be trusted; where it says it is
printed (volume and first page); or the arXiv id it names, when that paper is not held. When a work,
a title revision or a held paper is later filed under one of those keys, the references waiting
under it are sent to resolution, and if they link, their standing is checked then (service.py):
  - import_works queues a job with each batch naming the works and revisions it wrote
    (works_arrived); a worker finds their waiting references (resolve_waiting_for_works), so a bulk
    import writes at its own pace while the workers keep up (bench/works.py);
  - an arXiv id a works batch learns, and a paper's metadata (its title keys, its arrival), send
    theirs in the writing transaction: they are few.
Before this, only a reference printing a DOI the store had just learnt was sent; one citing a new
work by its title stayed unresolved until `resolve --all`.

Each resolution of a reference rewrites its filing (resolution is the one place its state changes),
so a reference that links leaves the index. `manage.py file_waiting_references` files the references
of a store resolved before this index existed.

A reference is sent only when the resolver would find the new work among its candidates: a key many
titles share (a stock title, "Introduction") finds a work only with a second shared key (store.py),
so the references waiting under it alone are not sent back each time such a title arrives.
"""
from collections.abc import Iterable

from django.db import connection, transaction

from citations.jobs.dispatch import dispatch_task
from citations.models import (
    CitedWork,
    CurrentResolution,
    PaperReference,
    ResolutionState,
    WaitingReferenceKey,
    WorkRevision,
)
from citations.models.overrides import active_overrides
from citations.parsing.locators import locator_key
from citations.parsing.quality import title_problems
from citations.parsing.text import key_fingerprint, title_fingerprints
from citations.resolution.fields import reference_fields
from citations.resolution.matching import ReferenceFields, Resolution
from citations.resolution.store import CROWDED_KEY, SPECIFIC_KEY, owners_by_key
from citations.sql_arrays import any_of

_WAITING_STATES = (ResolutionState.UNRESOLVED, ResolutionState.PARSE_UNCERTAIN)
SEND_CHUNK = 1000


def arxiv_key(arxiv_id: str) -> int:
    """The key of an arXiv id: a reference naming a paper not held waits under it for the paper (or a
    work with that arXiv id) to arrive."""
    return key_fingerprint(f"arxiv:{arxiv_id}")


def waiting_keys(fields: ReferenceFields, result: Resolution) -> set[int]:
    """The keys a reference with this resolution waits under (none once it links, or when a curator
    marked it not a work)."""
    if result.state not in _WAITING_STATES or fields.not_a_work:
        return set()
    keys = set()
    if result.resolver_source == "arxiv_id":
        # That paper resolves it; so may a work without an arXiv id that agrees by title or locator.
        keys = {arxiv_key(identifier["value"]) for identifier in fields.identifiers_of("arxiv", valid=True)}
    if fields.title and not title_problems(fields.title):
        keys |= title_fingerprints(fields.title)
    if fields.locator:
        keys.add(locator_key(fields.locator.volume, fields.locator.first_page))
    keys.discard(None)
    return keys


def file_waiting(keys_by_reference: dict) -> None:
    """Make these references wait under exactly these keys (an empty set: not at all)."""
    if not keys_by_reference:
        return
    WaitingReferenceKey.objects.filter(reference_id__in=list(keys_by_reference)).delete()
    WaitingReferenceKey.objects.bulk_create(
        [WaitingReferenceKey(key=key, reference_id=reference_id)
         for reference_id, keys in keys_by_reference.items() for key in sorted(keys)], batch_size=2000)


def waiting_for(owners_keys: Iterable[Iterable[int]] = (), *, exact_keys: Iterable[int] = ()) -> set[str]:
    """The references that newly filed owners could now resolve to. owners_keys: each new work's, paper's
    or revision's keys (filed already, in this transaction); exact_keys: arXiv keys of new papers and
    works, under which every waiting reference is sent.

    A reference is sent when the resolver would now find the owner among its candidates (store._chosen):
    it shares with the owner a key few titles are filed under (SPECIFIC_KEY), or two keys that are
    not too crowded (CROWDED_KEY). A locator key, which no title is filed under, counts as crowded
    by the references waiting under it."""
    owners_keys = [frozenset(keys) for keys in owners_keys]
    found = {reference for references in _waiting_by_key(set(exact_keys), limit=None).values()
             for reference in references}
    waiting = _waiting_by_key({key for keys in owners_keys for key in keys}, limit=CROWDED_KEY + 1)
    if not waiting:
        return found
    filed = owners_by_key(set(waiting))
    crowd = {key: len(filed.get(key) or ()) or len(references) for key, references in waiting.items()}
    for keys in owners_keys:
        shared: dict = {}
        for key in keys & waiting.keys():
            if crowd[key] <= SPECIFIC_KEY:
                found.update(waiting[key])
            elif crowd[key] <= CROWDED_KEY:
                for reference in waiting[key]:
                    shared[reference] = shared.get(reference, 0) + 1
        found.update(reference for reference, count in shared.items() if count >= 2)
    return found


def _waiting_by_key(keys: set[int], *, limit: int | None) -> dict[int, list[str]]:
    """key -> the references waiting under it (at most limit), for the keys that have any."""
    found: dict[int, list[str]] = {}
    if not keys:
        return found
    if connection.vendor == "postgresql":
        # One array as text (psycopg dumps a list value by value); one index range per key, which
        # stops at the limit however many references share the key.
        with connection.cursor() as cursor:
            cursor.execute(f"""SELECT k.key, w.reference_id::text
                FROM unnest(string_to_array(%s, ',')::bigint[]) AS k(key)
                CROSS JOIN LATERAL (SELECT reference_id FROM {WaitingReferenceKey._meta.db_table}
                                    WHERE key = k.key LIMIT %s) w""",
                           [",".join(map(str, sorted(keys))), limit])
            rows = cursor.fetchall()
    else:
        ordered, rows = sorted(keys), []
        for start in range(0, len(ordered), 5000):
            rows += [(key, str(reference)) for key, reference in WaitingReferenceKey.objects.filter(
                key__in=ordered[start:start + 5000]).values_list("key", "reference_id")]
    for key, reference in rows:
        found.setdefault(key, []).append(reference)
    return found


def send_for_resolution(reference_ids: Iterable) -> int:
    """Resolve these references again, in jobs of SEND_CHUNK sent when the caller's transaction
    commits (citations/jobs/dispatch.py); returns how many were sent."""
    ids = sorted({str(pk) for pk in reference_ids})
    for start in range(0, len(ids), SEND_CHUNK):
        dispatch_task("citations.resolve_references", args=[ids[start:start + SEND_CHUNK]])
    return len(ids)


def resolve_waiting(owners_keys: Iterable[Iterable[int]] = (), *, exact_keys: Iterable[int] = ()) -> int:
    """Send the references waiting for these newly filed owners to resolution (waiting_for);
    returns how many."""
    return send_for_resolution(waiting_for(owners_keys, exact_keys=exact_keys))


def resolve_references_naming(*, dois: Iterable[str] = (), arxiv_ids: Iterable[str] = ()) -> int:
    """Send to resolution the references that identifiers the store has just learnt may now resolve
    (their standing is checked when they link: service.py): those printing one of the DOIs, and those
    waiting for one of the arXiv ids. Returns how many."""
    waiting = waiting_for(exact_keys=map(arxiv_key, arxiv_ids))
    return send_for_resolution({*references_printing(set(dois)), *waiting})


def arrival_keys(title: str | None, volume: str | None, first_page: str | None) -> set[int]:
    """The keys references wait under for a work or revision with these fields."""
    keys = title_fingerprints(title) if title else set()
    located = locator_key(volume, first_page)
    if located is not None:
        keys.add(located)
    return keys


def works_arrived(*, works: tuple | None, revisions: tuple | None) -> None:
    """A works import wrote these works (an id range: ids are time-ordered) and revisions (a pk range):
    queue the search for the references waiting for them, committed with them and run by a worker
    (resolve_waiting_for_works), so that a bulk import writes at its own pace. Concurrent importers'
    ranges may interleave: a work looked at twice finds the same references, and resolution is idempotent."""
    if works or revisions:
        dispatch_task("citations.resolve_waiting_for_works",
                      kwargs={"works": [str(v) for v in works] if works else None,
                              "revisions": list(revisions) if revisions else None})


def resolve_waiting_for_works(*, works: list | None = None, revisions: list | None = None) -> dict:
    """Send to resolution the references waiting for the works and revisions in these ranges (works_arrived)."""
    owners = []
    for model, bounds, key in ((CitedWork, works, "id"), (WorkRevision, revisions, "pk")):
        if bounds:
            rows = model.objects.filter(**{f"{key}__range": bounds}).order_by().values_list("title", "volume", "first_page")
            owners += [arrival_keys(*row) for row in rows.iterator(chunk_size=5000)]
    return {"works": len(owners), "references": send_for_resolution(waiting_for(owners))}


def file_current_references(*, batch: int = 2000, progress=None) -> int:
    """File every reference now unresolved or parse-uncertain under its waiting keys, from its current
    resolution (for a store resolved before this index existed; resolution keeps it from then on).
    Idempotent; returns the number of references that wait."""
    waiting, after = 0, None
    while True:
        current = CurrentResolution.objects.filter(state__in=_WAITING_STATES).order_by("reference_id")
        if after is not None:
            current = current.filter(reference_id__gt=after)
        rows = list(current.values_list("reference_id", "state", "resolver_source")[:batch])
        if not rows:
            return waiting
        after = rows[-1][0]
        with transaction.atomic():
            # Locked as resolution locks them (service._resolve_batch: the same rows, in id order), and
            # their state read again under the lock: a reference resolved meanwhile has had its filing
            # rewritten by that resolution, and is left as it is.
            references = {r.pk: r for r in PaperReference.objects.select_for_update(of=("self",))
                          .filter(id__in=[pk for pk, _, _ in rows]).order_by("id")}
            still = CurrentResolution.objects.filter(reference_id__in=list(references), state__in=_WAITING_STATES) \
                .values_list("reference_id", "state", "resolver_source")
            overrides = active_overrides(reference_ids=list(references))
            keys = {pk: waiting_keys(reference_fields(references[pk], overrides.get(pk)), Resolution(state, source))
                    for pk, state, source in still}
            file_waiting(keys)
        waiting += sum(1 for found in keys.values() if found)
        if progress:
            progress(len(rows))


def references_printing(dois: set[str]) -> list[str]:
    """The references printing one of these DOIs (which the store has just learnt)."""
    if not dois:
        return []
    if connection.vendor == "postgresql":     # one string, not a parameter per DOI (a batch learns thousands)
        any_doi, params = any_of(dois)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT id::text FROM {PaperReference._meta.db_table} WHERE doi = {any_doi}", params)
            return [pk for pk, in cursor.fetchall()]
    return [str(pk) for pk in PaperReference.objects.filter(doi__in=dois).values_list("id", flat=True)]
