"""The filters of the reference list: queue, citing paper, state and curation."""
from django.contrib import admin
from django.db.models import Count, Q

from citations.models.references import REFERENCE_SOURCES
from citations.records.presentation import STATE_LABELS
from curation.queues import QUEUES, QUEUES_BY_KEY, Counted, counted


def counted_for(request) -> Counted:
    """The queues' counts, read once a request: the filter, the list's count and its heading agree."""
    if not hasattr(request, "queue_counts"):
        request.queue_counts = counted()
    return request.queue_counts


class QueueFilter(admin.SimpleListFilter):
    """The curation queues: what still waits for a decision (see Queue)."""

    title = "waiting in queue"
    parameter_name = "queue"

    def lookups(self, request, model_admin):
        counts = counted_for(request).counts        # as last counted: no count over the references here
        if counts is None:
            return [(queue.key, queue.label) for queue in QUEUES]
        return [(queue.key, f"{queue.label} ({counts[queue.key]:,})") for queue in QUEUES]

    def queryset(self, request, queryset):
        queue = QUEUES_BY_KEY.get(self.value())
        if queue is None:
            return queryset
        shown = counted_for(request)
        if shown.current and shown.counts[queue.key] == 0:
            # Counted empty since the last change: no walk over every reference to find nothing.
            return queryset.none()
        return queryset.filter(queue.waiting())

    def get_facet_counts(self, pk_attname, filtered_qs):
        # One conditional count per queue, instead of Django's "pk IN (the queue)" per choice.
        return {f"{i}__c": Count(pk_attname, filter=queue.waiting()) for i, queue in enumerate(QUEUES)}


class PaperFilter(admin.SimpleListFilter):
    """One citing paper's references: the per-paper links of the queues page. Shown only when chosen
    (the search box takes an arXiv id otherwise)."""

    title = "citing paper"
    parameter_name = "paper"

    def lookups(self, request, model_admin):
        value = request.GET.get(self.parameter_name)
        return [(value, f"arXiv:{value}")] if value else []

    def queryset(self, request, queryset):
        return queryset.filter(extraction__paper_version__paper__arxiv_id=self.value()) if self.value() else queryset

    def get_facet_counts(self, pk_attname, filtered_qs):
        return {f"{i}__c": Count(pk_attname, filter=Q(extraction__paper_version__paper__arxiv_id=value))
                for i, (value, _) in enumerate(self.lookup_choices)}


class StateFilter(admin.SimpleListFilter):
    """Every reference in a state now, decided or not (the queues leave out the decided ones)."""

    title = "current state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return list(STATE_LABELS.items())

    def queryset(self, request, queryset):
        return queryset.filter(current__state=self.value()) if self.value() else queryset


class SourceFilter(admin.SimpleListFilter):
    """Where the reference list came from. Its choices are the known sources, not Django's DISTINCT
    over every reference on each page."""

    title = "list source"
    parameter_name = "source"

    def lookups(self, request, model_admin):
        return [(source, source) for source in REFERENCE_SOURCES]

    def queryset(self, request, queryset):
        return queryset.filter(extraction__source=self.value()) if self.value() else queryset


class CuratedFilter(admin.SimpleListFilter):
    title = "curation"
    parameter_name = "curated"

    def lookups(self, request, model_admin):
        return [("yes", "Has an override in force"), ("no", "No override in force")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(current__curated=True)
        if self.value() == "no":
            return queryset.filter(current__curated=False)
        return queryset
