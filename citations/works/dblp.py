"""dblp.xml (the full dump, streamed) or its records as JSON lines.

dblp is where the CS systems and ML venues arXiv papers cite most are indexed (OSDI, SOSP, SC,
NeurIPS...). Read per record: the key (the work's dblp id), title, year, the first author, the
venue (journal or booktitle), volume, pages, and every `ee` link: a doi.org link is the work's DOI,
an arxiv.org link its arXiv id. A CoRR record (journal "CoRR", volume "abs/1910.02054") is the
arXiv version; the importer joins it to the venue version of the same title and first author.

dblp.xml names characters by DTD entities (&uuml;): they are turned into the characters before
parsing, so the file is read without its DTD.
"""
import html.entities
import re
from collections.abc import Iterable, Iterator
from xml.etree.ElementTree import ParseError, XMLPullParser

from citations.input_files import FileProblem, RejectedLine
from citations.models import IdentifierKind
from citations.works.records import (
    WorkRecord,
    arxiv_of,
    checked,
    doi_of,
    first_page_of,
    identifiers_of,
    short_field,
    text_field,
    year_field,
)
from citations.works.sources import loads

SOURCE = "dblp"
RECORD_TAGS = {"article", "inproceedings", "proceedings", "book", "incollection", "phdthesis", "mastersthesis"}
_ENTITY = re.compile(rb"&([A-Za-z][A-Za-z0-9]*);")
_XML_ENTITIES = {b"amp", b"lt", b"gt", b"quot", b"apos"}
_HOMONYM = re.compile(r"\s+\d{4}$")          # "Wei Wang 0001": dblp's number for homonyms


def _entity(match: re.Match) -> bytes:
    name = match.group(1)
    if name in _XML_ENTITIES:
        return match.group(0)
    char = html.entities.name2codepoint.get(name.decode())
    return f"&#{char};".encode() if char else b"?"


def read_works(lines: Iterable[bytes]) -> Iterator[tuple[int, WorkRecord | RejectedLine]]:
    lines = iter(lines)
    first = next((line for line in lines if line.strip()), b"")
    if first.lstrip().startswith(b"{"):
        yield from _json_lines(first, lines)
    else:
        yield from _xml(first, lines)


def _xml(first: bytes, lines: Iterator[bytes]) -> Iterator[tuple[int, WorkRecord | RejectedLine]]:
    # The DOCTYPE names dblp.dtd; expat does not fetch it, and the entities it defines are
    # replaced above, so the file parses without it.
    parser = XMLPullParser(events=("end",))
    number = 0
    try:
        for number, line in enumerate(_chain(first, lines), 1):
            if isinstance(line, FileProblem):       # the document ends here: what came before was read
                raise RejectedLine(line.reason)
            parser.feed(_ENTITY.sub(_entity, line))
            yield from _records(parser, number)
        parser.close()
    except ParseError as error:
        raise RejectedLine(f"not dblp XML: {error} (near line {number:,}); the records before it were read") from None


def _chain(first: bytes, lines: Iterator[bytes]) -> Iterator[bytes]:
    if first:
        yield first
    yield from lines


def _records(parser: XMLPullParser, number: int) -> Iterator[tuple[int, WorkRecord | RejectedLine]]:
    for _, element in parser.read_events():
        if element.tag not in RECORD_TAGS:
            continue
        fields: dict[str, list[str]] = {}
        for child in element:
            fields.setdefault(child.tag, []).append("".join(child.itertext()))
        try:
            yield number, _record(element.get("key"), fields)
        except RejectedLine as error:
            yield number, error
        element.clear()


def _json_lines(first: bytes, lines: Iterator[bytes]) -> Iterator[tuple[int, WorkRecord | RejectedLine]]:
    for number, line in enumerate(_chain(first, lines), 1):
        if line.strip():
            yield number, _json_record(line)


def _json_record(line: bytes) -> WorkRecord | RejectedLine:
    if isinstance(line, FileProblem):
        return RejectedLine(line.reason)
    try:
        value = loads(line)
    except (ValueError, RecursionError):
        return RejectedLine("not JSON")
    if not isinstance(value, dict):
        return RejectedLine("not a JSON object")
    fields = {k: v if isinstance(v, list) else [v] for k, v in value.items() if k != "key"}
    try:
        return _record(value.get("key"), {k: [str(x) for x in v if isinstance(x, (str, int))] for k, v in fields.items()})
    except RejectedLine as error:
        return error


def _record(key, fields: dict[str, list[str]]) -> WorkRecord:
    if not isinstance(key, str) or not key.strip() or len(key) > 255:
        raise RejectedLine("a record without a dblp key")
    pairs = [(IdentifierKind.DBLP, key.strip())]
    for link in fields.get("ee", []):
        if "doi.org/" in link.lower():
            pairs.append((IdentifierKind.DOI, doi_of(link)))
        elif "arxiv.org/" in link.lower():
            pairs.append((IdentifierKind.ARXIV, arxiv_of(link)))
    venue = (fields.get("journal") or fields.get("booktitle") or [None])[0]
    volume = (fields.get("volume") or [None])[0]
    if venue == "CoRR" and volume and volume.startswith("abs/"):
        pairs.append((IdentifierKind.ARXIV, arxiv_of(volume[4:])))
    authors = fields.get("author") or fields.get("editor") or []
    first = _HOMONYM.sub("", authors[0]).split()[-1] if authors and authors[0].split() else None
    title = (fields.get("title") or [None])[0]
    dropped: list[str] = []
    year = year_field((fields.get("year") or [None])[0], dropped)
    return checked(WorkRecord(
        source=SOURCE, identifiers=identifiers_of(pairs),
        title=text_field(title.rstrip(".") if title else None, what="title", max_length=2000),
        year=year, dropped=tuple(dropped),
        first_author=text_field(first, what="author", max_length=100),
        container_title=text_field(venue, what="venue", max_length=1000),
        volume=short_field(volume, what="volume"), issue=short_field((fields.get("number") or [None])[0], what="number"),
        first_page=first_page_of((fields.get("pages") or [None])[0]),
        work_type="corr" if venue == "CoRR" else ("proceedings-article" if fields.get("booktitle") else "article"),
    ))
