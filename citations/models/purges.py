"""The one way observations leave the store: an operator's audited purge (a takedown)."""
from django.conf import settings
from django.db import models
from django.utils import timezone


class ObservationPurge(models.Model):
    """An audit entry: who removed which observations, why, when, and how many rows of each kind.

    Observation tables are append-only on PostgreSQL (triggers refuse UPDATE, DELETE and
    TRUNCATE). A purge (citations/purge.py) is the documented exception: it writes this entry
    first, with its transaction's id, and the triggers let rows be deleted only in a transaction
    that has written one. This table is append-only itself.
    """

    arxiv_id = models.CharField(max_length=40, help_text="The citing paper whose reference lists were removed.")
    versions = models.JSONField(default=list, help_text="The versions purged; empty: every version.")
    reason = models.TextField()
    operator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    counts = models.JSONField(default=dict, help_text="Rows removed, by table.")
    transaction_id = models.BigIntegerField(null=True, blank=True, editable=False,
                                            help_text="PostgreSQL's id of the purge's transaction (txid_current()).")

    class Meta:
        db_table = "observation_purges"
        ordering = ["-created_at"]
        constraints = [models.CheckConstraint(condition=~models.Q(reason=""), name="purge_has_reason")]

    def __str__(self) -> str:
        return f"purge of arXiv:{self.arxiv_id} references ({self.created_at:%Y-%m-%d %H:%M})"
