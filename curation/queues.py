"""The curation queues: references waiting for one kind of decision, and how each leaves its queue."""
import functools
import hashlib
import operator
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import Case, Count, Exists, F, IntegerField, OuterRef, Q, Subquery, When
from django.db.models.functions import Cast, Coalesce, Substr
from django.utils import timezone
from django.utils.functional import cached_property

from citations.jobs.dispatch import send_untracked
from citations.models import Override, OverrideField, PaperReference
from citations.models.generations import lists_generation
from citations.models.resolution import LINKING_STATES, with_current_resolution
from citations.records.presentation import STATE_LABELS
from curation.models import QueueCounts


@dataclass(frozen=True)
class Queue:
    """References waiting for one kind of decision.

    `members` is what puts a reference in the queue: its current state (the materialised current
    resolution) or what the parser read. A member leaves it once decided: marked not a scholarly work,
    resolved to a verified state, checked as read correctly, or given an override in force for a field
    in `decided_by` (None: any override in force, the `curated` flag of the current resolution). The observation itself
    never changes, so a queue that asked only the parsed values would never empty."""

    key: str
    label: str
    kind: str                                   # "state" or "pattern": how the queues page groups them
    members: Q
    decided_by: tuple[str, ...] | None
    field: str                                  # the field the override form opens on
    takes_out: str                              # in words, for the queues page

    def waiting(self) -> Q:
        """Members still waiting for a decision."""
        return still_open() & self.undecided()

    def undecided(self) -> Q:
        """Members no decision took out of this queue (still_open() aside)."""
        if self.decided_by is None:
            return self.members & Q(current__curated=False)
        # NOT IN over the references curators decided, not NOT EXISTS per reference: in a count's
        # FILTER, PostgreSQL hashes that small set once where it would probe an index for each of
        # millions of references (bench/queue_counts.py).
        deciding = Override.objects.in_force().filter(
            field__in=(*self.decided_by, OverrideField.NOT_A_WORK, OverrideField.CHECKED)).values("reference_id")
        return self.members & ~Q(pk__in=deciding)


def still_open() -> Q:
    """What every queue asks first: not linked to a verified work, and not cut anew. A reference a
    curator cut anew (split, joined, or carried into the corrected list), or a newer parser read again,
    is decided here: its successor in the newer list waits in its place."""
    return ~Q(current__state__in=LINKING_STATES) & ~Exists(PaperReference.objects.filter(derived_from=OuterRef("pk")))


_ANY_OVERRIDE = "any override in force (“checked, read correctly” too), or a verified link"
_TITLE_DECIDES = "a title override, “checked, read correctly”, not a work, or a verified link"
_YEAR_DECIDES = "a year override, “checked, read correctly”, not a work, or a verified link"
QUEUES = (
    Queue("parse_uncertain", STATE_LABELS["parse_uncertain"], "state", Q(current__state="parse_uncertain"), None,
          OverrideField.TITLE, _ANY_OVERRIDE),
    Queue("metadata_mismatch", STATE_LABELS["metadata_mismatch"], "state", Q(current__state="metadata_mismatch"),
          None, OverrideField.LINK, _ANY_OVERRIDE),
    Queue("malformed_identifier", STATE_LABELS["malformed_identifier"], "state",
          Q(current__state="malformed_identifier"), None, OverrideField.LINK, _ANY_OVERRIDE),
    Queue("unresolved", STATE_LABELS["unresolved"], "state", Q(current__state="unresolved"), None,
          OverrideField.LINK, _ANY_OVERRIDE),
    # Plain regex that PostgreSQL and SQLite read alike (no \b: PostgreSQL spells it \y).
    Queue("access_date", "Title is an access date", "pattern",
          Q(title__iregex=r"^ *(\[?online\]?[;,]? *)?(accessed|retrieved)([^a-z]|$)"), (OverrideField.TITLE,),
          OverrideField.TITLE, _TITLE_DECIDES),
    Queue("old_year", "Year before 1900", "pattern", Q(year__lt=1900), (OverrideField.YEAR,), OverrideField.YEAR,
          _YEAR_DECIDES),
    Queue("arxiv_year", "Year matches an arXiv id prefix", "pattern", Q(arxiv_prefix_year=F("year")),
          (OverrideField.YEAR,), OverrideField.YEAR, _YEAR_DECIDES),
    Queue("index_year", "Index number looks like a year", "pattern",
          Q(reference_index__gte=1900, reference_index__lte=2100), None, OverrideField.YEAR, _ANY_OVERRIDE),
    Queue("no_title", "No title parsed", "pattern", Q(title__isnull=True) | Q(title=""), (OverrideField.TITLE,),
          OverrideField.TITLE, _TITLE_DECIDES),
)
# A count is recomputed on the generation's next bump anyway; this only lets idle entries go.
CACHE_SECONDS = 3600
# A count asked for and not stored by then was lost (its worker died, its message was flushed): ask again.
COUNT_GIVEN_UP_AFTER = timedelta(minutes=10)
ASK_AGAIN_AFTER_REFUSAL = timedelta(minutes=1)
PAPERS_SHOWN = 20
QUEUES_BY_KEY = {queue.key: queue for queue in QUEUES}
# The queues the per-paper table of the queues page counts: the parser's and the identifiers' doubts
# (unresolved alone mostly means the cited work is not in the store).
PAPER_QUEUES = tuple(QUEUES_BY_KEY[key] for key in ("parse_uncertain", "metadata_mismatch", "malformed_identifier"))
# Paper, then reference index: a list reads as the papers print them, identical entries side by side.
QUEUE_ORDER = ("extraction__paper_version__paper__arxiv_id", "extraction__paper_version__version",
               "reference_index", "extraction_id")


def reference_queryset():
    """References as the queues and lists read them: with the citing paper, the current resolution
    (one join), and the title and year the record shows now (an override in force, else as parsed)."""
    in_force = Override.objects.in_force().filter(reference_id=OuterRef("pk"))
    return (
        with_current_resolution(PaperReference.objects.select_related("extraction__paper_version__paper"))
        .annotate(curated=F("current__curated"),
                  shown_title=Coalesce(Subquery(in_force.filter(field=OverrideField.TITLE).values("value_text")[:1]),
                                       F("title")),
                  shown_year=Coalesce(Subquery(in_force.filter(field=OverrideField.YEAR).values("value_year")[:1]),
                                      F("year")),
                  not_a_work=Exists(in_force.filter(field=OverrideField.NOT_A_WORK)),
                  # 1909 for 1909.08053; old-style ids have no such prefix.
                  arxiv_prefix_year=Case(When(arxiv_id__regex=r"^[0-9]{4}\.",
                                              then=Cast(Substr("arxiv_id", 1, 4), IntegerField())),
                                         default=None, output_field=IntegerField()))
    )


@dataclass(frozen=True)
class Counted:
    """The queues' counts as a page shows them: how many references wait in each queue (None before
    the first count), the papers with the most waiting, when they were counted, and whether nothing
    has changed since (else a count is under way in a worker)."""

    counts: dict[str, int] | None
    papers: list[dict]
    counted_at: datetime | None
    current: bool


def counted() -> Counted:
    """The queues' counts for a page. Counting reads every reference, so a page never counts: it reads
    the counts count_queues stored and, when the lists changed since, asks a worker to count again
    (with eager Celery, the embedded default, that count runs here first). A page of an unchanged
    store costs one read of the lists' generation and one of the cache."""
    generation = lists_generation()
    key = f"curation:queue-counts:{generation}"
    found = cache.get(key)
    if found is not None:
        return found
    row = QueueCounts.objects.filter(pk=QueueCounts.ONLY).first()
    if (row is None or row.generation != generation) and _ask_for_a_count(generation):
        row = QueueCounts.objects.filter(pk=QueueCounts.ONLY).first()
    never = row is None or row.counted_at is None
    shown = Counted(counts=None if never else row.counts, papers=[] if never else row.papers,
                    counted_at=None if never else row.counted_at, current=not never and row.generation == generation)
    if shown.current:
        cache.set(key, shown, CACHE_SECONDS)
    return shown


def queue_counts() -> dict[str, int] | None:
    """How many references wait in each queue, as last counted (None before the first count)."""
    return counted().counts


def count_queues() -> dict[str, int]:
    """Count every queue (one statement) and the papers with the most references waiting (one more), and
    store them under the lists' generation read first: a write during the count leaves them older than
    the lists, so the next page asks again. A count that finishes after a newer one stores nothing."""
    generation = lists_generation()
    # still_open() in WHERE, once for every queue: there PostgreSQL can join against the successors
    # once (an anti join) instead of looking each reference's up again in each queue's FILTER.
    open_references = reference_queryset().filter(still_open())
    counts = open_references.aggregate(**{queue.key: Count("pk", filter=queue.undecided()) for queue in QUEUES})
    undecided_in_any = functools.reduce(operator.or_, (queue.undecided() for queue in PAPER_QUEUES))
    papers = list(open_references.filter(undecided_in_any)
                  .values(arxiv=F("extraction__paper_version__paper__arxiv_id"))
                  .annotate(total=Count("pk"), **{queue.key: Count("pk", filter=queue.undecided())
                                                  for queue in PAPER_QUEUES})
                  .order_by("-total", "arxiv")[:PAPERS_SHOWN])
    QueueCounts.objects.get_or_create(pk=QueueCounts.ONLY)
    QueueCounts.objects.filter(pk=QueueCounts.ONLY, generation__lt=generation).update(
        counts=counts, papers=papers, generation=generation, counted_at=timezone.now())
    return counts


def _ask_for_a_count(generation: int) -> bool:
    """Send one count for this generation, unless one asked for earlier is still under way: a store
    written without pause is counted back to back, never by a pile of counts. True once sent."""
    QueueCounts.objects.get_or_create(pk=QueueCounts.ONLY)
    now = timezone.now()
    none_under_way = Q(requested__lt=generation, generation__gte=F("requested"))
    claimed = (QueueCounts.objects.filter(pk=QueueCounts.ONLY)
               .filter(none_under_way | Q(requested_at__lt=now - COUNT_GIVEN_UP_AFTER))
               .update(requested=generation, requested_at=now))
    if not claimed:
        return False
    if send_untracked("curation.count_queues"):
        return True
    # The broker refused it: a page asks again a minute from now, not every page meanwhile (each
    # refusal costs the page the broker's connect timeout).
    QueueCounts.objects.filter(pk=QueueCounts.ONLY, requested=generation).update(
        requested_at=now - COUNT_GIVEN_UP_AFTER + ASK_AGAIN_AFTER_REFUSAL)
    return False


class CachedCountPaginator(Paginator):
    """The admin's paginator with the list's count cached as the queue counts are: a list counts its
    rows once per change of the lists, not on every page turn, unless its count is `known` (a queue's
    whole list: the queue's count). `key` names the rows counted (the list's filters and search)."""

    def __init__(self, *args, key: str, known: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.key, self.known = key, known

    @cached_property
    def count(self) -> int:
        if self.known is not None:
            return self.known
        digest = hashlib.sha256(self.key.encode()).hexdigest()[:32]
        return cached_while_unchanged(f"count:{digest}", self.object_list.count)


def cached_while_unchanged(name: str, compute):
    """compute(), filed under the lists' generation read before it: every write that moves a reference
    in or out of a queue (a resolution, an override, an ingest, a correction of the list) bumps that
    generation in its own transaction (citations/models/generations.py), so the next read recounts.
    A hit costs the one read of the generation instead of a count over every reference."""
    key = f"curation:{name}:{lists_generation()}"
    found = cache.get(key)
    if found is None:
        found = compute()
        cache.set(key, found, CACHE_SECONDS)
    return found

