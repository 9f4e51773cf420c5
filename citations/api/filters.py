"""django-filter sets of API v1. Every value is bound as a query parameter: nothing reaches SQL as text."""
import django_filters as filters

from citations.models import CitedWork, CurrentResolution, Job, ResolutionState, ScholarlyWorkEvent
from citations.models.jobs import job_kind
from citations.standing.revisions import newest_as_of


class ObservationFilter(filters.FilterSet):
    """Filters over reference_current_resolutions; each one with the list's order is one index
    (citations/models/current.py), so a page is an index read whatever the store's size."""

    citing_paper = filters.CharFilter(field_name="citing_paper__arxiv_id", help_text="arXiv id of the citing paper.")
    cited_paper = filters.CharFilter(field_name="cited_paper__arxiv_id", help_text="arXiv id of the held paper the "
                                                                                   "newest resolution names.")
    cited_work = filters.UUIDFilter(field_name="cited_work_id", help_text="The canonical work the newest "
                                                                          "resolution names.")
    doi = filters.CharFilter(field_name="doi", method="filter_lower", help_text="The DOI the reference prints.")
    state = filters.ChoiceFilter(field_name="state", choices=ResolutionState.choices)
    year = filters.NumberFilter(field_name="reference__year")
    year_min = filters.NumberFilter(field_name="reference__year", lookup_expr="gte")
    year_max = filters.NumberFilter(field_name="reference__year", lookup_expr="lte")
    source = filters.CharFilter(field_name="source")
    has_override = filters.BooleanFilter(field_name="curated")

    class Meta:
        model = CurrentResolution
        fields = ["citing_paper", "cited_paper", "cited_work", "doi", "state", "year", "year_min", "year_max",
                  "source", "has_override"]

    def filter_lower(self, queryset, name, value):
        return queryset.filter(**{name: value.strip().lower()})


class ChangeFilter(filters.FilterSet):
    since = filters.IsoDateTimeFilter(field_name="changed_at", lookup_expr="gt",
                                      help_text="Only observations whose record-visible state changed after this time.")

    class Meta:
        model = CurrentResolution
        fields = ["since"]


class CitedWorkFilter(filters.FilterSet):
    doi = filters.CharFilter(field_name="doi", method="filter_doi")
    arxiv_id = filters.CharFilter(field_name="arxiv_id")
    metadata_source = filters.CharFilter(field_name="metadata_source")

    class Meta:
        model = CitedWork
        fields = ["doi", "arxiv_id", "metadata_source"]

    def filter_doi(self, queryset, name, value):
        return queryset.filter(doi=value.strip().lower())


class StandingEventFilter(filters.FilterSet):
    subject_doi = filters.CharFilter(method="filter_lower")
    notice_doi = filters.CharFilter(method="filter_lower")
    event_type = filters.CharFilter(field_name="event_type")
    source = filters.CharFilter(field_name="source")
    revisions = filters.ChoiceFilter(
        choices=[("newest", "the newest revision of each source record"), ("all", "every revision")],
        method="filter_revisions", empty_label=None,
        help_text="newest (default): what each source now says; all: every revision as it was observed.")

    class Meta:
        model = ScholarlyWorkEvent
        fields = ["subject_doi", "notice_doi", "event_type", "source", "revisions"]

    def filter_queryset(self, queryset):
        # Here, not in the filter's method (which runs only when revisions= is given): by default a
        # revised record appears once, as the source now states it.
        queryset = super().filter_queryset(queryset)
        if self.form.cleaned_data.get("revisions") != "all":
            queryset = newest_as_of(queryset)
        return queryset

    def filter_revisions(self, queryset, name, value):
        return queryset                      # applied in filter_queryset, the default included

    def filter_lower(self, queryset, name, value):
        return queryset.filter(**{name: value.strip().lower()})


class JobFilter(filters.FilterSet):
    # A kind as jobs were once named too ("citations.check_standing" finds "check_standing").
    kind = filters.CharFilter(method="of_kind", help_text="The kind of job: resolve, check_standing, import_works...")

    # Declared once (filterset_fields would build a new FilterSet class on every request).
    class Meta:
        model = Job
        fields = ["kind", "state"]

    def of_kind(self, queryset, name, value):
        return queryset.filter(kind=job_kind(value))
