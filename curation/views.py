"""Public transparency: every audit entry has a page (reason and date for all; the curator's name for staff),
and all of them are listed, newest first, filterable by citing paper."""
from django.db.models import Exists, OuterRef
from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_safe

from citations.arxiv_ids import InvalidArxivId, parse_arxiv_id
from citations.models import Override
from citations.pages.paging import BadPage, page_of

ENTRIES_PER_PAGE = 50


@require_safe
def override_list(request):
    """Every audit entry, newest first, 50 to a page; ?paper= keeps one citing paper's. Bad
    parameters get this page back with a sentence (400), never an unfiltered list."""
    context = {"paper": "", "show_curator": request.user.is_staff}
    unknown = sorted(set(request.GET) - {"paper", "page"})
    if unknown:
        return _refused(request, context, f"this list takes paper and page; {', '.join(unknown)} is not one of them")
    # Per listed entry, one indexed probe (override_newest_per_field) for a newer entry of its field.
    newer = Override.objects.filter(reference_id=OuterRef("reference_id"), field=OuterRef("field"),
                                    action="set", id__gt=OuterRef("id"))
    entries = (Override.objects
               .select_related("reference__extraction__paper_version__paper", "curator", "link_paper", "withdrawal")
               .annotate(replaced=Exists(newer)).order_by("-id"))
    paper = request.GET.get("paper", "").strip()
    if paper:
        try:
            paper = parse_arxiv_id(paper).id
        except InvalidArxivId as exc:
            return _refused(request, context, f"paper must be an arXiv id: {exc}")
        context["paper"] = paper
        entries = entries.filter(reference__extraction__paper_version__paper__arxiv_id=paper)
    try:
        page, total = page_of(entries, request.GET.get("page", "1"), ENTRIES_PER_PAGE)
    except BadPage as error:
        return _refused(request, context, str(error))
    return render(request, "curation/override_list.html", {
        **context, "page": page, "entries": page.object_list if page else [], "total": total,
        "page_query": f"paper={paper}&" if paper else "",
    })


def _refused(request, context: dict, reason: str):
    return render(request, "curation/override_list.html", {**context, "reason": reason, "entries": []}, status=400)


@require_safe
def override_entry(request, pk: int):
    entry = (Override.objects.select_related("reference__extraction__paper_version__paper", "curator", "link_paper",
                                             "withdraws").filter(pk=pk).first())
    if entry is None:
        raise Http404(f"there is no curation entry #{pk}")
    withdrawal = Override.objects.filter(withdraws=entry).first() if entry.action == "set" else None
    version = entry.reference.extraction.paper_version
    return render(request, "curation/override.html", {
        "entry": entry,
        "withdrawal": withdrawal,
        "citing": version.paper.arxiv_id,
        "version": version.version,
        "show_curator": request.user.is_staff,
    })
