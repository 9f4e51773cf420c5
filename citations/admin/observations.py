"""Admin for observations (read-only for everyone): papers, links, works, jobs and source syncs.

Observations are never changed through admin: every model here refuses add, change and delete (a
job's one action, requeue, sends its work again through citations/jobs/dispatch.py).
References are curated from their own admin, in the curation app (curation/admin/references.py)."""
from datetime import timedelta

from django.contrib import admin, messages
from django.utils import timezone
from django.utils.text import Truncator

from citations.admin.readonly import ReadOnlyAdmin, ReadOnlyInline
from citations.jobs.dispatch import requeue_job
from citations.models import (
    CitedWork,
    Job,
    JobState,
    Paper,
    PaperReferenceLink,
    PaperSnapshot,
    StandingSourceSync,
    WorkRevision,
)


class SnapshotInline(ReadOnlyInline):
    model = PaperSnapshot
    fields = ("observed_at", "title", "latest_version", "submitted_at", "last_updated", "doi", "source")


@admin.register(Paper)
class PaperAdmin(ReadOnlyAdmin):
    list_display = ("arxiv_id", "first_seen_at")
    search_fields = ("=arxiv_id", "snapshots__title")
    inlines = [SnapshotInline]


@admin.register(PaperReferenceLink)
class PaperReferenceLinkAdmin(ReadOnlyAdmin):
    list_display = ("reference_id", "state", "resolver_source", "cited_paper", "observed_at")
    list_filter = ("state", "resolver_source")
    list_select_related = ("cited_paper",)
    date_hierarchy = "observed_at"


class WorkRevisionInline(ReadOnlyInline):
    """What later sources said of the work (the record shows the newest titled one)."""

    model = WorkRevision
    fields = ("observed_at", "source", "title", "year", "first_author", "container_title", "volume", "first_page")
    ordering = ("-observed_at", "-id")


@admin.register(CitedWork)
class CitedWorkAdmin(ReadOnlyAdmin):
    list_display = ("title", "doi", "arxiv_id", "year", "metadata_source")
    search_fields = ("=doi", "=arxiv_id", "title")
    inlines = [WorkRevisionInline]


@admin.register(Job)
class JobAdmin(ReadOnlyAdmin):
    """Jobs as operators follow them: how each ended, how long it took, why it failed, and a requeue
    (the same as 'manage.py jobs --requeue ID') for the failed and the stuck."""

    list_display = ("id", "kind", "state", "progress_shown", "created_at", "duration", "error_shown")
    list_filter = ("state", "kind")
    search_fields = ("error",)
    actions = ("requeue",)
    readonly_fields = ("kind", "arguments", "state", "total_chunks", "done_chunks", "counts", "created_at",
                       "started_at", "finished_at", "duration", "error", "task_name", "dispatched_at", "dispatches")

    @admin.display(description="progress")
    def progress_shown(self, obj):
        return f"{obj.done_chunks}/{obj.total_chunks} ({obj.progress:.0%})"

    @admin.display(description="duration")
    def duration(self, obj):
        """Started to finished; for a running job, so far; for a queued one, how long it has waited."""
        if obj.started_at is None:
            return f"queued {_span(timezone.now() - obj.created_at)}" if obj.state == JobState.QUEUED else "—"
        if obj.finished_at is None:
            return f"running {_span(timezone.now() - obj.started_at)}"
        return _span(obj.finished_at - obj.started_at)

    @admin.display(description="error")
    def error_shown(self, obj):
        return Truncator(obj.error).chars(160) if obj.error else "—"

    def has_requeue_permission(self, request):
        return request.user.has_perm("citations.add_job")

    @admin.action(description="Requeue the selected jobs (failed or stuck)", permissions=["requeue"])
    def requeue(self, request, queryset):
        for job in queryset.order_by("id"):
            try:
                requeue_job(job_id=job.pk)
            except ValueError as error:
                messages.warning(request, f"Not requeued: {error}.")
            else:
                messages.success(request, f"Job #{job.pk} ({job.kind}) queued again and sent to the workers.")


def _span(delta: timedelta) -> str:
    """A duration as operators read it: 0.4 s, 12 s, 3 min 5 s, 2 h 10 min."""
    seconds = max(delta.total_seconds(), 0)
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes, seconds = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {seconds} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"


@admin.register(StandingSourceSync)
class StandingSourceSyncAdmin(ReadOnlyAdmin):
    """Runs of the standing sources: a failed one changed nothing, and says why here."""

    list_display = ("id", "source", "status", "started_at", "observed_at", "input_name", "error_short")
    list_filter = ("source", "status")
    readonly_fields = ("source", "status", "started_at", "finished_at", "observed_at", "origin", "input_name",
                       "counts", "error")

    @admin.display(description="error")
    def error_short(self, obj):
        return obj.error[:120]

