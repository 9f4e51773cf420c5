"""A work known, so far, only by the identifier a curator linked a reference to.

A curator may link a reference to a DOI or an arXiv id the works store does not hold yet. The work
is written the way every work is (writers.py): a record of source "curation" carrying the identifier
alone. When a source's record for that identifier is imported later, the importer finds the work by
it and, since the record says what is not known of the work yet (its title, year, venue), writes a
dated revision (revisions.py): the work, and the records linking it, are filled then.
"""
from datetime import datetime

from citations.models import CitedWork, IdentifierKind, WorkIdentifier
from citations.works.records import WorkRecord, checked, identifiers_of
from citations.works.report import WorksReport
from citations.works.writers import BatchWriter

SOURCE = "curation"


def work_named(kind: str, value: str) -> CitedWork | None:
    """The work this DOI or arXiv id names: by the work's own column, or by an identifier the store
    joined to it (a preprint's published DOI), as the resolver finds it."""
    column = "doi" if kind == IdentifierKind.DOI else "arxiv_id"
    work = CitedWork.objects.select_related("paper").filter(**{column: value}).first()
    if work is None:
        named = WorkIdentifier.objects.select_related("work__paper").filter(kind=kind, value=value).first()
        work = named.work if named else None
    return work


def work_from_identifier(*, kind: str, value: str, observed_at: datetime) -> CitedWork:
    """The work this identifier names, written from the identifier alone when the store has none
    (in the caller's transaction)."""
    work = work_named(kind, value)
    if work is not None:
        return work
    record = checked(WorkRecord(source=SOURCE, identifiers=identifiers_of([(kind, value)])))
    BatchWriter(observed_at, WorksReport(), None).write([record], [0])      # (no input line to name)
    return work_named(kind, value)
