"""Public transparency: every audit entry has a page (reason and date for all; the curator's name for staff)."""
from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_safe

from curation.models import Override


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
