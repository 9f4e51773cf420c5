"""OpenAlex works and their `is_retracted` flag, read as a stream of lines.

A file is JSON lines, gzip or not: a part of the works snapshot (parts concatenated are one gzip
stream too), or what the API gives for `filter=is_retracted:true`, one work a line or one API page
(`{"results": [...]}`) a line. It is read line by line, never whole: a snapshot part is gigabytes.

Every work with a W id and `is_retracted` true or false is read (WorkRead): "no event" is then a
measurement. A retracted one is one retraction about its DOI (`ids.doi`, else `doi`) or, without
one, about the arXiv DOI (10.48550/arxiv.<id>) of an arxiv.org location, as the one-hop checks look
works up (checks.work_dois). OpenAlex gives no notice, date or reason, so the event has none: its
notice DOI and date are null and its reason empty, never invented. Its record id is the W id, so the
same work in a later file is the same record (revisions.py).

A line is rejected with its reason, and the file goes on, when it is longer than 4 MiB, not UTF-8,
not JSON, not a work (an object) or a page of them, has no W id, has no `is_retracted` true or false
(an API `select=` that left it out says nothing about retraction), or is retracted with a DOI that
is not one or is longer than its column (255), or with neither a DOI nor an arXiv location. Only a
retracted work's identifiers are checked: a bad DOI on a work that gives no event rejects nothing.
What fails the file (BadFile) is an empty file, or a gzip stream that ends early or is corrupt:
the rest of the source cannot be read, so it was not read as of now.
"""
import gzip
import json
import re
import zlib
from collections.abc import Iterable, Iterator

import orjson

from citations.arxiv_ids import arxiv_doi, arxiv_of
from citations.input_files import MAX_LINE_BYTES, FileProblem
from citations.models import EventType, ScholarlyWorkEvent
from citations.parsing.identifiers import normalise_doi
from citations.standing.events import DOI_LENGTH, BadFile, RejectedRow, SourceEvent, WorkRead, storable
from citations.standing.revisions import newest_as_of

SOURCE = "openalex"
_WORK_ID = re.compile(r"(?:https?://openalex\.org/(?:works/)?)?(W\d{1,12})", re.I)

Item = SourceEvent | WorkRead | RejectedRow


def read_works(lines: Iterable[bytes]) -> Iterator[tuple[int, Item]]:
    """(line number, event, work read or rejection) of every work in the lines, pulled one at a time;
    BadFile when there is no line or the gzip stream is damaged."""
    number = content = 0
    for number, line in enumerate(_readable(lines), 1):
        if line.strip():
            content += 1
            for item in _line(line):
                yield number, item
    if not content:
        raise BadFile("the file is empty (only blank space)" if number else "the file is empty")


def _readable(lines: Iterable[bytes]) -> Iterator[bytes]:
    # A damaged gzip raises while a line is pulled: everything after it is unreadable, and the
    # operator gets a sentence naming where, not a traceback. Only pulling is guarded here.
    lines, number = iter(lines), 0
    while True:
        try:
            line = next(lines)
        except StopIteration:
            return
        except EOFError:
            raise BadFile(f"the file ends early after line {number:,}: its gzip stream is cut (a truncated "
                          "download?)") from None
        except (zlib.error, gzip.BadGzipFile):
            raise BadFile(f"the file is corrupt after line {number:,}: its gzip stream cannot be "
                          "decompressed") from None
        except OSError as error:
            raise BadFile(f"the file cannot be read after line {number:,}: {error.strerror or error}") from None
        number += 1
        yield line


def _line(line: bytes) -> Iterator[Item]:
    if isinstance(line, FileProblem):
        yield RejectedRow(line.reason)
        return
    if len(line) > MAX_LINE_BYTES:
        yield RejectedRow("line longer than 4 MiB")
        return
    try:
        document = _parsed(line)
    except UnicodeDecodeError:
        yield RejectedRow("not UTF-8 text")
        return
    except RecursionError:
        yield RejectedRow("JSON nested too deeply to read")
        return
    except ValueError:
        yield RejectedRow("not JSON")
        return
    if not isinstance(document, dict):
        yield RejectedRow("not a JSON object (a work, or an API page of them)")
        return
    works = document["results"] if isinstance(document.get("results"), list) else [document]
    for work in works:
        try:
            yield from _work(work)
        except RejectedRow as rejected:
            yield rejected


def _parsed(line: bytes):
    try:
        return orjson.loads(line)         # fast, and only ever UTF-8
    except orjson.JSONDecodeError:
        pass
    # What orjson refuses that is still JSON (NaN, a lone surrogate escape, a byte-order mark, deep
    # nesting), from the text: json.loads of bytes would also take UTF-16 or UTF-32 for JSON.
    # Numbers of more than 18 digits stay text, as in crossref.py: no field read here needs one.
    return json.loads(line.decode("utf-8-sig"), parse_int=lambda digits: int(digits) if len(digits) <= 18 else digits)


def _work(work) -> Iterator[Item]:
    if not isinstance(work, dict):
        raise RejectedRow("a work is not a JSON object")
    ids = work.get("ids") if isinstance(work.get("ids"), dict) else {}
    given = ids.get("openalex") or work.get("id")
    match = _WORK_ID.fullmatch(given.strip()) if isinstance(given, str) else None
    if match is None:
        raise RejectedRow("no OpenAlex work id (W...)")
    record_id = match.group(1).upper()
    retracted = work.get("is_retracted")
    if not isinstance(retracted, bool):
        raise RejectedRow("no is_retracted" if "is_retracted" not in work else "is_retracted is not true or false")
    if not retracted:
        yield WorkRead(None, record_id)
        return
    subject = _subject(work, ids)
    yield WorkRead(subject, record_id)
    yield SourceEvent(record_id, EventType.RETRACTION, subject, None, None, "")


def _subject(work: dict, ids: dict) -> str:
    """The DOI the retraction is about: the work's own, else its arXiv DOI."""
    given = ids.get("doi") or work.get("doi")
    if given:
        doi = normalise_doi(given) if isinstance(given, str) else None
        if doi is None:
            raise RejectedRow(f"{str(given)[:60]!r} is not a DOI")
        return storable(doi, what="the work's DOI", max_length=DOI_LENGTH)
    for url in _location_urls(work):
        if "arxiv.org/" in url.lower() and (arxiv_id := arxiv_of(url)):
            return arxiv_doi(arxiv_id)
    raise RejectedRow("a retracted work without a DOI or an arXiv location: nothing to attach the notice to")


def _location_urls(work: dict) -> Iterator[str]:
    locations = [work.get("primary_location")] + (work.get("locations") if isinstance(work.get("locations"), list)
                                                  else [])
    for location in locations:
        if isinstance(location, dict):
            yield from (url for url in (location.get("landing_page_url"), location.get("pdf_url"))
                        if isinstance(url, str))


CLEARED = "OpenAlex no longer marks this work as retracted"


def cleared_flags(record_ids: set[str]) -> dict[str, SourceEvent]:
    """For works an earlier sync found retracted and this file reads with is_retracted false: OpenAlex
    now says the work is not retracted, which is a revision of its record (a reinstatement, with the
    reason saying what OpenAlex states), so a flag OpenAlex has dropped leaves the records too."""
    if not record_ids:
        return {}
    newest = newest_as_of(ScholarlyWorkEvent.objects.filter(source=SOURCE, source_record_id__in=record_ids))
    return {record_id: SourceEvent(record_id, EventType.REINSTATEMENT, subject, None, None, CLEARED)
            for record_id, subject in newest.values_list("source_record_id", "subject_doi")}
