"""Curation's one table of its own: the queues' counts as last counted. Its audit entries are
citations.models.Override rows (the record reads them), written only by curation/services.py and
curation/segmentation.py."""
from django.db import models


class QueueCounts(models.Model):
    """How many references waited in each queue when they were last counted, and the papers with the
    most waiting: one row, written only by curation.queues.count_queues. Counting reads every
    reference, so it runs in a worker after the lists change and curators' pages read this row."""

    ONLY = 1

    id = models.PositiveSmallIntegerField(primary_key=True, default=ONLY)
    counts = models.JSONField(default=dict, help_text="queue key -> references waiting")
    papers = models.JSONField(default=list, help_text="the papers with the most references waiting")
    generation = models.BigIntegerField(default=-1, help_text="the lists' generation the counts were taken at")
    counted_at = models.DateTimeField(null=True)
    requested = models.BigIntegerField(default=-1, help_text="the newest generation a count was asked for")
    requested_at = models.DateTimeField(null=True)

    class Meta:
        db_table = "curation_queue_counts"
        verbose_name_plural = "queue counts"

    def __str__(self) -> str:
        return f"queue counts at generation {self.generation}"
