"""Background jobs as operators see them: what runs, how far it got, what it found, how it ended."""
from django.db import models, transaction
from django.db.models import F, Q
from django.utils import timezone

from citations.models.generations import jobs_changed


class JobState(models.TextChoices):
    QUEUED = "queued", "queued"
    RUNNING = "running", "running"
    SUCCEEDED = "succeeded", "succeeded"
    FAILED = "failed", "failed"


APPS = ("citations.", "curation.")


def job_kind(name: str) -> str:
    """The kind of job a task or a command is, one way for all: its name without the app that
    defines it ("citations.resolve_waiting_for_works" -> "resolve_waiting_for_works", like "resolve")."""
    for app in APPS:
        if name.startswith(app):
            return name[len(app):]
    return name


class JobQuerySet(models.QuerySet):
    """Writes of jobs that tell the jobs list's cache, in the writer's transaction (as Job.save does),
    so an operator's next look at /api/v1/jobs/ shows them."""

    def update(self, **kwargs):
        with transaction.atomic(savepoint=False):
            changed = super().update(**kwargs)
            if changed:
                jobs_changed()
        return changed

    def bulk_create(self, objs, *args, **kwargs):
        with transaction.atomic(savepoint=False):
            created = super().bulk_create(objs, *args, **kwargs)
            if created:
                jobs_changed()
        return created

    def fail(self, error: str) -> int:
        """Fail these jobs with the error an operator reads, unless one already succeeded."""
        return self.exclude(state=JobState.SUCCEEDED).update(state=JobState.FAILED, finished_at=timezone.now(),
                                                              error=error[:2000])

    def delete(self):
        with transaction.atomic(savepoint=False):
            deleted = super().delete()
            if deleted[0]:
                jobs_changed()
        return deleted


class Job(models.Model):
    """One run of a background job (a resolution over papers, a source sync...), split in chunks."""

    kind = models.CharField(max_length=40)
    arguments = models.JSONField(default=dict, blank=True)
    state = models.CharField(max_length=16, choices=JobState.choices, default=JobState.QUEUED)
    total_chunks = models.PositiveIntegerField(default=0)
    done_chunks = models.PositiveIntegerField(default=0)
    counts = models.JSONField(default=dict, blank=True, help_text="What the job found, summed over its chunks.")
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    celery_task_id = models.CharField(max_length=64, null=True, blank=True, unique=True,
                                      help_text="The Celery task this job is, for single-task jobs.")
    # The durable half of dispatch (citations/jobs/dispatch.py): what to send, and whether it was sent.
    task_name = models.CharField(max_length=80, blank=True, default="",
                                 help_text="The Celery task a single-task job sends; chunked jobs send their chunks.")
    dispatched_at = models.DateTimeField(null=True, blank=True,
                                         help_text="When the broker last accepted this job's message; empty: not yet.")
    dispatches = models.PositiveIntegerField(default=0, help_text="Messages sent for this job (re-sends included).")

    objects = JobQuerySet.as_manager()

    class Meta:
        db_table = "jobs"
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(state__in=JobState.values), name="job_state_is_known"),
            models.CheckConstraint(condition=Q(done_chunks__lte=F("total_chunks")), name="job_done_within_total"),
            models.CheckConstraint(condition=Q(started_at__isnull=True) | Q(started_at__gte=F("created_at")),
                                   name="job_starts_after_created"),
            models.CheckConstraint(condition=~Q(kind__startswith=APPS[0]) & ~Q(kind__startswith=APPS[1]),
                                   name="job_kind_without_app"),
        ]
        indexes = [models.Index(fields=["state", "created_at"], name="job_by_state")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.state}, {self.done_chunks}/{self.total_chunks})"

    def save(self, *args, **kwargs):
        # Made no later than it starts: a job made as it starts (a command's) was given its start
        # time before its creation time was taken, a few microseconds apart.
        if self.started_at is not None and self.created_at is not None and self.started_at < self.created_at:
            self.created_at = self.started_at
        with transaction.atomic(savepoint=False):
            super().save(*args, **kwargs)
            jobs_changed()

    def delete(self, *args, **kwargs):
        with transaction.atomic(savepoint=False):
            deleted = super().delete(*args, **kwargs)
            jobs_changed()
        return deleted

    @property
    def progress(self) -> float:
        return self.done_chunks / self.total_chunks if self.total_chunks else (1.0 if self.state == "succeeded" else 0.0)


class JobChunk(models.Model):
    """A unit of a job's work. Done exactly once: a redelivered chunk may run again, but only the
    run that flips it to done adds its counts to the job (see complete()).

    A chunk whose work is made of several transactions notes, in each of them, what that part did
    and how far the chunk got (add_progress()): a run after a lost worker goes on from there, and
    the counts it completes with cover every run, each part once, not only the last run."""

    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    payload = models.JSONField(default=dict)
    done = models.BooleanField(default=False)
    attempts = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    counts = models.JSONField(default=dict, blank=True)
    dispatched_at = models.DateTimeField(null=True, blank=True, help_text="When the broker last accepted this chunk.")
    dispatches = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "job_chunks"
        constraints = [models.UniqueConstraint(fields=["job", "index"], name="job_chunk_once")]

    def claim(self) -> bool:
        """Start (or restart, after a lost worker) this chunk; False when it is already done."""
        claimed = JobChunk.objects.filter(pk=self.pk, done=False).update(
            attempts=F("attempts") + 1, started_at=timezone.now())
        if claimed:
            Job.objects.filter(pk=self.job_id, state=JobState.QUEUED).update(state=JobState.RUNNING,
                                                                             started_at=timezone.now())
        return bool(claimed)

    def add_progress(self, counts: dict, *, through) -> None:
        """In the transaction of the part of the work it counts: that part's counts added to what the
        chunk's runs did so far, and through, where the part ended (its last id, in the order the
        chunk's work is done)."""
        so_far = (JobChunk.objects.select_for_update().filter(pk=self.pk, done=False)
                  .values_list("counts", flat=True).first())
        if so_far is None:
            return                  # done by another delivery meanwhile: its counts stand
        JobChunk.objects.filter(pk=self.pk).update(counts={
            "so_far": merge_counts(so_far.get("so_far", {}), counts), "through": through})

    def progress(self) -> tuple[object, dict]:
        """(where the earlier runs got to, or None, and what they did) of a chunk not done yet."""
        stored = JobChunk.objects.filter(pk=self.pk).values_list("counts", flat=True).first() or {}
        return stored.get("through"), stored.get("so_far", {})

    def complete(self, counts: dict) -> bool:
        """Mark done and add the counts to the job, once; True for the run that did it."""
        now = timezone.now()
        with transaction.atomic():
            if not JobChunk.objects.filter(pk=self.pk, done=False).update(done=True, finished_at=now, counts=counts):
                return False
            job = Job.objects.select_for_update().get(pk=self.job_id)
            job.counts = merge_counts(job.counts, counts)
            job.done_chunks += 1
            fields = ["counts", "done_chunks"]
            if job.done_chunks == job.total_chunks:
                job.state, job.finished_at = JobState.SUCCEEDED, now
                fields += ["state", "finished_at"]
            job.save(update_fields=fields)
        return True


def merge_counts(a: dict, b: dict) -> dict:
    """Counts added key by key, nested dicts included."""
    merged = dict(a)
    for key, value in b.items():
        if isinstance(value, dict):
            merged[key] = merge_counts(merged.get(key, {}), value)
        else:
            merged[key] = merged.get(key, 0) + value
    return merged
