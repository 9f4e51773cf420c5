"""The rules of time every reader of the log applies, each said once: as the SQL fragment the record
and the materialised tables use, beside the QuerySet verb that says the same for the ORM
(tests/test_time_rules.py checks that each pair picks the same rows).

Observations are append-only and dated: nothing is ever updated, so "what was true as of T" is always
"the newest observation dated at or before T", with a tie-break that makes it one row.

- A reference's link as of T: the greatest observed_at by T, then the greatest id.
- A paper's metadata snapshot as of T: the greatest observed_at by T, then the greatest revision
  (a completion of the same snapshot, shown only from when it was recorded: recorded_at by T).
- An override in force as of T: for its reference and field, the newest entry (greatest id) created
  by T is a `set` of a value field (title, year, not a work, link); a newer `withdraw` ends it. A
  split or a join is an event that wrote a corrected list, never a value in force.
- A plausible year: from 1600 to next year, as of now.

SQL fragments take the cutoff as SQL text (a placeholder such as "%(cutoff)s" or "%s"), and the
aliases of the rows they correlate with.
"""
from django.db import models
from django.db.models import Exists, OuterRef, Q, Subquery
from django.utils import timezone

EARLIEST_YEAR = 1600
# The override fields that hold a value in force (a split or a join is an event, not a value).
VALUE_FIELDS = ("title", "year", "not_a_work", "link", "checked", "index")


def latest_plausible_year() -> int:
    """The latest year a reference, a title or a curator may give a work: next year (in press)."""
    return timezone.now().year + 1


def is_plausible_year(year: int) -> bool:
    """A year a work may have been published in, as of now."""
    return EARLIEST_YEAR <= year <= latest_plausible_year()


# --- links ----------------------------------------------------------------------------------------


def newest_link_sql(reference: str, cutoff: str) -> str:
    """The id of the reference's newest link observed by the cutoff (NULL when none)."""
    return f"""(SELECT l2.id FROM paper_reference_links l2
    WHERE l2.reference_id = {reference} AND l2.observed_at <= {cutoff} ORDER BY l2.observed_at DESC, l2.id DESC LIMIT 1)"""


class LinkQuerySet(models.QuerySet):
    def current(self, cutoff):
        """Only each reference's newest link observed by the cutoff: the resolution a record shows."""
        newest = (self.model.objects.filter(reference_id=OuterRef("reference_id"), observed_at__lte=cutoff)
                  .order_by("-observed_at", "-id").values("id")[:1])
        return self.filter(observed_at__lte=cutoff, id=Subquery(newest))


# --- snapshots ------------------------------------------------------------------------------------


def snapshot_known_sql(alias: str, cutoff: str) -> str:
    """The snapshot row (or completion) was known by the cutoff."""
    return f"({alias}.recorded_at IS NULL OR {alias}.recorded_at <= {cutoff})"


def newest_snapshot_sql(paper: str, cutoff: str) -> str:
    """The id of the paper's newest metadata snapshot known by the cutoff (NULL when none)."""
    return f"""(SELECT s2.id FROM paper_snapshots s2
    WHERE s2.paper_id = {paper} AND s2.observed_at <= {cutoff} AND {snapshot_known_sql("s2", cutoff)}
    ORDER BY s2.observed_at DESC, s2.revision DESC LIMIT 1)"""


class SnapshotQuerySet(models.QuerySet):
    def newest_first(self):
        """Newest observation first, and of one observation its newest completion."""
        return self.order_by("-observed_at", "-revision")

    def known_by(self, cutoff):
        """Snapshots observed by the cutoff, completions only once they were recorded."""
        return self.filter(Q(recorded_at__isnull=True) | Q(recorded_at__lte=cutoff), observed_at__lte=cutoff)


# --- overrides ------------------------------------------------------------------------------------


def override_in_force_sql(alias: str, cutoff: str | None = None) -> str:
    """The override row `alias` is in force (as of the cutoff; None: now)."""
    def created(table: str) -> str:
        return "" if cutoff is None else f" AND {table}.created_at <= {cutoff}"

    fields = ", ".join(f"'{field}'" for field in VALUE_FIELDS)
    return (f"""{alias}.action = 'set' AND {alias}.field IN ({fields}){created(alias)}
    AND NOT EXISTS (SELECT 1 FROM curation_overrides n WHERE n.reference_id = {alias}.reference_id
                    AND n.field = {alias}.field AND n.id > {alias}.id{created("n")})""")


class OverrideQuerySet(models.QuerySet):
    def in_force(self, as_of=None):
        """Set entries that are the newest entry for their reference and field (as of a time; None: now)."""
        newer = self.model.objects.filter(reference_id=OuterRef("reference_id"), field=OuterRef("field"),
                                          id__gt=OuterRef("id"))
        entries = self.filter(action="set", field__in=VALUE_FIELDS)
        if as_of is not None:
            newer, entries = newer.filter(created_at__lte=as_of), entries.filter(created_at__lte=as_of)
        return entries.exclude(Exists(newer))
