"""Admin for observations (read-only for everyone) and the curators' reference queues.

Observations are never changed through admin: every model here refuses add, change and delete.
Curators act on a reference from its page, through curation/services.py, which writes the audit
entry; bulk actions do the same per item.
"""
import functools
import operator
from dataclasses import dataclass
from urllib.parse import urlencode

from django.contrib import admin, messages
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import FieldDoesNotExist, PermissionDenied
from django.db.models import Case, Count, DateTimeField, Exists, F, IntegerField, OuterRef, Q, Subquery, When
from django.db.models.functions import Cast, Coalesce, Substr
from django.http import Http404, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import Truncator

from citations.models import (CitedWork, Job, Paper, PaperReference, PaperReferenceLink, PaperSnapshot, StandingSourceSync,
                              WorkRevision)
from citations.models.resolution import LINKING_STATES, with_current_resolution
from citations.records.presentation import STATE_LABELS
from citations.resolution.matching import best_similarity
from citations.resolution.store import DatabaseStore
from citations.resolution.text import title_blocking_keys
from citations.validation import EARLIEST, LATEST
from curation.forms import BulkReasonForm, OverrideForm, ReasonForm, SplitForm
from curation.models import Override, OverrideField
from curation.segmentation import correction_of, join_with_next, split_reference, successors
from curation.services import (
    OverrideRefused,
    active_overrides,
    apply_override,
    can_curate,
    entry_summary,
    link_label,
    revision_of,
    withdraw_override,
)

class RefuseUnsafeLookups:
    """Changelists filter on any local field from the query string (?raw_text__regex=...): a
    pattern the database cannot compile fails only when the page is rendered, as a 500. No link
    of the admin makes a regex lookup, so refuse them all (Django answers 400). The same for a
    year outside the one range of stored times (citations/validation.py): Django computes the
    bounds of ?created_at__year=99999 (or of the date hierarchy's 9999-12) and overflows."""

    def lookup_allowed(self, lookup, value, request=None):
        last = lookup.split("__")[-1]
        if last in ("regex", "iregex"):
            return False
        if last in ("year", "iso_year") and not _is_stored_year(value):
            return False
        return super().lookup_allowed(lookup, value, request)


def _is_stored_year(value) -> bool:
    try:
        return EARLIEST.year <= int(str(value).strip()) < LATEST.year
    except ValueError:
        return False


def zoned(value) -> str:
    """A stored time to the minute, with its zone; the exact value on hover."""
    if value is None:
        return "—"
    local = timezone.localtime(value)
    return format_html('<time datetime="{}" title="{}">{} {}</time>', value.isoformat(), local.isoformat(),
                       f"{local:%Y-%m-%d %H:%M}", local.tzname())


@functools.cache
def _zoned_column(model, name):
    """The column (or read-only field) of a model's time, shown with its zone; any other name as it is.
    One callable per field, so the list, the fields and the read-only fields name the same one."""
    if not isinstance(name, str):
        return name
    try:
        field = model._meta.get_field(name)
    except FieldDoesNotExist:
        return name
    if not isinstance(field, DateTimeField):
        return name

    def column(obj):
        return zoned(getattr(obj, name))

    column.__name__ = name
    column.short_description = field.verbose_name
    column.admin_order_field = name
    return column


class ZonedTimes:
    """Times with their zone: Django's admin writes "Aug. 4, 2026, 5:12 p.m." and no zone, which a
    curator or operator elsewhere misreads."""

    def get_list_display(self, request):
        return [_zoned_column(self.model, name) for name in super().get_list_display(request)]

    def get_fields(self, request, obj=None):
        return [_zoned_column(self.model, name) for name in super().get_fields(request, obj)]

    def get_readonly_fields(self, request, obj=None):
        return [_zoned_column(self.model, name) for name in super().get_readonly_fields(request, obj)]


class ReadOnlyAdmin(RefuseUnsafeLookups, ZonedTimes, admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


# --- the queues -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Queue:
    """References waiting for one kind of decision.

    `members` is what puts a reference in the queue: its current state (the materialised current
    resolution) or what the parser read. A member leaves it once decided: marked not a scholarly work,
    resolved to a verified state, or given an override in force for a field in `decided_by` (None:
    any override in force, the `curated` flag of the current resolution). The observation itself
    never changes, so a queue that asked only the parsed values would never empty."""

    key: str
    label: str
    kind: str                                   # "state" or "pattern": how the queues page groups them
    members: Q
    decided_by: tuple[str, ...] | None
    field: str                                  # the field the override form opens on
    takes_out: str                              # in words, for the queues page

    def waiting(self) -> Q:
        """Members still waiting for a decision."""
        # A reference a curator cut anew (split, joined, or carried into the corrected list) is
        # decided here: its successor in the corrected list waits in its place.
        waiting = (self.members & ~Q(current__state__in=LINKING_STATES)
                   & ~Exists(PaperReference.objects.filter(derived_from=OuterRef("pk"))))
        if self.decided_by is None:
            return waiting & Q(current__curated=False)
        deciding = Override.objects.in_force().filter(
            reference_id=OuterRef("pk"), field__in=(*self.decided_by, OverrideField.NOT_A_WORK))
        return waiting & ~Exists(deciding)


_ANY_OVERRIDE = "any override in force, or a verified link"
_TITLE_DECIDES = "a title override, not a work, or a verified link"
_YEAR_DECIDES = "a year override, not a work, or a verified link"
QUEUES = (
    Queue("parse_uncertain", STATE_LABELS["parse_uncertain"], "state", Q(current__state="parse_uncertain"), None,
          OverrideField.TITLE, _ANY_OVERRIDE),
    Queue("metadata_mismatch", STATE_LABELS["metadata_mismatch"], "state", Q(current__state="metadata_mismatch"),
          None, OverrideField.LINK, _ANY_OVERRIDE),
    Queue("malformed_identifier", STATE_LABELS["malformed_identifier"], "state",
          Q(current__state="malformed_identifier"), None, OverrideField.LINK, _ANY_OVERRIDE),
    Queue("unresolved", STATE_LABELS["unresolved"], "state", Q(current__state="unresolved"), None,
          OverrideField.LINK, _ANY_OVERRIDE),
    # Plain regex that PostgreSQL and SQLite read alike (no \b: PostgreSQL spells it \y).
    Queue("access_date", "Title is an access date", "pattern",
          Q(title__iregex=r"^ *(\[?online\]?[;,]? *)?(accessed|retrieved)([^a-z]|$)"), (OverrideField.TITLE,),
          OverrideField.TITLE, _TITLE_DECIDES),
    Queue("old_year", "Year before 1900", "pattern", Q(year__lt=1900), (OverrideField.YEAR,), OverrideField.YEAR,
          _YEAR_DECIDES),
    Queue("arxiv_year", "Year matches an arXiv id prefix", "pattern", Q(arxiv_prefix_year=F("year")),
          (OverrideField.YEAR,), OverrideField.YEAR, _YEAR_DECIDES),
    Queue("index_year", "Index number looks like a year", "pattern",
          Q(reference_index__gte=1900, reference_index__lte=2100), None, OverrideField.YEAR, _ANY_OVERRIDE),
    Queue("no_title", "No title parsed", "pattern", Q(title__isnull=True) | Q(title=""), (OverrideField.TITLE,),
          OverrideField.TITLE, _TITLE_DECIDES),
)
QUEUES_BY_KEY = {queue.key: queue for queue in QUEUES}
# The queues the per-paper table of the queues page counts: the parser's and the identifiers' doubts
# (unresolved alone mostly means the cited work is not in the store).
PAPER_QUEUES = tuple(QUEUES_BY_KEY[key] for key in ("parse_uncertain", "metadata_mismatch", "malformed_identifier"))
# Paper, then reference index: a list reads as the papers print them, identical entries side by side.
QUEUE_ORDER = ("extraction__paper_version__paper__arxiv_id", "extraction__paper_version__version",
               "reference_index", "extraction_id")


def reference_queryset():
    """References as the queues and lists read them: with the citing paper, the current resolution
    (one join), and the title and year the record shows now (an override in force, else as parsed)."""
    in_force = Override.objects.in_force().filter(reference_id=OuterRef("pk"))
    return (
        with_current_resolution(PaperReference.objects.select_related("extraction__paper_version__paper"))
        .annotate(curated=F("current__curated"),
                  shown_title=Coalesce(Subquery(in_force.filter(field=OverrideField.TITLE).values("value_text")[:1]),
                                       F("title")),
                  shown_year=Coalesce(Subquery(in_force.filter(field=OverrideField.YEAR).values("value_year")[:1]),
                                      F("year")),
                  not_a_work=Exists(in_force.filter(field=OverrideField.NOT_A_WORK)),
                  # 1909 for 1909.08053; old-style ids have no such prefix.
                  arxiv_prefix_year=Case(When(arxiv_id__regex=r"^[0-9]{4}\.",
                                              then=Cast(Substr("arxiv_id", 1, 4), IntegerField())),
                                         default=None, output_field=IntegerField()))
    )


def queue_counts() -> dict[str, int]:
    """How many references wait in each queue: one statement for all of them."""
    return reference_queryset().aggregate(**{queue.key: Count("pk", filter=queue.waiting()) for queue in QUEUES})


def reference_label(reference: PaperReference) -> str:
    """A reference as curators name it: "arXiv:2509.11076 [5]"."""
    return f"arXiv:{reference.extraction.paper_version.paper.arxiv_id} [{reference.reference_index}]"


def arxiv_links(arxiv_id: str, version: int) -> str:
    """The citing version on arXiv: its abstract page and its PDF."""
    return format_html('<a href="https://arxiv.org/abs/{0}v{1}">arXiv:{0}v{1}</a> '
                       '(<a href="https://arxiv.org/pdf/{0}v{1}">PDF</a>)', arxiv_id, version)


class QueueFilter(admin.SimpleListFilter):
    """The curation queues: what still waits for a decision (see Queue)."""

    title = "waiting in queue"
    parameter_name = "queue"

    def lookups(self, request, model_admin):
        return [(queue.key, queue.label) for queue in QUEUES]

    def queryset(self, request, queryset):
        queue = QUEUES_BY_KEY.get(self.value())
        return queryset.filter(queue.waiting()) if queue else queryset

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


@admin.register(PaperReference)
class PaperReferenceAdmin(ReadOnlyAdmin):
    """The curation queues (filters, with counts) and, per reference, the page curators work from."""

    list_display = ("index_shown", "citing", "title_shown", "raw_shown", "year_shown", "state_label", "curated_mark")
    list_display_links = ("index_shown", "title_shown")
    list_filter = (QueueFilter, PaperFilter, StateFilter, CuratedFilter, "extraction__source")
    search_fields = ("raw_text", "title", "=extraction__paper_version__paper__arxiv_id")
    search_help_text = "Search the reference text and title, or give an arXiv id for its references."
    show_facets = admin.ShowFacets.ALWAYS
    ordering = QUEUE_ORDER
    list_per_page = 50
    actions = ("mark_not_a_work", "re_resolve")
    change_form_template = "admin/citations/paperreference/curate.html"
    change_list_template = "admin/citations/paperreference/change_list.html"
    fields = ("id", "citing", "reference_index", "raw_text", "title", "year", "authors", "venue", "arxiv_id", "doi",
              "identifiers", "parser", "observed_at")
    readonly_fields = fields

    def get_queryset(self, request):
        return reference_queryset()

    def get_object(self, request, object_id, from_field=None):
        # Django's own answer to a malformed or unknown id is a redirect to the admin index;
        # here it is the 404 page, as for the reference pages below.
        reference = super().get_object(request, object_id, from_field)
        if reference is None:
            raise Http404("there is no such reference observation")
        return reference

    @admin.display(description="ref.", ordering="reference_index")
    def index_shown(self, obj):
        return f"[{obj.reference_index}]"

    @admin.display(description="citing paper", ordering="extraction__paper_version__paper__arxiv_id")
    def citing(self, obj):
        version = obj.extraction.paper_version
        return arxiv_links(version.paper.arxiv_id, version.version)

    @admin.display(description="title (shown now)")
    def title_shown(self, obj):
        if obj.not_a_work:
            return format_html("{} <em>(not a work)</em>", obj.shown_title or "—")
        return obj.shown_title or "—"

    @admin.display(description="raw text")
    def raw_shown(self, obj):
        return Truncator(obj.raw_text).chars(160) if obj.raw_text else "—"

    @admin.display(description="year", ordering="year")
    def year_shown(self, obj):
        return "—" if obj.shown_year is None else obj.shown_year

    @admin.display(description="state", ordering="current__state")
    def state_label(self, obj):
        return STATE_LABELS.get(obj.current_state, obj.current_state)

    @admin.display(description="curated", boolean=True)
    def curated_mark(self, obj):
        return obj.curated

    def changelist_view(self, request, extra_context=None):
        # The queue and the paper chosen, in words above the list, beside the filters that chose them.
        extra_context = {**(extra_context or {}), "queue": QUEUES_BY_KEY.get(request.GET.get("queue")),
                         "paper": request.GET.get("paper")}
        return super().changelist_view(request, extra_context)

    # --- the reference page -----------------------------------------------------------------------

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("<uuid:object_id>/override/", wrap(self.override_view), name="citations_paperreference_override"),
            path("<uuid:object_id>/withdraw/<int:override_id>/", wrap(self.withdraw_view),
                 name="citations_paperreference_withdraw"),
            path("<uuid:object_id>/split/", wrap(self.split_view), name="citations_paperreference_split"),
            path("<uuid:object_id>/join/", wrap(self.join_view), name="citations_paperreference_join"),
            path("queues/", wrap(self.queues_view), name="citations_paperreference_queues"),
        ] + super().get_urls()

    def change_view(self, request, object_id, form_url="", extra_context=None):
        reference = self.get_object(request, object_id)
        if not self.has_view_or_change_permission(request, reference):
            raise PermissionDenied
        extra_context = {**(extra_context or {}), **self._curation_context(request, reference)}
        return super().change_view(request, object_id, form_url, extra_context)

    @staticmethod
    def _came_from(request) -> Queue | None:
        """The queue the curator opened this reference from (Django keeps the list's filters)."""
        return QUEUES_BY_KEY.get(QueryDict(request.GET.get("_changelist_filters", "")).get("queue"))

    def _curation_context(self, request, reference) -> dict:
        revision = revision_of(reference.pk)
        current = active_overrides(reference_ids=[reference.pk]).get(reference.pk, {})
        title = current.get("title", reference.title)
        links = list(reference.links.select_related("cited_paper", "cited_work").order_by("-observed_at", "-id"))
        version = reference.extraction.paper_version
        same_list = reference_queryset().filter(extraction_id=reference.extraction_id)
        queue = self._came_from(request)
        field = request.GET.get("field")
        if field not in (OverrideField.TITLE, OverrideField.YEAR, OverrideField.LINK):
            field = queue.field if queue else OverrideField.TITLE
        context = {
            "reference": reference,
            "label": reference_label(reference),
            # Segmentation: what replaced this list, or what this curated list corrects.
            "correction": correction_of(reference.extraction_id),
            "successors": successors(reference),
            "derived_from": reference.derived_from,
            "has_next": PaperReference.objects.filter(extraction_id=reference.extraction_id).filter(
                Q(reference_index__gt=reference.reference_index)
                | Q(reference_index=reference.reference_index, pk__gt=reference.pk)).exists(),
            "split_form": SplitForm(initial={"revision": revision}),
            "citing_links": arxiv_links(version.paper.arxiv_id, version.version),
            "citing_title": PaperSnapshot.objects.filter(paper_id=version.paper_id).newest_first()
                            .values_list("title", flat=True).first(),
            "neighbours": list(same_list.filter(reference_index__in=(reference.reference_index - 1,
                                                                      reference.reference_index + 1))),
            # Identical entries ("Accessed: 2025-06" three times in one list): their indexes.
            "same_title": list(same_list.filter(title=reference.title).exclude(pk=reference.pk)
                               .values_list("reference_index", flat=True)) if reference.title else [],
            "can_curate": can_curate(request.user),
            "revision": revision,
            "effective": {"title": title, "year": current.get("year", reference.year),
                          "not_a_work": current.get("not_a_work", False)},
            "in_force": {entry.field: entry for entry in Override.objects.in_force().filter(reference=reference)
                         .select_related("curator", "link_paper", "link_work")},
            "history": links,
            "current_link": link_label(paper=links[0].cited_paper, work=links[0].cited_work) if links else "nothing",
            "audit": Override.objects.filter(reference=reference).select_related("curator", "link_paper", "link_work"),
            "candidates": _candidates(title),
            "override_form": OverrideForm(initial={"revision": revision, "field": field}),
            "reason_form": ReasonForm(initial={"revision": revision}),
            "record_url": f"/paper/{version.paper.arxiv_id}/citation-record#obs-{reference.pk}",
            "queue": queue,
            # Links to other references keep the list the curator came from (its queue and paper).
            "keep_filters": (f"?{urlencode({'_changelist_filters': request.GET['_changelist_filters']})}"
                             if request.GET.get("_changelist_filters") else ""),
        }
        if queue:
            waiting = self.get_queryset(request).filter(queue.waiting())
            context["queue_waiting"] = waiting.count()
            # The next one after this in the list's order (paper, version, index), else the first.
            here = (version.paper.arxiv_id, version.version, reference.reference_index)
            after = (Q(extraction__paper_version__paper__arxiv_id__gt=here[0])
                     | Q(extraction__paper_version__paper__arxiv_id=here[0], extraction__paper_version__version__gt=here[1])
                     | Q(extraction__paper_version__paper__arxiv_id=here[0], extraction__paper_version__version=here[1],
                         reference_index__gt=here[2]))
            others = waiting.exclude(pk=reference.pk).order_by(*QUEUE_ORDER)
            context["queue_next"] = others.filter(after).first() or others.first()
        return context

    @staticmethod
    def _back(request, object_id) -> str:
        """The reference's page again, with the list's filters the curator came with."""
        url = reverse("admin:citations_paperreference_change", args=[object_id])
        preserved = request.GET.get("_changelist_filters")
        return f"{url}?{urlencode({'_changelist_filters': preserved})}" if preserved else url

    def _posted_to(self, request, object_id, *, denied: str) -> tuple[PaperReference, str]:
        """The reference a curator's form is posted to, and its page to go back to; 403 for anyone else."""
        if not can_curate(request.user):
            raise PermissionDenied(denied)
        reference = get_object_or_404(PaperReference.objects.select_related("extraction__paper_version__paper"),
                                      pk=object_id)
        return reference, self._back(request, reference.pk)

    def override_view(self, request, object_id):
        reference, back = self._posted_to(request, object_id, denied="Only curators can override references.")
        if request.method != "POST":
            return HttpResponseRedirect(back)
        data = request.POST
        form = (OverrideForm if data.get("field") in (OverrideField.TITLE, OverrideField.YEAR, OverrideField.LINK)
                else ReasonForm)(data)
        if not form.is_valid():
            messages.error(request, f"Not saved ({reference_label(reference)}): " + "; ".join(
                f"{k}: {' '.join(v)}" for k, v in form.errors.items()))
            return HttpResponseRedirect(back)
        field = data.get("field") if data.get("field") in OverrideField.values else OverrideField.NOT_A_WORK
        value = form.cleaned_data.get("value") if field != OverrideField.NOT_A_WORK else True
        try:
            entry = apply_override(reference_id=reference.pk, field=field, value=value,
                                   reason=form.cleaned_data["reason"], curator=request.user,
                                   expected_revision=form.cleaned_data["revision"])
        except OverrideRefused as error:
            messages.error(request, f"Not saved ({reference_label(reference)}): {' '.join(error.messages)}")
            return HttpResponseRedirect(back)
        messages.success(request, format_html(
            "Saved: {} of {}: {} (audit entry <a href=\"{}\">#{}</a>). The reference is being resolved again.",
            entry.get_field_display(), reference_label(reference), entry_summary(entry), entry.get_absolute_url(),
            entry.pk))
        return HttpResponseRedirect(back)

    def withdraw_view(self, request, object_id, override_id):
        reference, back = self._posted_to(request, object_id, denied="Only curators can withdraw overrides.")
        if request.method != "POST":
            return HttpResponseRedirect(back)
        form = ReasonForm(request.POST)
        if not form.is_valid():
            messages.error(request, f"Not withdrawn ({reference_label(reference)}): a reason is required.")
            return HttpResponseRedirect(back)
        if not Override.objects.filter(pk=override_id, reference_id=reference.pk).exists():
            messages.error(request, f"Not withdrawn: #{override_id} is no entry of {reference_label(reference)}.")
            return HttpResponseRedirect(back)
        try:
            entry = withdraw_override(override_id=override_id, reason=form.cleaned_data["reason"],
                                      curator=request.user, expected_revision=form.cleaned_data["revision"])
        except OverrideRefused as error:
            messages.error(request, f"Not withdrawn ({reference_label(reference)}): {' '.join(error.messages)}")
            return HttpResponseRedirect(back)
        messages.success(request, format_html("Withdrawn from {}: #{} (audit entry <a href=\"{}\">#{}</a>); the "
                                              "observed value shows again.", reference_label(reference),
                                              entry.withdraws_id, entry.get_absolute_url(), entry.pk))
        return HttpResponseRedirect(back)

    def split_view(self, request, object_id):
        return self._segmentation_view(request, object_id, split=True)

    def join_view(self, request, object_id):
        return self._segmentation_view(request, object_id, split=False)

    def _segmentation_view(self, request, object_id, *, split: bool):
        reference, back = self._posted_to(request, object_id,
                                          denied="Only curators can correct how a reference list is cut.")
        if request.method != "POST":
            return HttpResponseRedirect(back)
        form = (SplitForm if split else ReasonForm)(request.POST)
        what = "Not split" if split else "Not joined"
        if not form.is_valid():
            messages.error(request, f"{what} ({reference_label(reference)}): " + "; ".join(
                f"{k}: {' '.join(v)}" for k, v in form.errors.items()))
            return HttpResponseRedirect(back)
        arguments = {"reference_id": reference.pk, "reason": form.cleaned_data["reason"], "curator": request.user,
                     "expected_revision": form.cleaned_data["revision"]}
        try:
            entry = (split_reference(before=form.cleaned_data["before"], **arguments) if split
                     else join_with_next(**arguments))
        except OverrideRefused as error:
            messages.error(request, f"{what} ({reference_label(reference)}): {' '.join(error.messages)}")
            return HttpResponseRedirect(back)
        done = (f"split in two, [{entry.parts[0].reference_index}] and [{entry.parts[1].reference_index}]" if split
                else f"joined with the next one into [{entry.parts[0].reference_index}]")
        left = ""
        if entry.not_carried:
            left = (" Not carried over, as they were about the text before the cut: "
                    + ", ".join(f"#{e.pk} ({e.get_field_display()})" for e in entry.not_carried) + ".")
        messages.success(request, format_html(
            "Saved: {} {} in a corrected list (audit entry <a href=\"{}\">#{}</a>); the other references were "
            "carried over with their resolutions and overrides, and the new ones are being resolved.{}",
            reference_label(reference), done, entry.get_absolute_url(), entry.pk, left))
        return HttpResponseRedirect(self._back(request, entry.parts[0].pk))

    def queue_rows(self) -> list[dict]:
        """Every queue with its count and its list's address (one statement)."""
        counts = queue_counts()
        changelist = reverse("admin:citations_paperreference_changelist")
        return [{"queue": queue, "count": counts[queue.key], "url": f"{changelist}?queue={queue.key}"}
                for queue in QUEUES]

    def queues_view(self, request):
        """Counts of every queue, and the papers with the most references waiting."""
        # The same permission as the queues themselves (the changelist): curators have it.
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        changelist = reverse("admin:citations_paperreference_changelist")
        waiting_in_any = functools.reduce(operator.or_, (queue.waiting() for queue in PAPER_QUEUES))
        papers = list(reference_queryset().filter(waiting_in_any)
                      .values(arxiv=F("extraction__paper_version__paper__arxiv_id"))
                      .annotate(total=Count("pk"), **{queue.key: Count("pk", filter=queue.waiting())
                                                      for queue in PAPER_QUEUES})
                      .order_by("-total", "arxiv")[:20])
        titles = {}
        for arxiv_id, title in (PaperSnapshot.objects.filter(paper__arxiv_id__in=[row["arxiv"] for row in papers])
                                .order_by("paper_id", "observed_at", "revision")
                                .values_list("paper__arxiv_id", "title")):
            titles[arxiv_id] = title or titles.get(arxiv_id)          # the newest title a snapshot gives
        for row in papers:
            row["title"] = titles.get(row["arxiv"])
            row["url"] = f"{changelist}?paper={row['arxiv']}"
            row["cells"] = [(row[queue.key], f"{changelist}?queue={queue.key}&paper={row['arxiv']}")
                            for queue in PAPER_QUEUES]
        rows = self.queue_rows()
        return TemplateResponse(request, "admin/citations/paperreference/queues.html", {
            **self.admin_site.each_context(request), "title": "Curation queues",
            "states": [row for row in rows if row["queue"].kind == "state"],
            "patterns": [row for row in rows if row["queue"].kind == "pattern"],
            "paper_queues": PAPER_QUEUES, "papers": papers, "changelist": changelist, "opts": self.model._meta,
        })

    # --- bulk actions, audited per item -----------------------------------------------------------

    @admin.action(description="Mark selected as not a scholarly work")
    def mark_not_a_work(self, request, queryset):
        if not can_curate(request.user):
            messages.error(request, "Only curators can mark references.")
            return None
        if "apply" in request.POST:
            form = BulkReasonForm(request.POST)
            if form.is_valid():
                done, refused = [], []
                for reference in queryset:
                    try:
                        apply_override(reference_id=reference.pk, field=OverrideField.NOT_A_WORK, value=True,
                                       reason=form.cleaned_data["reason"], curator=request.user,
                                       expected_revision=revision_of(reference.pk))
                        done.append(reference_label(reference))
                    except OverrideRefused as error:
                        refused.append(f"{reference_label(reference)}: {' '.join(error.messages)}")
                if done:
                    more = f" and {len(done) - 10} more" if len(done) > 10 else ""
                    messages.success(request, f"Marked {len(done)} reference(s) as not a scholarly work, each with "
                                              f"its own audit entry: {', '.join(done[:10])}{more}.")
                for line in refused:
                    messages.warning(request, f"Not marked: {line}")
                return None
        else:
            form = BulkReasonForm()
        return TemplateResponse(request, "admin/citations/paperreference/bulk_reason.html", {
            **self.admin_site.each_context(request), "title": "Mark as not a scholarly work",
            "queryset": queryset, "form": form, "action": "mark_not_a_work", "opts": self.model._meta,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            # The list the curator chose from, as it was (its filters are in the address).
            "cancel_url": request.get_full_path(),
        })

    @admin.action(description="Resolve selected again")
    def re_resolve(self, request, queryset):
        from citations.jobs.dispatch import dispatch_task

        if not can_curate(request.user):
            messages.error(request, "Only curators can ask for re-resolution.")
            return
        references = list(queryset)
        content_type = ContentType.objects.get_for_model(PaperReference)
        LogEntry.objects.bulk_create([
            LogEntry(user_id=request.user.pk, content_type=content_type, object_id=str(reference.pk),
                     object_repr=reference_label(reference), action_flag=CHANGE,
                     change_message="Re-resolution requested", action_time=timezone.now())
            for reference in references
        ])
        job = dispatch_task("curation.re_resolve_references", args=[[str(reference.pk) for reference in references]])
        messages.success(request, f"{len(references)} reference(s) queued for resolution as job #{job.pk}; "
                                  "each request is in their history.")


def _candidates(title: str | None, limit: int = 5) -> list[dict]:
    """Held papers whose titles the resolver would consider, with their scores."""
    if not title:
        return []
    store = DatabaseStore()
    found = store.by_title_keys(title_blocking_keys(title))
    scored = sorted(((best_similarity(title, c.titles), c) for c in found if c.titles), key=lambda p: -p[0])
    return [{"arxiv_id": c.arxiv_id, "label": c.label, "title": c.titles[0], "years": c.years,
             "similarity": round(score, 3), "work_id": c.work_id} for score, c in scored[:limit]]


def _index_with_curation_queues(request, extra_context=None):
    """The admin home, with the curation queues first for those who may read them (README: "start there")."""
    extra_context = dict(extra_context or {})
    references = admin.site._registry.get(PaperReference)
    if references is not None and references.has_view_or_change_permission(request):
        extra_context["curation_queues"] = references.queue_rows()
        extra_context["curation_queues_url"] = reverse("admin:citations_paperreference_queues")
    return _django_index(request, extra_context)


class ReadOnlyInline(admin.TabularInline):
    """Observations shown under the row they belong to: every field read-only, none added or deleted."""

    extra = 0
    can_delete = False

    def get_readonly_fields(self, request, obj=None):
        return self.fields

    def has_add_permission(self, request, obj=None):
        return False


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


def _refuse_unsafe_lookups_in_installed_admins() -> None:
    """Admins of the apps installed before this one (users, groups, API tokens): the same refusal,
    without redefining them."""
    for model, model_admin in list(admin.site._registry.items()):
        if not isinstance(model_admin, RefuseUnsafeLookups):
            cls = type(model_admin)
            admin.site.unregister(model)
            admin.site.register(model, type(cls.__name__, (RefuseUnsafeLookups, cls), {"__module__": cls.__module__}))


_refuse_unsafe_lookups_in_installed_admins()

# The admin home lists the queues (templates/admin/index.html). AdminSite.get_urls() routes to
# self.index when the URLconf loads, after every admin module is imported: this is what it routes to.
_django_index = admin.site.index
admin.site.index = _index_with_curation_queues
# Lists need their width at 1280 px (the filters take a column already); the home page and the
# breadcrumbs lead to every model the sidebar listed.
admin.site.enable_nav_sidebar = False
