"""The reference admin curators work from: the queues (filters, with counts), each reference's page
with its override, withdraw, split and join forms, and bulk actions audited per item. Every change
goes through curation/services.py and curation/segmentation.py, which write the audit entries."""
from urllib.parse import urlencode

from django.contrib import admin, messages
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import Truncator

from citations.admin.readonly import ReadOnlyAdmin
from citations.jobs.dispatch import dispatch_task
from citations.models import Override, OverrideField, PaperReference, PaperSnapshot
from citations.models.overrides import active_overrides
from citations.parsing.text import title_blocking_keys
from citations.records.presentation import STATE_LABELS
from citations.resolution.matching import best_similarity
from citations.resolution.store import DatabaseStore
from curation.admin.filters import CuratedFilter, PaperFilter, QueueFilter, SourceFilter, StateFilter, counted_for
from curation.forms import BulkReasonForm, OverrideForm, ReasonForm, SplitForm
from curation.queues import (
    PAPER_QUEUES,
    QUEUE_ORDER,
    QUEUES,
    QUEUES_BY_KEY,
    CachedCountPaginator,
    Counted,
    Queue,
    counted,
    reference_queryset,
)
from curation.segmentation import correction_of, join_with_next, split_reference, successors
from curation.services import (
    OverrideRefused,
    StaleRevision,
    apply_override,
    can_curate,
    entry_summary,
    link_label,
    revision_of,
    withdraw_override,
)


def reference_label(reference: PaperReference) -> str:
    """A reference as curators name it: "arXiv:2509.11076 [5]"."""
    return f"arXiv:{reference.extraction.paper_version.paper.arxiv_id} [{reference.reference_index}]"


def refusal(what: str, reference: PaperReference, error: OverrideRefused, user) -> str:
    """"Not saved (arXiv:2509.11076 [5]): why", saying "Not saved" once whatever the service's sentence
    begins with; a stale revision names the other curator only to staff (StaleRevision.message_for)."""
    text = error.message_for(user) if isinstance(error, StaleRevision) else " ".join(error.messages)
    for opening in ("Not saved: ", "Not withdrawn: ", f"{what}: "):
        text = text.removeprefix(opening)
    return f"{what} ({reference_label(reference)}): {text}"


def arxiv_links(arxiv_id: str, version: int) -> str:
    """The citing version on arXiv: its abstract page and its PDF."""
    return format_html('<a href="https://arxiv.org/abs/{0}v{1}">arXiv:{0}v{1}</a> '
                       '(<a href="https://arxiv.org/pdf/{0}v{1}">PDF</a>)', arxiv_id, version)



# The fields the override form sets; "not a work" and "checked" are one-click forms with a reason.
FORM_FIELDS = (OverrideField.TITLE, OverrideField.YEAR, OverrideField.LINK, OverrideField.INDEX)


@admin.register(PaperReference)
class PaperReferenceAdmin(ReadOnlyAdmin):
    """The curation queues (filters, with counts) and, per reference, the page curators work from."""

    list_display = ("index_shown", "citing", "title_shown", "raw_shown", "year_shown", "state_label", "curated_mark")
    list_display_links = ("index_shown",)
    list_filter = (QueueFilter, PaperFilter, StateFilter, CuratedFilter, SourceFilter)
    search_fields = ("raw_text", "title", "=extraction__paper_version__paper__arxiv_id")
    search_help_text = "Search the reference text and title, or give an arXiv id for its references."
    # Counts beside each choice cost a count over every reference per filter on every page: the
    # queue filter shows its cached counts in its labels, and the others on request only.
    show_facets = admin.ShowFacets.ALLOW
    show_full_result_count = False
    ordering = QUEUE_ORDER
    list_per_page = 25
    actions = ("mark_checked", "mark_not_a_work", "re_resolve")
    change_form_template = "admin/citations/paperreference/curate.html"
    change_list_template = "admin/citations/paperreference/change_list.html"
    fields = ("id", "citing", "reference_index", "raw_text", "title", "year", "authors", "venue", "arxiv_id", "doi",
              "identifiers", "parser", "observed_at")
    readonly_fields = fields

    def get_queryset(self, request):
        return reference_queryset()

    def get_paginator(self, request, queryset, per_page, orphans=0, allow_empty_first_page=True):
        # The list's count, cached while nothing changes, under what chooses the rows: the filters and
        # the search of the address (not the page or the order, which leave the count as it is).
        chosen = sorted((key, value) for key, value in request.GET.lists() if key not in ("p", "o", "_facets"))
        # A queue's whole list: its count as last counted, as the filter's label shows it.
        queue, counts = dict(chosen).get("queue", []), counted_for(request).counts
        known = (counts[queue[0]] if len(chosen) == len(queue) == 1 and queue[0] in QUEUES_BY_KEY
                 and counts is not None else None)
        return CachedCountPaginator(queryset, per_page, orphans, allow_empty_first_page, key=repr(chosen),
                                    known=known)

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
                         "paper": request.GET.get("paper"), "counted": counted_for(request)}
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
        if field not in FORM_FIELDS:
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
                          "not_a_work": current.get("not_a_work", False), "checked": current.get("checked", False),
                          "index": current.get("index", reference.reference_index)},
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
            # The list the curator came from, with its filters (the queue alone when none were kept).
            "changelist_filters": request.GET.get("_changelist_filters") or (f"queue={queue.key}" if queue else ""),
            # Links to other references keep the list the curator came from (its queue and paper).
            "keep_filters": (f"?{urlencode({'_changelist_filters': request.GET['_changelist_filters']})}"
                             if request.GET.get("_changelist_filters") else ""),
        }
        if queue:
            waiting = self.get_queryset(request).filter(queue.waiting())
            counts = counted_for(request).counts                         # as last counted, as on the list
            context["queue_waiting"] = counts[queue.key] if counts is not None else None
            context["still_waiting"] = waiting.filter(pk=reference.pk).exists()
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
        form = (OverrideForm if data.get("field") in FORM_FIELDS else ReasonForm)(data)
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
            messages.error(request, refusal("Not saved", reference, error, request.user))
            return HttpResponseRedirect(back)
        done = (f"{reference_label(reference)} marked {entry.get_field_display()}"
                if field in (OverrideField.CHECKED, OverrideField.NOT_A_WORK)
                else f"{entry.get_field_display()} of {reference_label(reference)}: {entry_summary(entry)}")
        messages.success(request, format_html(
            "Saved: {} (audit entry <a href=\"{}\">#{}</a>). The reference is being resolved again.",
            done, entry.get_absolute_url(), entry.pk))
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
            messages.error(request, refusal("Not withdrawn", reference, error, request.user))
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
            messages.error(request, refusal(what, reference, error, request.user))
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

    def index_context(self, request) -> dict:
        """The admin home lists the queues first, for those who may read them (README: "start there")."""
        if not self.has_view_or_change_permission(request):
            return {}
        shown = counted()
        return {"curation_queues": self.queue_rows(shown), "curation_counted": shown,
                "curation_queues_url": reverse("admin:citations_paperreference_queues")}

    @staticmethod
    def queue_rows(shown: Counted) -> list[dict]:
        """Every queue with its count as last counted (None before the first count) and its list's address."""
        changelist = reverse("admin:citations_paperreference_changelist")
        return [{"queue": queue, "count": shown.counts[queue.key] if shown.counts is not None else None,
                 "url": f"{changelist}?queue={queue.key}"} for queue in QUEUES]

    def queues_view(self, request):
        """Counts of every queue, and the papers with the most references waiting."""
        # The same permission as the queues themselves (the changelist): curators have it.
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        changelist = reverse("admin:citations_paperreference_changelist")
        shown = counted()
        papers = [dict(row) for row in shown.papers]
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
        rows = self.queue_rows(shown)
        return TemplateResponse(request, "admin/citations/paperreference/queues.html", {
            **self.admin_site.each_context(request), "title": "Curation queues", "counted": shown,
            "states": [row for row in rows if row["queue"].kind == "state"],
            "patterns": [row for row in rows if row["queue"].kind == "pattern"],
            "paper_queues": PAPER_QUEUES, "papers": papers, "changelist": changelist, "opts": self.model._meta,
        })

    # --- bulk actions, audited per item -----------------------------------------------------------

    @admin.action(description="Mark selected as not a scholarly work")
    def mark_not_a_work(self, request, queryset):
        return self._bulk_mark(request, queryset, OverrideField.NOT_A_WORK, "not a scholarly work")

    @admin.action(description="Mark selected as checked, read correctly")
    def mark_checked(self, request, queryset):
        return self._bulk_mark(request, queryset, OverrideField.CHECKED, "checked, read correctly")

    def _bulk_mark(self, request, queryset, field: str, what: str):
        """A one-click decision for each selected reference, each with its own audit entry, after the
        curator gave the reason on a page of its own."""
        if not can_curate(request.user):
            messages.error(request, "Only curators can mark references.")
            return None
        if "apply" in request.POST:
            form = BulkReasonForm(request.POST)
            if form.is_valid():
                done, refused = [], []
                for reference in queryset:
                    try:
                        apply_override(reference_id=reference.pk, field=field, value=True,
                                       reason=form.cleaned_data["reason"], curator=request.user,
                                       expected_revision=revision_of(reference.pk))
                        done.append(reference_label(reference))
                    except OverrideRefused as error:
                        refused.append(f"{reference_label(reference)}: {' '.join(error.messages)}")
                if done:
                    more = f" and {len(done) - 10} more" if len(done) > 10 else ""
                    messages.success(request, f"Marked {len(done)} reference(s) as {what}, each with "
                                              f"its own audit entry: {', '.join(done[:10])}{more}.")
                for line in refused:
                    messages.warning(request, f"Not marked: {line}")
                return None
        else:
            form = BulkReasonForm()
        return TemplateResponse(request, "admin/citations/paperreference/bulk_reason.html", {
            **self.admin_site.each_context(request), "title": f"Mark as {what}",
            "queryset": queryset, "form": form, "action": request.POST.get("action"), "opts": self.model._meta,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            # The list the curator chose from, as it was (its filters are in the address).
            "cancel_url": request.get_full_path(),
        })

    @admin.action(description="Resolve selected again")
    def re_resolve(self, request, queryset):
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

