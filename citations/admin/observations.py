"""Admin for observations (read-only for everyone): papers, links, works, jobs and source syncs.

Observations are never changed through admin: every model here refuses add, change and delete.
References are curated from their own admin, in the curation app (curation/admin/references.py)."""
from django.contrib import admin

from citations.admin.readonly import ReadOnlyAdmin, ReadOnlyInline
from citations.models import CitedWork, Job, Paper, PaperReferenceLink, PaperSnapshot, StandingSourceSync, WorkRevision


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
    list_display = ("id", "kind", "state", "progress_shown", "created_at", "finished_at")
    list_filter = ("kind", "state")
    readonly_fields = ("kind", "arguments", "state", "total_chunks", "done_chunks", "counts", "created_at",
                       "started_at", "finished_at", "error")

    @admin.display(description="progress")
    def progress_shown(self, obj):
        return f"{obj.done_chunks}/{obj.total_chunks} ({obj.progress:.0%})"


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

