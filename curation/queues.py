"""The curation queues: references waiting for one kind of decision, and how each leaves its queue."""
import hashlib
from dataclasses import dataclass

from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import Case, Count, Exists, F, IntegerField, OuterRef, Q, Subquery, When
from django.db.models.functions import Cast, Coalesce, Substr
from django.utils.functional import cached_property

from citations.models import Override, OverrideField, PaperReference
from citations.models.generations import lists_generation
from citations.models.resolution import LINKING_STATES, with_current_resolution
from citations.records.presentation import STATE_LABELS


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
        # A reference a curator cut anew (split, joined, or carried into the corrected list) is
        # decided here: its successor in the corrected list waits in its place.
        waiting = (self.members & ~Q(current__state__in=LINKING_STATES)
                   & ~Exists(PaperReference.objects.filter(derived_from=OuterRef("pk"))))
        if self.decided_by is None:
            return waiting & Q(current__curated=False)
        deciding = Override.objects.in_force().filter(
            reference_id=OuterRef("pk"), field__in=(*self.decided_by, OverrideField.NOT_A_WORK, OverrideField.CHECKED))
        return waiting & ~Exists(deciding)


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


def queue_counts() -> dict[str, int]:
    """How many references wait in each queue: one statement for all of them, read again only after
    a write that changes what the lists show (see cached_while_unchanged)."""
    return cached_while_unchanged("queue-counts", lambda: reference_queryset().aggregate(
        **{queue.key: Count("pk", filter=queue.waiting()) for queue in QUEUES}))


class CachedCountPaginator(Paginator):
    """The admin's paginator with the list's count cached as the queue counts are: a queue's list
    counts its members once per change of the lists, not on every page turn. `key` names the rows
    counted (the list's filters and search)."""

    def __init__(self, *args, key: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.key = key

    @cached_property
    def count(self) -> int:
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

