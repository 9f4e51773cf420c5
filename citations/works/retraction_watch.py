"""The works Retraction Watch rows are about, read into the works store.

Each row names the retracted (corrected, ...) paper by OriginalPaperDOI and, in the published
layout, gives its Title, Journal, Author (";"-separated, given names first), OriginalPaperDate and
ArticleType. Storing the paper as a work is what lets a reference that prints its title, but not
its DOI, link to it and so find the notice (standing on link). The reshaped layout gives the DOI,
the date, the container and the type. The notices themselves are read by
citations/standing/retraction_watch.py; this reader takes the same files, and the same header
check (a file that is not Retraction Watch's stops with a sentence).
"""
import re
from collections.abc import Iterable, Iterator

from citations.input_files import FileProblem, RejectedLine
from citations.models import IdentifierKind
from citations.standing.events import BadFile, RejectedRow
from citations.standing.retraction_watch import ORIGINAL, csv_rows, layout_of
from citations.works.records import WorkRecord, checked, doi_of, identifiers_of, short_field, text_field, year_field

SOURCE = "retraction_watch"
_NOT_UTF8 = re.compile("[\udc80-\udcff]")     # what surrogateescape makes of a byte that is not UTF-8
FIELDS = {  # published layout, reshaped layout
    "doi": ("OriginalPaperDOI", "originalpaperdoi"),
    "title": ("Title", None),
    "journal": ("Journal", "container"),
    "author": ("Author", None),
    "date": ("OriginalPaperDate", "originalpaperdate"),
    "type": ("ArticleType", "articletype"),
}


def read_works(lines: Iterable[bytes]) -> Iterator[tuple[int, WorkRecord | RejectedLine]]:
    problems: list[FileProblem] = []     # what ended the file early, told after its rows
    # Bytes that are not UTF-8 are kept as lone surrogates (surrogateescape), so only the row holding
    # them is rejected, not the file.
    text = (line.decode("utf-8-sig" if number == 0 else "utf-8", errors="surrogateescape")
            for number, line in enumerate(_until_problem(lines, problems)))
    try:
        rows = csv_rows(_decoded(text))
        first = next(rows, None)
        if first is None:
            return
        if isinstance(first, RejectedRow):
            raise BadFile(f"the header: {first}")
        header = [name.strip() for name in first]
        published = layout_of(header) is ORIGINAL
        number = 1
        for number, row in enumerate(rows, 2):
            if isinstance(row, RejectedRow):
                yield number, RejectedLine(str(row))
                continue
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                yield number, RejectedLine(f"{len(row)} columns, the header has {len(header)}")
                continue
            if any(_NOT_UTF8.search(cell) for cell in row):
                yield number, RejectedLine("not UTF-8 text")
                continue
            try:
                yield number, _record(dict(zip(header, row)), 0 if published else 1)
            except RejectedLine as rejected:
                yield number, rejected
        for problem in problems:
            yield number + 1, RejectedLine(problem.reason)
    except BadFile as error:
        raise RejectedLine(str(error)) from None


def _until_problem(lines: Iterable[bytes], problems: list) -> Iterator[bytes]:
    for line in lines:
        if isinstance(line, FileProblem):
            problems.append(line)
            return
        yield line


def _decoded(text: Iterator[str]) -> Iterator[str]:
    try:
        yield from text
    except UnicodeDecodeError:
        raise BadFile("the file is not UTF-8 text") from None


def _cell(row: dict, name: str, layout: int) -> str:
    column = FIELDS[name][layout]
    return (row.get(column) or "").strip() if column else ""


def _record(row: dict, layout: int) -> WorkRecord:
    doi = doi_of(_cell(row, "doi", layout))
    if doi is None:
        raise RejectedLine("no OriginalPaperDOI: no work to store")
    authors = [name.strip() for name in _cell(row, "author", layout).split(";") if name.strip()]
    return checked(WorkRecord(
        source=SOURCE, identifiers=identifiers_of([(IdentifierKind.DOI, doi)]),
        title=text_field(_cell(row, "title", layout) or None, what="Title", max_length=2000),
        year=_year(_cell(row, "date", layout)),
        # "Haiyan Zhang": the family name is written last in this database.
        first_author=text_field(authors[0].split()[-1] if authors else None, what="Author", max_length=100),
        container_title=text_field(_cell(row, "journal", layout) or None, what="Journal", max_length=1000),
        work_type=short_field(_cell(row, "type", layout).rstrip(";").split(";")[0] or None, what="ArticleType"),
    ))


def _year(cell: str) -> int | None:
    """The year of "9/24/2021 0:00" (published layout) or "2021-09-24" (reshaped)."""
    match = re.match(r"^\d{1,2}/\d{1,2}/(\d{4})\b", cell) or re.match(r"^(\d{4})-\d{2}-\d{2}\b", cell)
    return year_field(match.group(1)) if match else None
