"""What the reader pages list: held papers by their newest metadata snapshot, with the state counts
of their current reference list, and the search over them (arXiv id, DOI, title and author words).

A page of a list costs three statements, whatever the number of papers on it or held:

  1. the number of papers listed (the paginator's count)
  2. the page: the newest snapshot of each paper, joined to its paper, with the id of the paper's
     current reference list, both as paper_current holds them (citations/current/papers.py)
  3. the state counts of those lists, from reference_current_resolutions joined to paper_references,
     with how many of each list's references were checked against a standing source and how many
     cite a retracted work (skipped when no paper on the page has a list)
"""
import re
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet

from citations.arxiv_ids import is_canonical_arxiv_id
from citations.models import CurrentResolution, PaperSnapshot, ReceiptEvent, RetractionStatusReceipt
from citations.records.presentation import RETRACTING, author_names, paper_categories, standing_line, state_summary

MAX_QUERY_LENGTH = 200
MAX_WORDS = 8
PAGE_SIZE = 25

_ARXIV_PREFIXES = re.compile(r"^(?:https?://(?:www\.)?arxiv\.org/(?:abs|pdf)/|arxiv:)", re.IGNORECASE)
_VERSION = re.compile(r"v\d+$")
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)
_DOI_PREFIXES = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)
_DOI = re.compile(r"^10\.\d{4,9}/\S+$")
_PARTIAL_NEW_ID = re.compile(r"^\d{2}(?:0[1-9]|1[0-2])\.\d{0,4}$")   # the start of an id that can exist


@dataclass(frozen=True)
class Query:
    """What a search box's text asks for: one arXiv id, the start of one, a DOI, or words."""

    text: str
    kind: str                  # "empty", "arxiv_id", "arxiv_prefix", "doi" or "words"
    value: str = ""
    words: tuple[str, ...] = ()

    def describe(self) -> str:
        """The query in words, for the results' heading."""
        return {
            "arxiv_id": f"the arXiv id {self.value}",
            "arxiv_prefix": f"arXiv ids starting {self.value}",
            "doi": f"the DOI {self.value}",
            "words": "titles or authors containing " + " and ".join(f"\u201c{w}\u201d" for w in self.words),
        }.get(self.kind, "")


def parse_query(text: str) -> Query:
    """Read a search box: an arXiv id (with or without 'arXiv:', a version or its abs/pdf URL), an arXiv
    DOI, a DOI (with or without 'doi:' or its doi.org URL), the start of a new-style id, else words."""
    text = " ".join(text.split())
    if not text:
        return Query(text, "empty")
    bare = _VERSION.sub("", _ARXIV_PREFIXES.sub("", text).removesuffix(".pdf"))
    arxiv_doi = _ARXIV_DOI.match(_DOI_PREFIXES.sub("", text))
    if arxiv_doi:
        bare = _VERSION.sub("", arxiv_doi.group(1))
    if is_canonical_arxiv_id(bare):
        return Query(text, "arxiv_id", bare)
    doi = _DOI_PREFIXES.sub("", text)
    if _DOI.match(doi):
        return Query(text, "doi", doi.lower())
    if _PARTIAL_NEW_ID.match(bare):
        return Query(text, "arxiv_prefix", bare)
    return Query(text, "words", words=tuple(dict.fromkeys(text.split()))[:MAX_WORDS])


def current_snapshots() -> QuerySet:
    """Each paper's newest snapshot now, with its paper and its record's outbound list (list_id), in
    arXiv id order: as paper_current holds them (citations/current/papers.py), so a page is primary-key
    joins, not a correlated subquery per paper."""
    return (PaperSnapshot.objects.filter(current_of__isnull=False).select_related("paper")
            .annotate(list_id=F("current_of__reference_list_id")).order_by("paper__arxiv_id"))


def papers_with_lists() -> QuerySet:
    """The home page's papers: those with a reference list."""
    return current_snapshots().filter(current_of__reference_list__isnull=False)


def search_papers(query: Query) -> QuerySet:
    """Held papers matching a query, by their newest snapshot (a title changed since is not matched)."""
    snapshots = current_snapshots()
    if query.kind == "arxiv_id":
        return snapshots.filter(paper__arxiv_id=query.value)
    if query.kind == "arxiv_prefix":
        return snapshots.filter(paper__arxiv_id__startswith=query.value)
    if query.kind == "doi":
        return snapshots.filter(doi__iexact=query.value)
    if query.kind == "words":
        for word in query.words:
            snapshots = snapshots.filter(Q(title__icontains=word) | Q(authors__icontains=word))
        return snapshots
    return snapshots.none()


@dataclass(frozen=True)
class PaperListing:
    """One paper in a list: what its newest snapshot says, and the states of its current references."""

    arxiv_id: str
    title: str | None
    authors: list[str]
    submitted_at: datetime | None
    last_updated: datetime | None
    latest_version: int | None
    categories: list[str]  # the primary first
    doi: str | None
    has_list: bool
    references: int
    states: list          # (state, label, count) for the states present, most linked first
    checked: int = 0      # references whose work was checked against a standing source
    retracted: int = 0    # references citing a work a source says is retracted (and not reinstated)

    @property
    def standing(self) -> str:
        return standing_line(retracted=self.retracted, checked=self.checked, unchecked=self.references - self.checked)


def _standing_of_work():
    """Whether a current resolution's work was checked, and whether a check found it retracted (and no
    reinstatement): the lists' mark, over every reference of the list, as the record states each."""
    work = OuterRef("cited_work_id")
    found = ReceiptEvent.objects.filter(receipt__work_id=work)
    return {
        "checked": Exists(RetractionStatusReceipt.objects.filter(work_id=work)),
        "retracted": Exists(found.filter(event__event_type__in=RETRACTING))
                     & ~Exists(found.filter(event__event_type="reinstatement")),
    }


def paper_listings(snapshots) -> list[PaperListing]:
    """The rows of a page of current_snapshots(): one more statement for their state counts."""
    snapshots = list(snapshots)
    list_ids = [s.list_id for s in snapshots if s.list_id is not None]
    counts: dict[int, dict[str, int]] = {}
    checked: dict[int, int] = {}
    retracted: dict[int, int] = {}
    if list_ids:
        rows = (CurrentResolution.objects.filter(reference__extraction_id__in=list_ids)
                .annotate(**_standing_of_work())
                .values_list("reference__extraction_id", "state", "checked", "retracted")
                .annotate(n=Count("pk")).order_by())
        for list_id, state, was_checked, is_retracted, n in rows:
            counts.setdefault(list_id, {})[state] = counts.get(list_id, {}).get(state, 0) + n
            checked[list_id] = checked.get(list_id, 0) + (n if was_checked else 0)
            retracted[list_id] = retracted.get(list_id, 0) + (n if is_retracted else 0)
    return [
        PaperListing(
            arxiv_id=s.paper.arxiv_id, title=s.title, authors=author_names(s.authors),
            submitted_at=s.submitted_at, last_updated=s.last_updated, latest_version=s.latest_version,
            categories=[c for c, _ in paper_categories(s.primary_category, s.categories)], doi=s.doi,
            has_list=s.list_id is not None, references=sum(counts.get(s.list_id, {}).values()),
            states=state_summary(counts.get(s.list_id, {})),
            checked=checked.get(s.list_id, 0), retracted=retracted.get(s.list_id, 0),
        )
        for s in snapshots
    ]
