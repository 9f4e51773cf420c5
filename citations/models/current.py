"""The current resolution of each reference, materialised for lists and filters.

`paper_reference_links` is the truth: append-only, every resolution ever made. What the API lists
and the admin queues ask ("references now unresolved", "now citing this paper", "changed since T")
is a question about the newest link of each reference; asked of the log it is a correlated
subquery per row, and a filter on it reads every link of the store. This table holds the answer
for each reference, one row each, written in the same transaction as the link that changes it
(citations/current/resolutions.py) and rebuilt from the log by `manage.py rebuild_current_resolutions`.
It is not an observation: nothing reads it for a record (records are built as of a time, from the
log), so it may be rewritten in place.
"""
from django.db import models
from django.db.models import Q

from citations.models.papers import Paper
from citations.models.references import PaperReference
from citations.models.resolution import CitedWork, PaperReferenceLink, ResolutionState


class CurrentResolution(models.Model):
    reference = models.OneToOneField(PaperReference, primary_key=True, on_delete=models.CASCADE,
                                     related_name="current")
    link = models.ForeignKey(PaperReferenceLink, on_delete=models.DO_NOTHING, related_name="+", db_constraint=False)
    state = models.CharField(max_length=24, choices=ResolutionState.choices)
    resolver_source = models.CharField(max_length=40, null=True, blank=True)
    cited_paper = models.ForeignKey(Paper, on_delete=models.DO_NOTHING, null=True, blank=True, related_name="+",
                                    db_constraint=False, db_index=False)
    cited_work = models.ForeignKey(CitedWork, on_delete=models.DO_NOTHING, null=True, blank=True, related_name="+",
                                   db_constraint=False, db_index=False)
    resolved_at = models.DateTimeField(help_text="The link's observation time.")
    # Copies of the reference's own (never changing) columns, so each filter and its order are one index.
    citing_paper = models.ForeignKey(Paper, on_delete=models.DO_NOTHING, related_name="+", db_constraint=False,
                                     db_index=False)
    source = models.CharField(max_length=32)
    observed_at = models.DateTimeField(help_text="The reference's observation time.")
    reference_index = models.IntegerField()
    doi = models.CharField(max_length=255, null=True, blank=True)
    curated = models.BooleanField(default=False, help_text="A curator's override is in force.")
    changed_at = models.DateTimeField(help_text="When Pith wrote the change: the order of the changes feed.")

    class Meta:
        db_table = "reference_current_resolutions"
        indexes = [
            # Each list order and filter of /api/v1/observations/ is one of these, read in order.
            models.Index(fields=["observed_at", "reference"], name="current_in_time_order"),
            models.Index(fields=["state", "observed_at", "reference"], name="current_by_state"),
            models.Index(fields=["citing_paper", "observed_at", "reference"], name="current_by_citing"),
            models.Index(fields=["citing_paper", "reference_index", "reference"], name="current_in_list_order"),
            models.Index(fields=["cited_paper", "observed_at", "reference"], name="current_by_cited",
                         condition=Q(cited_paper__isnull=False)),
            models.Index(fields=["cited_work", "observed_at", "reference"], name="current_by_work",
                         condition=Q(cited_work__isnull=False)),
            models.Index(fields=["doi", "observed_at", "reference"], name="current_by_doi",
                         condition=Q(doi__isnull=False)),
            models.Index(fields=["observed_at", "reference"], name="current_curated",
                         condition=Q(curated=True)),
            models.Index(fields=["changed_at", "reference"], name="current_changes_feed"),
        ]

    def __str__(self) -> str:
        return f"{self.reference_id}: {self.state}"


class PaperCurrent(models.Model):
    """Each held paper's newest metadata snapshot and newest reference list, materialised for lists.

    `paper_snapshots` and `reference_extractions` are the truth (append-only); the papers list, the
    home page and search ask "each paper's newest snapshot", which asked of the log is a correlated
    subquery per row and per field. This row holds the answer, written in the same transaction as the
    snapshot or list that changes it (citations/current/papers.py) and rebuilt from the log by
    `manage.py rebuild_current_resolutions`. Records never read it (they are built as of a time).
    """

    paper = models.OneToOneField(Paper, primary_key=True, on_delete=models.CASCADE, related_name="current")
    snapshot = models.OneToOneField("citations.PaperSnapshot", null=True, on_delete=models.DO_NOTHING,
                                    related_name="current_of", db_constraint=False)
    reference_list = models.ForeignKey("citations.ReferenceExtraction", null=True, on_delete=models.DO_NOTHING,
                                       related_name="+", db_constraint=False, db_index=False,
                                       help_text="The record's outbound list: newest list of the highest version.")
    changed_at = models.DateTimeField()

    class Meta:
        db_table = "paper_current"
        indexes = [models.Index(fields=["paper"], name="paper_current_with_list",
                                condition=Q(reference_list__isnull=False))]

    def __str__(self) -> str:
        return f"{self.paper_id}: snapshot {self.snapshot_id}, list {self.reference_list_id}"
