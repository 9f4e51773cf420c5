"""Dated, source-named citation counts of held papers (a record never adds counts of two sources)."""
import re
from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from citations.arxiv_ids import InvalidArxivId, parse_arxiv_id
from citations.input_files import (
    IngestReport,
    RejectedLine,
    handled_lines,
)
from citations.models import (
    CitationMeasurement,
    Paper,
    PaperSnapshot,
)
from citations.models.generations import records_of_papers_changed
from citations.models.transparency import LeafKind, note_written
from citations.parsing.identifiers import normalise_doi
from citations.sources.arxiv_metadata import DOI_LENGTH
from citations.validation import OutOfRange, clean_text, parse_time

# --- external citation measurements ---------------------------------------------------------------


def import_citation_counts(lines: Iterable[bytes]) -> IngestReport:
    """Read source-named, dated citation counts: {"arxiv_id" | "doi", "source", "count", "observed_at"}.

    Each line is one measurement of a held paper; the same measurement twice is one row, and counts
    of different sources are kept apart (a record never adds them up). A measurement dated before one
    already held for the same paper and source is refused (a record as of a time between them was
    published without it: history does not change; docs/record-v1.md). Any other is shown in records
    as of its import on, not as of its observation: a record as of an earlier time was already
    published without it (the paper's first count by a source too).
    """
    report = IngestReport()
    for outcome in handled_lines(lines, report, _import_citation_count):
        if outcome == "created":
            report.created["measurements"] += 1
        else:
            report.unchanged += 1
    return report


@transaction.atomic                         # a line the database refuses leaves nothing behind
def _import_citation_count(value: dict) -> str:
    """Store one measurement line: "created" or "unchanged"; RejectedLine says why it cannot be."""
    paper_id = _measured_paper(value, normalise_doi)
    source = value.get("source")
    if not isinstance(source, str) or not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", source):
        raise RejectedLine("source is not a short lower-case name (e.g. semantic_scholar)")
    count = value.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 2_000_000_000:
        raise RejectedLine("count is not a non-negative integer")
    try:
        observed_at = parse_time(value.get("observed_at"), what="observed_at", observation=True)
    except OutOfRange as error:
        raise RejectedLine(str(error)) from None
    # The paper's row, locked: two importers cannot both find no later measurement and write an earlier one.
    Paper.objects.select_for_update().filter(pk=paper_id).values_list("id", flat=True).first()
    held = CitationMeasurement.objects.filter(paper_id=paper_id, source=source, observed_at=observed_at).first()
    if held is not None:
        if held.count != count:
            raise RejectedLine("a different count is held for this paper, source and time")
        return "unchanged"
    later = (CitationMeasurement.objects.filter(paper_id=paper_id, source=source, observed_at__gt=observed_at)
             .order_by("-observed_at").values_list("observed_at", flat=True).first())
    if later is not None:
        # Records as of a time between the two already showed the later one's predecessor: never rewritten.
        raise RejectedLine("back-dated: a later measurement by this source is held for this paper, so records "
                           "already published as of an earlier time would change")
    now = timezone.now()
    measured = CitationMeasurement.objects.create(paper_id=paper_id, source=source, observed_at=observed_at,
                                                  count=count, recorded_at=now if now > observed_at else None)
    note_written(LeafKind.MEASUREMENT, [measured.pk])
    records_of_papers_changed(paper_ids=[paper_id])
    return "created"


def _measured_paper(value: dict, normalise_doi) -> int:
    if value.get("arxiv_id"):
        try:
            # Text only: a number (2501.00010) would lose its trailing zeros and name another paper.
            arxiv_id = parse_arxiv_id(clean_text(value["arxiv_id"], what="arxiv_id")).id
        except OutOfRange as error:
            raise RejectedLine(str(error)) from None
        except InvalidArxivId:
            raise RejectedLine("arxiv_id is not a valid arXiv id") from None
        paper = Paper.objects.filter(arxiv_id=arxiv_id).values_list("id", flat=True).first()
    elif value.get("doi"):
        try:
            doi = normalise_doi(clean_text(value["doi"], what="doi"))
            if doi is not None:
                clean_text(doi, what="doi", max_length=DOI_LENGTH)    # longer: no column holds it
        except OutOfRange as error:
            raise RejectedLine(str(error)) from None
        if doi is None:
            raise RejectedLine("doi is not a DOI")
        if doi.startswith("10.48550/arxiv."):
            paper = Paper.objects.filter(arxiv_id=doi.removeprefix("10.48550/arxiv.")).values_list("id", flat=True).first()
        else:
            paper = PaperSnapshot.objects.filter(doi=doi).values_list("paper_id", flat=True).first()
    else:
        raise RejectedLine("neither arxiv_id nor doi")
    if paper is None:
        raise RejectedLine("no held paper has this id")
    return paper
