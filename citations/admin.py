"""Admin for observations (read-only for everyone) and the curators' reference queues.

Observations are never changed through admin: every model here refuses add, change and delete.
Curators act on a reference from its page, through curation/services.py, which writes the audit
entry; bulk actions do the same per item.
"""
from django.contrib import admin, messages
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.db.models import Case, Count, Exists, F, IntegerField, OuterRef, Q, When
from django.db.models.functions import Cast, Substr
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from citations.models import CitedWork, Job, Paper, PaperReference, PaperReferenceLink, PaperSnapshot, StandingSourceSync
from citations.models.resolution import with_current_resolution
from citations.presentation import STATE_LABELS
from citations.resolution.matching import best_similarity
from citations.resolution.store import DatabaseStore
from citations.resolution.text import title_blocking_keys
from citations.validation import EARLIEST, LATEST
from curation.forms import BulkReasonForm, OverrideForm, ReasonForm
from curation.models import Override, OverrideField
from curation.services import (
    OverrideRefused,
    active_overrides,
    apply_override,
    can_curate,
    revision_of,
    withdraw_override,
)

QUEUE_STATES = ("parse_uncertain", "metadata_mismatch", "malformed_identifier", "unresolved")


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


class ReadOnlyAdmin(RefuseUnsafeLookups, admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class StateFilter(admin.SimpleListFilter):
    title = "current state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [(state, STATE_LABELS[state]) for state in QUEUE_STATES + ("verified_exact", "verified_fuzzy")]

    def queryset(self, request, queryset):
        return queryset.filter(current_state=self.value()) if self.value() else queryset


class SuspiciousFilter(admin.SimpleListFilter):
    """Misparse patterns curators fix most: each a queue of its own."""

    title = "suspicious pattern"
    parameter_name = "pattern"
    PATTERNS = {
        # Plain regex that PostgreSQL and SQLite read alike (no \b: PostgreSQL spells it \y).
        "access_date": ("Title is an access date",
                        Q(title__iregex=r"^ *(\[?online\]?[;,]? *)?(accessed|retrieved)([^a-z]|$)")),
        "old_year": ("Year before 1900", Q(year__lt=1900)),
        "arxiv_year": ("Year matches an arXiv id prefix", Q(arxiv_prefix_year=F("year"))),
        "index_year": ("Index number looks like a year", Q(reference_index__gte=1900, reference_index__lte=2100)),
        "no_title": ("No title parsed", Q(title__isnull=True) | Q(title="")),
    }

    def lookups(self, request, model_admin):
        return [(key, label) for key, (label, _) in self.PATTERNS.items()]

    def queryset(self, request, queryset):
        if self.value() in self.PATTERNS:
            return queryset.filter(self.PATTERNS[self.value()][1])
        return queryset


class CuratedFilter(admin.SimpleListFilter):
    title = "curation"
    parameter_name = "curated"

    def lookups(self, request, model_admin):
        return [("yes", "Has an override in force"), ("no", "No override in force")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(curated=True)
        if self.value() == "no":
            return queryset.filter(curated=False)
        return queryset


@admin.register(PaperReference)
class PaperReferenceAdmin(ReadOnlyAdmin):
    """The curation queues (filters, with counts) and, per reference, the page curators work from."""

    list_display = ("reference_index", "citing", "shown_title", "year", "state_label", "resolver", "curated_mark")
    list_display_links = ("reference_index", "shown_title")
    list_filter = (StateFilter, SuspiciousFilter, CuratedFilter, "extraction__source")
    search_fields = ("raw_text", "title", "=extraction__paper_version__paper__arxiv_id")
    search_help_text = "Search the reference text and title, or give an arXiv id for its references."
    show_facets = admin.ShowFacets.ALWAYS
    list_per_page = 50
    actions = ("mark_not_a_work", "re_resolve")
    change_form_template = "admin/citations/paperreference/curate.html"
    change_list_template = "admin/citations/paperreference/change_list.html"
    fields = ("id", "citing", "reference_index", "raw_text", "title", "year", "authors", "venue", "arxiv_id", "doi",
              "identifiers", "parser", "observed_at")
    readonly_fields = fields

    def get_queryset(self, request):
        in_force = Override.objects.in_force().filter(reference_id=OuterRef("pk"))
        return (
            with_current_resolution(super().get_queryset(request).select_related("extraction__paper_version__paper"))
            .annotate(curated=Exists(in_force),
                      # 1909 for 1909.08053; old-style ids have no such prefix.
                      arxiv_prefix_year=Case(When(arxiv_id__regex=r"^[0-9]{4}\.",
                                                  then=Cast(Substr("arxiv_id", 1, 4), IntegerField())),
                                             default=None, output_field=IntegerField()))
        )

    def lookup_allowed(self, lookup, value, request=None):
        # The per-paper queue links filter on the citing paper.
        return lookup == "extraction__paper_version__paper__arxiv_id" or super().lookup_allowed(lookup, value, request)

    def get_object(self, request, object_id, from_field=None):
        # Django's own answer to a malformed or unknown id is a redirect to the admin index;
        # here it is the 404 page, as for the reference pages below.
        reference = super().get_object(request, object_id, from_field)
        if reference is None:
            raise Http404("there is no such reference observation")
        return reference

    @admin.display(description="citing paper", ordering="extraction__paper_version__paper__arxiv_id")
    def citing(self, obj):
        version = obj.extraction.paper_version
        return f"arXiv:{version.paper.arxiv_id} v{version.version}"

    @admin.display(description="title (as parsed)")
    def shown_title(self, obj):
        return obj.title or "—"

    @admin.display(description="state", ordering="current_state")
    def state_label(self, obj):
        return STATE_LABELS.get(obj.current_state, obj.current_state)

    @admin.display(description="by")
    def resolver(self, obj):
        return obj.current_resolver or "—"

    @admin.display(description="curated", boolean=True)
    def curated_mark(self, obj):
        return obj.curated

    # --- the reference page -----------------------------------------------------------------------

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("<uuid:object_id>/override/", wrap(self.override_view), name="citations_paperreference_override"),
            path("<uuid:object_id>/withdraw/<int:override_id>/", wrap(self.withdraw_view),
                 name="citations_paperreference_withdraw"),
            path("queues/", wrap(self.queues_view), name="citations_paperreference_queues"),
        ] + super().get_urls()

    def change_view(self, request, object_id, form_url="", extra_context=None):
        reference = self.get_object(request, object_id)
        if not self.has_view_or_change_permission(request, reference):
            raise PermissionDenied
        extra_context = {**(extra_context or {}), **self._curation_context(request, reference)}
        return super().change_view(request, object_id, form_url, extra_context)

    def _curation_context(self, request, reference) -> dict:
        revision = revision_of(reference.pk)
        current = active_overrides(reference_ids=[reference.pk]).get(reference.pk, {})
        title = current.get("title", reference.title)
        links = list(reference.links.select_related("cited_paper", "cited_work").order_by("-observed_at", "-id"))
        return {
            "reference": reference,
            "can_curate": can_curate(request.user),
            "revision": revision,
            "effective": {"title": title, "year": current.get("year", reference.year),
                          "not_a_work": current.get("not_a_work", False)},
            "in_force": {entry.field: entry for entry in Override.objects.in_force().filter(reference=reference)
                         .select_related("curator", "link_paper")},
            "history": links,
            "audit": Override.objects.filter(reference=reference).select_related("curator", "link_paper"),
            "candidates": _candidates(title),
            "override_form": OverrideForm(initial={"revision": revision, "field": OverrideField.TITLE}),
            "reason_form": ReasonForm(initial={"revision": revision}),
            "record_url": f"/paper/{reference.extraction.paper_version.paper.arxiv_id}/citation-record"
                          f"#obs-{reference.pk}",
        }

    def override_view(self, request, object_id):
        if not can_curate(request.user):
            raise PermissionDenied("Only curators can override references.")
        reference = get_object_or_404(PaperReference, pk=object_id)
        back = reverse("admin:citations_paperreference_change", args=[reference.pk])
        if request.method != "POST":
            return HttpResponseRedirect(back)
        data = request.POST
        form = (OverrideForm if data.get("field") in (OverrideField.TITLE, OverrideField.YEAR, OverrideField.LINK)
                else ReasonForm)(data)
        if not form.is_valid():
            messages.error(request, "Not saved: " + "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items()))
            return HttpResponseRedirect(back)
        field = data.get("field") if data.get("field") in OverrideField.values else OverrideField.NOT_A_WORK
        value = form.cleaned_data.get("value") if field != OverrideField.NOT_A_WORK else True
        try:
            entry = apply_override(reference_id=reference.pk, field=field, value=value,
                                   reason=form.cleaned_data["reason"], curator=request.user,
                                   expected_revision=form.cleaned_data["revision"])
        except OverrideRefused as error:
            messages.error(request, " ".join(error.messages))
            return HttpResponseRedirect(back)
        messages.success(request, format_html("Saved: {} (audit entry <a href=\"{}\">#{}</a>). The reference is "
                                              "being resolved again.", entry, entry.get_absolute_url(), entry.pk))
        return HttpResponseRedirect(back)

    def withdraw_view(self, request, object_id, override_id):
        if not can_curate(request.user):
            raise PermissionDenied("Only curators can withdraw overrides.")
        back = reverse("admin:citations_paperreference_change", args=[object_id])
        if request.method != "POST":
            return HttpResponseRedirect(back)
        form = ReasonForm(request.POST)
        if not form.is_valid():
            messages.error(request, "Not withdrawn: a reason is required.")
            return HttpResponseRedirect(back)
        try:
            entry = withdraw_override(override_id=override_id, reason=form.cleaned_data["reason"],
                                      curator=request.user, expected_revision=form.cleaned_data["revision"])
        except OverrideRefused as error:
            messages.error(request, " ".join(error.messages))
            return HttpResponseRedirect(back)
        messages.success(request, format_html("Withdrawn (audit entry <a href=\"{}\">#{}</a>); the observed value "
                                              "shows again.", entry.get_absolute_url(), entry.pk))
        return HttpResponseRedirect(back)

    def queues_view(self, request):
        """Counts of every queue, and the papers with the most references waiting."""
        # The same permission as the queues themselves (the changelist): curators have it.
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        base = self.get_queryset(request)
        changelist = reverse("admin:citations_paperreference_changelist")
        states = [(label, base.filter(current_state=state).count(), f"{changelist}?state={state}")
                  for state, label in ((s, STATE_LABELS[s]) for s in QUEUE_STATES)]
        patterns = [(label, base.filter(condition).count(), f"{changelist}?pattern={key}")
                    for key, (label, condition) in SuspiciousFilter.PATTERNS.items()]
        papers = (base.filter(current_state__in=QUEUE_STATES[:3])
                  .values("extraction__paper_version__paper__arxiv_id")
                  .annotate(waiting=Count("id")).order_by("-waiting")[:20])
        return TemplateResponse(request, "admin/citations/paperreference/queues.html", {
            **self.admin_site.each_context(request), "title": "Curation queues", "states": states,
            "patterns": patterns, "papers": papers, "changelist": changelist, "opts": self.model._meta,
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
                done, refused = 0, []
                for reference in queryset:
                    try:
                        apply_override(reference_id=reference.pk, field=OverrideField.NOT_A_WORK, value=True,
                                       reason=form.cleaned_data["reason"], curator=request.user,
                                       expected_revision=revision_of(reference.pk))
                        done += 1
                    except OverrideRefused as error:
                        refused.append(f"[{reference.reference_index}] {' '.join(error.messages)}")
                messages.success(request, f"Marked {done} reference(s) as not a scholarly work, each with its "
                                          "own audit entry.")
                for line in refused:
                    messages.warning(request, line)
                return None
        else:
            form = BulkReasonForm()
        return TemplateResponse(request, "admin/citations/paperreference/bulk_reason.html", {
            **self.admin_site.each_context(request), "title": "Mark as not a scholarly work",
            "queryset": queryset, "form": form, "action": "mark_not_a_work", "opts": self.model._meta,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        })

    @admin.action(description="Resolve selected again")
    def re_resolve(self, request, queryset):
        from citations.dispatch import dispatch_task

        if not can_curate(request.user):
            messages.error(request, "Only curators can ask for re-resolution.")
            return
        ids = [str(pk) for pk in queryset.values_list("pk", flat=True)]
        content_type = ContentType.objects.get_for_model(PaperReference)
        LogEntry.objects.bulk_create([
            LogEntry(user_id=request.user.pk, content_type=content_type, object_id=pk, object_repr=pk[:36],
                     action_flag=CHANGE, change_message="Re-resolution requested", action_time=timezone.now())
            for pk in ids
        ])
        job = dispatch_task("curation.re_resolve_references", args=[ids])
        messages.success(request, f"{len(ids)} reference(s) queued for resolution as job #{job.pk}; "
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


class SnapshotInline(admin.TabularInline):
    model = PaperSnapshot
    fields = ("observed_at", "title", "latest_version", "submitted_at", "last_updated", "doi", "source")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


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


@admin.register(CitedWork)
class CitedWorkAdmin(ReadOnlyAdmin):
    list_display = ("title", "doi", "arxiv_id", "year", "metadata_source")
    search_fields = ("=doi", "=arxiv_id", "title")


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
