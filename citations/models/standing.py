"""Standing notices: events from named sources, per-work check receipts, source syncs, citation counts."""
from django.db import models
from django.db.models import Q

from citations.models.papers import Paper
from citations.models.resolution import CitedWork


class EventType(models.TextChoices):
    RETRACTION = "retraction", "retraction"
    PARTIAL_RETRACTION = "partial_retraction", "partial retraction"
    WITHDRAWAL = "withdrawal", "withdrawal"
    REMOVAL = "removal", "removal"
    EXPRESSION_OF_CONCERN = "expression_of_concern", "expression of concern"
    CORRECTION = "correction", "correction"
    ERRATUM = "erratum", "erratum"
    CORRIGENDUM = "corrigendum", "corrigendum"
    ADDENDUM = "addendum", "addendum"
    CLARIFICATION = "clarification", "clarification"
    REINSTATEMENT = "reinstatement", "reinstatement"


class ScholarlyWorkEvent(models.Model):
    """A notice about a work (retraction, correction, ...) as one named source states it, as of a sync.

    Rows are revisions: a source revising its record adds a row for the same (source,
    source_record_id) at that sync's time; the older row is kept for the receipts that found it
    (citations/standing/revisions.py).
    """

    source = models.CharField(max_length=32)
    source_record_id = models.CharField(max_length=255, help_text="The source's own id for the row or relation.")
    event_type = models.CharField(max_length=32, choices=EventType.choices)
    subject_doi = models.CharField(max_length=255, help_text="DOI of the work the notice is about, lower case.")
    notice_doi = models.CharField(max_length=255, null=True, blank=True, help_text="DOI of the notice, lower case.")
    occurred_on = models.DateField(null=True, blank=True, help_text="Date of the notice, as the source gives it.")
    reason = models.TextField(blank=True, default="")
    observed_at = models.DateTimeField(help_text="When Pith read this revision from the source.")

    class Meta:
        db_table = "scholarly_work_events"
        constraints = [
            # One revision per record and sync; also the index behind the newest revision as of a time.
            models.UniqueConstraint(fields=["source", "source_record_id", "observed_at"],
                                    name="event_revision_once_per_time"),
            models.CheckConstraint(condition=Q(event_type__in=EventType.values), name="event_type_is_known"),
        ]
        indexes = [
            # One-hop checks: the events of a source about one DOI.
            models.Index(fields=["subject_doi", "source"], name="event_by_subject_doi"),
        ]

    def __str__(self) -> str:
        return f"{self.event_type} of {self.subject_doi} ({self.source})"


class RetractionStatusReceipt(models.Model):
    """A dated receipt: this work was checked against this source at this time and these events were found.

    A failed lookup writes no receipt, so it can never read as "no event".
    """

    work = models.ForeignKey(CitedWork, on_delete=models.PROTECT, related_name="receipts")
    source = models.CharField(max_length=32)
    observed_at = models.DateTimeField()
    found_events = models.ManyToManyField(ScholarlyWorkEvent, blank=True, related_name="receipts",
                                          through="ReceiptEvent")

    class Meta:
        db_table = "retraction_status_cache"
        constraints = [
            # Also the index behind the record's newest-receipt-per-source lookup.
            models.UniqueConstraint(fields=["work", "source", "observed_at"], name="receipt_once_per_check"),
        ]

    def __str__(self) -> str:
        return f"{self.work_id} checked against {self.source} @ {self.observed_at:%Y-%m-%d %H:%M}"


class ReceiptEvent(models.Model):
    """An event a check found: the receipt's own list, so a later sync does not rewrite an older receipt."""

    receipt = models.ForeignKey(RetractionStatusReceipt, on_delete=models.CASCADE)
    event = models.ForeignKey(ScholarlyWorkEvent, on_delete=models.PROTECT)

    class Meta:
        db_table = "retraction_status_cache_events"
        constraints = [models.UniqueConstraint(fields=["receipt", "event"], name="receipt_event_once")]


class SyncStatus(models.TextChoices):
    RUNNING = "running", "running"
    SUCCEEDED = "succeeded", "succeeded"
    FAILED = "failed", "failed"


class StandingSourceSync(models.Model):
    """One synchronisation of a standing source; the record names the newest succeeded one per source."""

    source = models.CharField(max_length=32)
    status = models.CharField(max_length=16, choices=SyncStatus.choices)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    observed_at = models.DateTimeField(null=True, blank=True, help_text="The time the source is synchronised as of.")
    origin = models.CharField(max_length=32, default="job", help_text="job, or record_import.")
    input_name = models.CharField(max_length=500, blank=True, default="")
    counts = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True, default="")

    class Meta:
        db_table = "standing_source_syncs"
        constraints = [
            models.CheckConstraint(condition=Q(status__in=SyncStatus.values), name="sync_status_is_known"),
            models.CheckConstraint(condition=~Q(status="succeeded") | Q(observed_at__isnull=False),
                                   name="succeeded_sync_has_time"),
            models.UniqueConstraint(fields=["source", "observed_at"], condition=Q(status="succeeded"),
                                    name="one_succeeded_sync_per_source_time"),
        ]
        indexes = [
            # standing_sources of a record: newest succeeded sync per source as of a time.
            models.Index(fields=["source", "status", "observed_at"], name="sync_newest_per_source"),
        ]

    def __str__(self) -> str:
        return f"{self.source} sync {self.status} @ {self.started_at:%Y-%m-%d %H:%M}"


class CitationMeasurement(models.Model):
    """An external, source-named, dated citation count of a paper's own work. Never summed across sources."""

    paper = models.ForeignKey(Paper, on_delete=models.PROTECT, related_name="citation_measurements")
    source = models.CharField(max_length=40)
    count = models.PositiveIntegerField()
    observed_at = models.DateTimeField()
    # When Pith learnt it, if after observed_at: a record as of a time before that was already
    # published without it, so it shows from recorded_at on (a count is always imported after it
    # was measured). Null: shown from observed_at (a record read back restores what was published).
    recorded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "external_citation_measurements"
        constraints = [
            models.UniqueConstraint(fields=["paper", "source", "observed_at"], name="measurement_once_per_time"),
            models.CheckConstraint(condition=models.Q(recorded_at__isnull=True)
                                   | models.Q(recorded_at__gt=models.F("observed_at")),
                                   name="measurement_recorded_after_observed"),
        ]

    def __str__(self) -> str:
        return f"{self.paper}: {self.count} by {self.source}"
