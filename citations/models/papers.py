"""Papers held in the store, their versions, and dated snapshots of their arXiv metadata."""
from django.db import models
from django.utils import timezone

from citations.time_rules import SnapshotQuerySet


class Paper(models.Model):
    """An arXiv paper, by identity only; what is known of it lives in dated snapshots."""

    arxiv_id = models.CharField(max_length=40, unique=True, help_text="Canonical arXiv id, no version.")
    first_seen_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "papers"
        ordering = ["arxiv_id"]

    def __str__(self) -> str:
        return f"arXiv:{self.arxiv_id}"


class PaperSnapshot(models.Model):
    """The arXiv metadata of a paper as observed at one time.

    Append-only: a new metadata snapshot is a new row. A record built as of T
    shows, for every paper it names, the newest snapshot observed by T; this is
    what lets both seed records round-trip although they name one paper
    (arXiv:1604.06174) as snapshotted on two different days.
    """

    paper = models.ForeignKey(Paper, on_delete=models.PROTECT, related_name="snapshots")
    observed_at = models.DateTimeField()
    title = models.TextField(null=True, blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True, help_text="Creation time of version 1.")
    last_updated = models.DateTimeField(null=True, blank=True, help_text="Creation time of the newest version.")
    latest_version = models.PositiveSmallIntegerField(null=True, blank=True)
    primary_category = models.CharField(max_length=64, null=True, blank=True)
    categories = models.CharField(max_length=500, blank=True, default="")
    authors = models.TextField(blank=True, default="")
    doi = models.CharField(max_length=255, null=True, blank=True)
    journal_ref = models.TextField(null=True, blank=True)
    abstract = models.TextField(blank=True, default="", db_default="", help_text="As arXiv's metadata gives it (TeX markup kept); "
                                "not part of the v1 record.")
    source = models.CharField(max_length=32, help_text="arxiv_metadata, or record_import for a snapshot read from a v1 record.")
    # A later record may know more of the same snapshot (fields the first one left null). That is
    # a new row, a revision, recorded at the later record's as_of: the first row is never changed,
    # so a record built as of a time before the completion shows exactly what it showed then.
    revision = models.PositiveSmallIntegerField(default=0, help_text="0 as first read; n for its n-th completion.")
    recorded_at = models.DateTimeField(null=True, blank=True,
                                       help_text="For a completion: from when records show it (null: from observed_at).")

    objects = SnapshotQuerySet.as_manager()

    class Meta:
        db_table = "paper_snapshots"
        constraints = [
            # Also the index behind the record's newest-snapshot-as-of lookups (citations/records/statements.py).
            models.UniqueConstraint(fields=["paper", "observed_at", "revision"], name="paper_snapshot_once_per_revision"),
            models.CheckConstraint(condition=models.Q(latest_version__gte=1) | models.Q(latest_version__isnull=True),
                                   name="paper_snapshot_version_positive"),
        ]
        indexes = [
            # DatabaseStore: a reference naming a paper's journal DOI.
            models.Index(fields=["doi"], name="paper_snapshot_by_doi", condition=models.Q(doi__isnull=False)),
        ]
        ordering = ["paper", "observed_at", "revision"]

    def __str__(self) -> str:
        return f"{self.paper} as of {self.observed_at:%Y-%m-%d %H:%M}" + (f" (rev. {self.revision})" if self.revision else "")


class PaperVersion(models.Model):
    """One version (v1, v2, ...) of a paper; a citing version owns a reference list."""

    paper = models.ForeignKey(Paper, on_delete=models.PROTECT, related_name="versions")
    version = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(null=True, blank=True, help_text="When arXiv received this version, if known.")

    class Meta:
        db_table = "paper_versions"
        constraints = [
            models.UniqueConstraint(fields=["paper", "version"], name="paper_version_unique"),
            models.CheckConstraint(condition=models.Q(version__gte=1), name="paper_version_positive"),
        ]
        ordering = ["paper", "version"]

    def __str__(self) -> str:
        return f"{self.paper}v{self.version}"
