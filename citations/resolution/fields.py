"""What the resolver reads of a stored reference: its parse, with the curators' overrides in force over it."""
from citations.models import PaperReference
from citations.parsing.locators import find_locator
from citations.parsing.parser import tidy_title
from citations.resolution.matching import ReferenceFields


def reference_fields(reference: PaperReference, overrides: dict | None = None, *,
                     citing_paper_id: int | None = None) -> ReferenceFields:
    """The fields the resolver reads: the stored parse, with active curator overrides over it, and the
    paper whose list holds it (which the resolver never links it to)."""
    overrides = overrides or {}
    identifiers = tuple(reference.identifiers or ())
    if not identifiers:
        identifiers = tuple(
            {"kind": kind, "value": value, "valid": True}
            for kind, value in (("arxiv", reference.arxiv_id), ("doi", reference.doi)) if value
        )
    return ReferenceFields(
        # Titles read from v1 records were parsed elsewhere; clean them as this parser would.
        title=overrides["title"] if "title" in overrides else tidy_title(reference.title),
        year=overrides.get("year", reference.year),
        identifiers=identifiers,
        not_a_work=bool(overrides.get("not_a_work")),
        first_author=(reference.authors or [None])[0] if isinstance(reference.authors, list) else None,
        locator=find_locator(reference.raw_text),
        citing_paper_id=citing_paper_id,
    )
