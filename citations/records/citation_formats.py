"""A paper's references as readers paste them into LaTeX and Zotero: BibTeX (written by pybtex) and
CSL-JSON (the Citation Style Language's item format, which Zotero, Pandoc and citeproc read).

Each entry is what the record knows of the reference: a matched work's title, year, venue and DOI where
one is linked (the work is the better-described), else the reference's own parsed (or curated) fields;
its authors as parsed; the arXiv id and DOI it prints; and its printed text as a note when no title
was read, so no entry is empty.
"""
import json
from dataclasses import dataclass

from pybtex.database import BibliographyData, Entry, Person

from citations.records.build import BuiltRecord, outbound_window

MAX_REFERENCES = 5000       # a reference list longer than this is not a paper's


@dataclass(frozen=True)
class CitedReference:
    key: str                # BibTeX key and CSL id: "2212.11808-ref38"
    observation_id: str
    reference_index: int
    title: str | None
    authors: list
    year: int | None
    venue: str | None
    doi: str | None
    arxiv_id: str | None
    text: str | None


def cited_references(built: BuiltRecord, *, observation_id: str | None = None) -> list[CitedReference]:
    """Every reference of the record's list (past the cap too), or the one with that observation id."""
    window = outbound_window(built, limit=MAX_REFERENCES)        # four statements, whatever the length
    arxiv_id = built.record["paper"]["arxiv_id"]
    entries = []
    for observation in window.outbound:
        if observation_id is not None and observation["observation_id"] != observation_id:
            continue
        citation = observation["citation"]
        work = citation["cited_work"]
        details = window.details.get(observation["observation_id"], {})
        matched = work["work_id"] is not None
        authors = [a.strip() for a in details.get("parsed_authors") or [] if isinstance(a, str) and a.strip()]
        cited_arxiv = (citation["cited_paper"] or {}).get("arxiv_id") if observation["resolution"]["status"] in (
            "verified_exact", "verified_fuzzy") else None
        entries.append(CitedReference(
            key=f"{arxiv_id.replace('/', '-')}-ref{citation['reference_index']}",
            observation_id=observation["observation_id"],
            reference_index=citation["reference_index"],
            title=work["title"] if matched or work["title"] else details.get("parsed_title"),
            authors=authors,
            year=work["year"] if work["year"] is not None else details.get("parsed_year"),
            venue=(work["venue"] if matched and work["venue"] else details.get("parsed_venue")),
            doi=work["doi"] or details.get("printed_doi"),
            arxiv_id=details.get("printed_arxiv_id") or work.get("arxiv_id") or cited_arxiv,
            text=details.get("raw_text"),
        ))
    return entries


def bibtex(references: list[CitedReference]) -> str:
    """The references as BibTeX: @article where a venue is known, @misc otherwise."""
    entries = {}
    for ref in references:
        fields = {"title": ref.title, "year": str(ref.year) if ref.year else None,
                  "journal": ref.venue, "doi": ref.doi}
        if ref.arxiv_id:
            fields |= {"eprint": ref.arxiv_id, "archiveprefix": "arXiv"}
        if not ref.title and ref.text:
            fields["note"] = ref.text
        fields = {name: value for name, value in fields.items() if value}
        persons = {"author": [Person(name) for name in ref.authors]} if ref.authors else {}
        entries[ref.key] = Entry("article" if ref.venue else "misc", fields=fields, persons=persons)
    return BibliographyData(entries).to_string("bibtex")


def _csl_name(name: str) -> dict:
    person = Person(name)
    family = " ".join(person.prelast_names + person.last_names)
    given = " ".join(person.first_names + person.middle_names)
    return {"family": family, "given": given} if family and given else {"literal": name}


def csl_items(references: list[CitedReference]) -> list[dict]:
    """The references as CSL-JSON items."""
    items = []
    for ref in references:
        item = {"id": ref.key, "type": "article-journal" if ref.venue else ("article" if ref.arxiv_id else "document")}
        if ref.title:
            item["title"] = ref.title
        if ref.authors:
            item["author"] = [_csl_name(name) for name in ref.authors]
        if ref.year:
            item["issued"] = {"date-parts": [[ref.year]]}
        if ref.venue:
            item["container-title"] = ref.venue
        if ref.doi:
            item["DOI"] = ref.doi
        if ref.arxiv_id:
            item["number"] = f"arXiv:{ref.arxiv_id}"
            item["URL"] = f"https://arxiv.org/abs/{ref.arxiv_id}"
        if not ref.title and ref.text:
            item["note"] = ref.text
        items.append(item)
    return items


def csl_json(references: list[CitedReference]) -> str:
    return json.dumps(csl_items(references), ensure_ascii=False, indent=2) + "\n"
