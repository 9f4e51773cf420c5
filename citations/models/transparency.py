"""The transparency log of the observation store (citations/transparency/ appends to it and serves it).

A writer of observations notes what it wrote in `log_pending`, in its own transaction: one small row
per write, never a leaf, so a writer never waits on the log. The sequencer (publish_checkpoint,
every minute) takes pending rows in id order, appends one leaf per observation to `log_leaves` at
the next index, builds the tiles and signs a checkpoint into `log_checkpoints`. Leaf indexes are
given by the sequencer alone, so writers that commit out of id order never leave a gap.
"""
from django.conf import settings
from django.db import models


class LeafKind(models.TextChoices):
    REFERENCE = "reference", "reference observation (paper_references)"
    LINK = "link", "resolution link (paper_reference_links)"
    WORK = "work", "a work as first written (cited_works)"
    WORK_REVISION = "work_revision", "a later statement of a work (work_revisions)"
    SNAPSHOT = "snapshot", "a paper's metadata snapshot (paper_snapshots)"
    STANDING_EVENT = "standing_event", "a standing event (scholarly_work_events)"
    RECEIPT = "receipt", "a standing check receipt and the events it found (retraction_status_cache)"
    MEASUREMENT = "measurement", "an external citation measurement (external_citation_measurements)"
    OVERRIDE = "override", "a curator's override entry, set or withdraw (curation_overrides)"
    WORK_IDENTIFIER = "work_identifier", "an identifier a source asserted of a work (work_identifiers)"


class LogPending(models.Model):
    """Observations written and not yet in the log: the ids of the rows of one kind one write stored."""

    id = models.BigAutoField(primary_key=True)
    kind = models.CharField(max_length=16, choices=LeafKind.choices, default=LeafKind.LINK,
                            help_text="A link brings its reference; the other kinds are logged alone.")
    ids = models.JSONField(help_text="The rows' ids, in the order written.")

    class Meta:
        db_table = "log_pending"


def note_written(kind: str, ids) -> None:
    """Queue these just-written rows for the log, in the writer's own transaction: one row per write,
    ids only, so a writer pays one small INSERT whatever it wrote (the sequencer reads the rows)."""
    ids = list(ids)
    if ids and settings.LOG_OBSERVATIONS:
        LogPending.objects.create(kind=kind, ids=ids)


class LogLeaf(models.Model):
    """One entry of the log: an observation's entry bytes as the sequencer read its row, at its index."""

    leaf_index = models.BigIntegerField(primary_key=True)
    kind = models.CharField(max_length=16, choices=LeafKind.choices)
    observation = models.CharField(max_length=64, help_text="The row's id: a reference's UUID, a link's number.")
    entry = models.BinaryField(help_text="The leaf's canonical JSON (citations/transparency/entries.py).")
    logged_at = models.DateTimeField()

    class Meta:
        db_table = "log_leaves"
        constraints = [
            # An observation is logged once; the proofs of a record find its leaf by it.
            models.UniqueConstraint(fields=["observation", "kind"], name="observation_logged_once"),
        ]


class LogCheckpoint(models.Model):
    """A signed checkpoint (C2SP tlog-checkpoint in a signed note), as published."""

    size = models.BigIntegerField(unique=True)
    root_hash = models.BinaryField()
    published_at = models.DateTimeField()
    note = models.TextField()

    class Meta:
        db_table = "log_checkpoints"
        indexes = [
            # A record's proofs: the first checkpoint published at or after its as_of.
            models.Index(fields=["published_at"], name="checkpoint_by_time"),
        ]
