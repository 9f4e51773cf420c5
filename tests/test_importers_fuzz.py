"""Every importer, fed arbitrary and mutated input: it never crashes, and never writes half of a thing."""
import json
from contextlib import contextmanager

import pytest
from django.apps import apps
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citations.input_files import lines_of
from citations.records.canonical import canonical_bytes, context_digest, observation_digest
from citations.sources.arxiv_metadata import import_arxiv_metadata
from citations.sources.citation_counts import import_citation_counts
from citations.sources.record_import import RecordRefused, import_record
from citations.sources.reference_lists import ingest_references
from citations.standing.sync import sync_standing_source
from tests.conftest import SEED_000, SEED_004

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                       HealthCheck.too_slow])
text = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
json_scalars = st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats(allow_nan=False) | text
json_values = st.recursive(json_scalars, lambda c: st.lists(c, max_size=4) | st.dictionaries(text, c, max_size=4),
                           max_leaves=12)


def stored() -> dict[str, int]:
    return {m._meta.label: m.objects.count() for app in ("citations", "curation")
            for m in apps.get_app_config(app).get_models()}


# --- v1 records ---------------------------------------------------------------------------------------


def paths(value, prefix=()):
    """Every path into a JSON value."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, prefix + (index,))


SEED_RECORD = json.loads(SEED_004.read_bytes())
SEED_PATHS = [p for p in paths(SEED_RECORD) if p]


def mutate(record, path, replacement, delete):
    target = record
    for step in path[:-1]:
        target = target[step]
    if delete and isinstance(target, dict):
        del target[path[-1]]
    else:
        target[path[-1]] = replacement
    return record


def reseal(record):
    if isinstance(record, dict):
        for direction in ("outbound", "inbound"):
            for observation in record.get(direction) or []:
                if isinstance(observation, dict):
                    observation["observation_digest"] = observation_digest(observation)
        record["context_digest"] = context_digest(record)
    return record


@pytest.fixture
def seeded(db):
    import_record(data=SEED_000.read_bytes())


@FUZZ
@given(data=st.binary(max_size=300))
def test_arbitrary_bytes_are_refused_cleanly(seeded, data):
    before = stored()
    with pytest.raises(RecordRefused):
        import_record(data=data)
    assert stored() == before


@FUZZ
@given(path=st.sampled_from(SEED_PATHS), replacement=json_values, delete=st.booleans(), sealed=st.booleans())
def test_mutated_records_are_imported_whole_or_refused_whole(seeded, path, replacement, delete, sealed):
    record = mutate(json.loads(SEED_004.read_bytes()), path, replacement, delete)
    data = canonical_bytes(reseal(record) if sealed else record) if _encodable(record) else b"\xff"
    before = stored()
    try:
        summary = import_record(data=data)
    except RecordRefused:
        assert stored() == before
    else:
        # Accepted: then it is a record this store reproduces byte for byte.
        from citations.records.build import build_record
        from citations.records.timestamps import parse_z
        from citations.sources.record_import import BUILD_MINUTE

        rebuilt = build_record(arxiv_id=record["paper"]["arxiv_id"], as_of=parse_z(record["as_of"]) + BUILD_MINUTE)
        assert rebuilt.record == record or summary.capped


def _encodable(value) -> bool:
    try:
        canonical_bytes(value)
        return True
    except TypeError:
        return False


# --- JSON-lines importers -----------------------------------------------------------------------------


metadata_like = st.fixed_dictionaries({
    "id": st.sampled_from(["2509.11076", "2513.00001", "hep-th/9901001", "x"]) | text,
    "title": text | st.none(),
    "versions": st.lists(st.fixed_dictionaries({"version": st.sampled_from(["v1", "v2", "v"]) | text,
                                                "created": st.sampled_from(["Mon, 2 Apr 2007 19:18:42 GMT"]) | text}),
                         max_size=3) | json_values,
    "categories": text | json_values, "doi": text | st.none(), "journal-ref": text | st.none(),
}) | json_values


def as_line(value) -> bytes:
    try:
        return json.dumps(value).encode() + b"\n"
    except (TypeError, ValueError):
        return b"{}\n"


@FUZZ
@given(lines=st.lists(metadata_like.map(as_line) | st.binary(max_size=60).map(lambda b: b + b"\n"), max_size=6))
def test_arxiv_metadata_lines_are_each_taken_or_rejected_with_a_reason(db, lines):
    from citations.models import PaperSnapshot

    before = PaperSnapshot.objects.count()
    report = import_arxiv_metadata(lines_of(b"".join(lines)))
    taken = report.lines - report.unchanged - sum(report.rejected.values())
    # Every line taken is a snapshot written; nothing comes from a rejected one.
    assert PaperSnapshot.objects.count() - before == report.created.get("paper_snapshots", 0) == taken


reference_like = st.fixed_dictionaries({
    "arxiv_id": st.sampled_from(["2509.11076", "2599.00001", "nope"]) | text,
    "version": st.integers(-2, 3) | json_values,
    "source": st.sampled_from(["pdf_text", "ocr"]) | json_values,
    "references": st.lists(st.fixed_dictionaries({"index": st.integers(-1, 3) | json_values,
                                                   "raw": text | json_values}), max_size=3) | json_values,
}) | json_values


@FUZZ
@given(line=reference_like.map(as_line) | st.binary(max_size=80))
def test_reference_lines_are_stored_whole_or_not_at_all(seeded, line):
    from citations.models import PaperReference, PaperReferenceLink, ReferenceExtraction

    before = (ReferenceExtraction.objects.count(), PaperReference.objects.count(), PaperReferenceLink.objects.count())
    report = ingest_references(lines_of(line))
    after = (ReferenceExtraction.objects.count(), PaperReference.objects.count(), PaperReferenceLink.objects.count())
    assert report.created.get("reference_lists", 0) + report.unchanged + sum(report.rejected.values()) == report.lines
    if report.created.get("reference_lists"):
        added = report.created["references"]
        assert after == (before[0] + 1, before[1] + added, before[2] + added)
    else:
        assert after == before


@FUZZ
@given(line=st.fixed_dictionaries({"arxiv_id": st.sampled_from(["2509.11076", "x"]) | text,
                                   "source": st.sampled_from(["openalex", "Bad Name"]) | json_values,
                                   "count": st.integers(-5, 10) | json_values,
                                   "observed_at": st.sampled_from(["2026-09-01T00:00:00Z", "2026-09-01"]) | text})
       .map(as_line) | st.binary(max_size=60))
def test_citation_count_lines_are_taken_or_rejected(seeded, line):
    from citations.models import CitationMeasurement

    before = CitationMeasurement.objects.count()
    report = import_citation_counts(lines_of(line))
    assert CitationMeasurement.objects.count() == before + report.created.get("measurements", 0)
    assert report.created.get("measurements", 0) + report.unchanged + sum(report.rejected.values()) == report.lines


# --- JSON-lines importers: good lines kept, bad lines rejected, whatever surrounds them ------------------
#
# Each file mixes good lines (a paper's line is the same each time it is drawn, so a repeat is
# unchanged), lines made bad by one poisoned field (a NUL, a lone surrogate, a huge number, a long
# string, a date out of range or in the future), and junk. Whatever the mix: every non-blank line
# read is kept, unchanged or rejected; the database holds exactly what the good lines say; nothing
# escapes. Each example runs in a transaction rolled back after it, so each sees the same database.


class _Undo(Exception):
    pass


@contextmanager
def undone():
    """Hypothesis runs every example in one test's database: undo what each example wrote."""
    try:
        with transaction.atomic():
            yield
            raise _Undo
    except _Undo:
        pass


GOOD_IDS = [f"2501.{n:05d}" for n in range(1, 5)]
UNSTORABLE = st.sampled_from(["\x00", "\ud800", "\udfff", "\udbff\udc00"[:1]])
poisoned_text = st.tuples(text, UNSTORABLE, text).map("".join)
long_ascii = st.integers(256, 2000).map(lambda n: "10.1234/" + "x" * n)
huge = st.integers(min_value=10**4) | st.integers(max_value=0) | st.just(2**63) | st.just(10**30)
rfc2822_out_of_range = st.integers(1000, 1898).map(lambda y: f"Mon, 01 Jan {y} 00:00:00 GMT") | \
    st.integers(2200, 9999).map(lambda y: f"Fri, 31 Dec {y} 23:59:59 -1200") | \
    st.just("Fri, 31 Dec 9999 23:59:59 -1200")
rfc2822_future = st.integers(2100, 2199).map(lambda y: f"Mon, 01 Jan {y} 00:00:00 GMT")
junk_line = st.binary(max_size=60).filter(lambda b: b"\n" not in b and b"\r" not in b).map(lambda b: b"\xff" + b + b"\n")
# Lines Python's own decoder cannot read: nested deeper than its recursion limit, a number of more
# digits than int() reads, invalid UTF-8 inside a string, wrong types where an object is expected.
unreadable_line = st.one_of(
    st.sampled_from([1_000, 5_000, 100_000]).map(lambda n: b"[" * n + b"]" * n + b"\n"),
    st.integers(1_001, 100_000).map(lambda n: b'{"a": ' + b"[" * n + b"\n"),
    st.integers(4_301, 20_000).map(lambda n: b'{"id": ' + b"9" * n + b"}\n"),
    st.sampled_from([b'{"id": "2501.00001\xff"}\n', b'"2501.00001"\n', b"[1, 2]\n", b"null\n", b"1e999999\n"]),
)


def good_metadata(arxiv_id: str) -> dict:
    return {"id": arxiv_id, "title": f"A paper numbered {arxiv_id}", "authors": "A. Author, B. Author",
            "versions": [{"version": "v1", "created": "Sun, 14 Sep 2025 03:55:03 GMT"},
                         {"version": "v2", "created": "Tue, 15 Jul 2026 13:51:17 GMT"}],
            "categories": "cs.DC cs.LG", "doi": "10.1234/" + arxiv_id, "journal-ref": None}


_GOOD = object()    # None is a value to poison with ("created": null), not "use the good one"


def with_version(version=_GOOD, created=_GOOD):
    return [{"version": "v1" if version is _GOOD else version,
             "created": "Sun, 14 Sep 2025 03:55:03 GMT" if created is _GOOD else created}]


metadata_poison = st.one_of(
    st.tuples(st.sampled_from(["title", "authors", "journal-ref", "categories", "doi"]), poisoned_text),
    st.tuples(st.just("title"), st.sampled_from(["", "  ", None]) | json_scalars.filter(lambda v: not isinstance(v, str))),
    st.tuples(st.just("categories"), st.integers(65, 300).map(lambda n: "c" * n + " cs.LG")),
    st.tuples(st.just("categories"), st.integers(101, 300).map(lambda n: "cs.LG " * n)),
    st.tuples(st.just("doi"), long_ascii),
    st.tuples(st.just("versions"), (huge.map(lambda n: f"v{n}") | huge | st.sampled_from(["v0", "v-3", "v99999", "v", "v１"]))
              .map(lambda v: with_version(version=v))),
    st.tuples(st.just("versions"), (rfc2822_out_of_range | rfc2822_future | huge | st.just(12345) | st.none()
                                    | st.lists(text, max_size=2)).map(lambda c: with_version(created=c))),
    st.tuples(st.just("versions"), st.just([])| huge | text | st.just(["v1"])),
    st.tuples(st.just("id"), st.sampled_from(["", "x", "2501.00001\x00", "2501.00001\ud800", 2501.00001, None])),
)
metadata_file = st.lists(st.one_of(
    st.sampled_from(GOOD_IDS).map(lambda a: ("good", a)),
    st.tuples(st.sampled_from(GOOD_IDS), metadata_poison).map(lambda p: ("bad", p)),
    (junk_line | unreadable_line).map(lambda b: ("junk", b)),
    st.just(("blank", b"  \n")),
), max_size=8)


def metadata_bytes(entry) -> bytes:
    kind, content = entry
    if kind == "good":
        return as_line(good_metadata(content))
    if kind == "bad":
        arxiv_id, (key, value) = content
        return as_line({**good_metadata(arxiv_id), key: value})
    return content


@FUZZ
@given(entries=metadata_file, batch=st.integers(1, 4))
def test_metadata_files_keep_exactly_their_good_lines_whatever_bad_lines_surround_them(db, entries, batch):
    from unittest import mock

    from citations.models import PaperSnapshot, PaperVersion
    from citations.sources import arxiv_metadata

    data = b"".join(metadata_bytes(e) for e in entries)
    good = [content for kind, content in entries if kind == "good"]
    with undone(), mock.patch.object(arxiv_metadata, "METADATA_BATCH", batch):
        report = import_arxiv_metadata(lines_of(data))
        rejected = sum(report.rejected.values())
        assert report.lines == sum(1 for kind, _ in entries if kind != "blank")
        assert report.created.get("paper_snapshots", 0) + report.unchanged + rejected == report.lines
        assert rejected == len(entries) - len(good) - sum(1 for kind, _ in entries if kind == "blank")
        assert report.unchanged == len(good) - len(set(good))
        held = {s.paper.arxiv_id: (s.title, s.doi, s.latest_version) for s in PaperSnapshot.objects.select_related("paper")}
        assert held == {a: (f"A paper numbered {a}", "10.1234/" + a, 2) for a in good}
        assert PaperVersion.objects.count() == 2 * len(set(good))


REFERENCE_RAWS = ["A. Author. A title of a work. 2020.",
                  "B. Author. Another work, 20٢٠. doi:10.1234/" + "a" * 400,     # a DOI no column holds
                  "C. Author. A third work. arXiv:2509.١١٠٧٦ (2019).",
                  "Tianqi Chen, Bing Xu. Training deep nets with sublinear memory cost.arXiv:1604.06174, 2016."]
reference_items = st.lists(st.sampled_from(REFERENCE_RAWS), min_size=1, max_size=3).map(
    lambda raws: [{"index": n, "raw": raw} for n, raw in enumerate(raws, 1)])


def good_references(arxiv_id: str, version: int, items: list) -> dict:
    return {"arxiv_id": arxiv_id, "version": version, "source": "pdf_text", "references": items}


reference_poison = st.one_of(
    st.tuples(st.just("references"), poisoned_text.map(lambda raw: [{"index": 1, "raw": raw}])),
    st.tuples(st.just("references"), st.integers(10_001, 12_000).map(lambda n: [{"index": 1, "raw": "x" * n}])),
    st.tuples(st.just("references"), (huge.filter(lambda n: not 0 <= n <= 2_147_483_647) | st.just(2**31) | text)
              .map(lambda i: [{"index": i, "raw": REFERENCE_RAWS[0]}])),
    st.tuples(st.just("references"), st.integers(0, 5).map(
        lambda i: [{"index": i, "raw": REFERENCE_RAWS[0]}, {"index": i, "raw": REFERENCE_RAWS[3]}])),
    st.tuples(st.just("references"), st.just([]) | text | st.just([None])),
    st.tuples(st.just("version"), huge.filter(lambda n: not 1 <= n <= 1000) | st.sampled_from(["2", True, None, 1.5])),
    st.tuples(st.just("source"), poisoned_text | st.sampled_from(["ocr", None, 1])),
    st.tuples(st.just("arxiv_id"), st.sampled_from(["2599.00001", "2501.09999", "2501.00001\x00", "\ud800", 2501.00001])),
)
reference_file = st.lists(st.one_of(
    st.tuples(st.sampled_from(GOOD_IDS), st.integers(1, 2), reference_items).map(lambda g: ("good", g)),
    st.tuples(st.sampled_from(GOOD_IDS), reference_poison).map(lambda p: ("bad", p)),
    (junk_line | unreadable_line).map(lambda b: ("junk", b)),
), max_size=6)


@pytest.fixture
def held_papers(db):
    import_arxiv_metadata(lines_of(b"".join(as_line(good_metadata(a)) for a in GOOD_IDS)))


@FUZZ
@given(entries=reference_file)
def test_reference_files_keep_exactly_their_good_lists_whatever_bad_lines_surround_them(held_papers, entries):
    from citations.models import PaperReference, ReferenceExtraction

    newest, expected_lists, expected_references = {}, 0, 0
    for kind, content in entries:
        if kind == "good":
            arxiv_id, version, items = content
            if newest.get((arxiv_id, version)) != items:
                expected_lists, expected_references = expected_lists + 1, expected_references + len(items)
            newest[(arxiv_id, version)] = items
    lines = [as_line(good_references(*c)) if k == "good" else
             as_line({**good_references(c[0], 1, [{"index": 1, "raw": REFERENCE_RAWS[0]}]), c[1][0]: c[1][1]})
             if k == "bad" else c for k, c in entries]
    with undone():
        report = ingest_references(lines_of(b"".join(lines)))
        rejected = sum(report.rejected.values())
        assert report.created.get("reference_lists", 0) + report.unchanged + rejected == report.lines == len(entries)
        assert rejected == sum(1 for kind, _ in entries if kind != "good")
        assert (report.created.get("reference_lists", 0), report.created.get("references", 0)) == (
            expected_lists, expected_references)
        assert (ReferenceExtraction.objects.count(), PaperReference.objects.count()) == (expected_lists, expected_references)
        for (arxiv_id, version), items in newest.items():
            extraction = (ReferenceExtraction.objects.filter(paper_version__paper__arxiv_id=arxiv_id,
                                                             paper_version__version=version)
                          .order_by("-observed_at", "-id").first())
            assert [(r.reference_index, r.raw_text) for r in extraction.references.order_by("reference_index")] == [
                (i["index"], i["raw"]) for i in items]
        assert all(len(doi) <= 255 for doi in PaperReference.objects.exclude(doi=None).values_list("doi", flat=True))
        assert not PaperReference.objects.exclude(arxiv_id=None).exclude(arxiv_id="1604.06174").exists()


COUNT_TIMES = ["2026-09-01T00:00:00Z", "2026-10-01T12:00:00+02:00", "1990-01-01T00:00:00Z"]
COUNT_SOURCES = ["openalex", "semantic_scholar"]


def good_count(arxiv_id: str, source: str, observed_at: str, by_doi: bool) -> dict:
    # The count follows from the measurement's key, so a repeat is the same measurement.
    count = GOOD_IDS.index(arxiv_id) * 100 + COUNT_SOURCES.index(source) * 10 + COUNT_TIMES.index(observed_at)
    named = {"doi": "https://doi.org/10.1234/" + arxiv_id.upper()} if by_doi else {"arxiv_id": arxiv_id}
    return {**named, "source": source, "count": count, "observed_at": observed_at}


count_poison = st.one_of(
    st.tuples(st.just("doi"), poisoned_text | long_ascii),
    st.tuples(st.just("arxiv_id"), poisoned_text | st.sampled_from([2501.00001, "2599.00001", "x"])),
    st.tuples(st.just("source"), poisoned_text | st.sampled_from(["Bad Name", "", None, 1, "x" * 41])),
    st.tuples(st.just("count"), huge.filter(lambda n: not 0 <= n <= 2_000_000_000) | st.sampled_from([True, "3", None, 1.5])),
    st.tuples(st.just("observed_at"), st.sampled_from(["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-12:00",
                                                       "2150-01-01T00:00:00Z", "2999-01-01T00:00:00Z",
                                                       "1899-12-31T00:00:00Z", "2026-09-01", "2026-09-01T00:00:00",
                                                       12345, None]) | poisoned_text),
)
count_file = st.lists(st.one_of(
    st.tuples(st.sampled_from(GOOD_IDS), st.sampled_from(COUNT_SOURCES), st.sampled_from(COUNT_TIMES), st.booleans())
    .map(lambda g: ("good", g)),
    st.tuples(st.sampled_from(GOOD_IDS), count_poison).map(lambda p: ("bad", p)),
    (junk_line | unreadable_line).map(lambda b: ("junk", b)),
), max_size=8)


def count_bytes(entry) -> bytes:
    kind, content = entry
    if kind == "good":
        return as_line(good_count(*content))
    if kind == "bad":
        arxiv_id, (key, value) = content
        base = good_count(arxiv_id, "openalex", COUNT_TIMES[0], by_doi=key == "doi")
        return as_line({**base, key: value})
    return content


@FUZZ
@given(entries=count_file)
def test_citation_count_files_keep_exactly_their_good_lines_whatever_bad_lines_surround_them(held_papers, entries):
    from citations.models import CitationMeasurement
    from citations.validation import parse_time

    good = [good_count(*content) for kind, content in entries if kind == "good"]
    # In file order: a measurement dated before one held for its paper and source is back-dated, refused.
    expected, newest, back_dated = set(), {}, 0
    for g in good:
        key, when = (GOOD_IDS[g["count"] // 100], g["source"]), parse_time(g["observed_at"], what="t")
        if key in newest and when < newest[key]:
            back_dated += 1
            continue
        newest[key] = when
        expected.add((*key, when, g["count"]))
    with undone():
        report = import_citation_counts(lines_of(b"".join(count_bytes(e) for e in entries)))
        rejected = sum(report.rejected.values())
        assert report.created.get("measurements", 0) + report.unchanged + rejected == report.lines == len(entries)
        assert rejected == len(entries) - len(good) + back_dated
        assert report.unchanged == len(good) - back_dated - len(expected)
        assert set(CitationMeasurement.objects.values_list("paper__arxiv_id", "source", "observed_at", "count")) == expected


# --- standing sources ---------------------------------------------------------------------------------

RW_HEADER = ("Record ID,Title,Subject,Institution,Journal,Publisher,Country,Author,URLS,ArticleType,RetractionDate,"
             "RetractionDOI,RetractionPubMedID,OriginalPaperDate,OriginalPaperDOI,OriginalPaperPubMedID,"
             "RetractionNature,Reason,Paywalled,Notes\n")
csv_cell = st.sampled_from(["", "10.1155/2021/6907871", "Retraction", "Correction", "8/16/2023 0:00", "x,y",
                            '"quoted"', "50438"]) | text


@FUZZ
@given(rows=st.lists(st.lists(csv_cell, min_size=0, max_size=22), max_size=5), header=st.booleans())
def test_retraction_watch_files_sync_whole_or_fail_cleanly(db, rows, header):
    from citations.models import ScholarlyWorkEvent, StandingSourceSync

    body = (RW_HEADER if header else "") + "".join(",".join(row) + "\n" for row in rows)
    report = sync_standing_source(source="retraction_watch", data=body.encode())
    assert report.status in ("succeeded", "failed")
    run = StandingSourceSync.objects.get(pk=report.sync_id)
    assert run.status == report.status
    if report.status == "failed":
        assert run.observed_at is None and not ScholarlyWorkEvent.objects.filter(observed_at__gte=run.started_at)


@FUZZ
@given(document=json_values | st.fixed_dictionaries({"message": st.fixed_dictionaries({
    "DOI": st.sampled_from(["10.5555/12345678", "nope"]) | json_values,
    "updated-by": st.lists(st.fixed_dictionaries({"DOI": st.sampled_from(["10.1/x"]) | json_values,
                                                  "type": st.sampled_from(["retraction", "bogus"]) | json_values,
                                                  "updated": json_values}), max_size=3) | json_values})}))
def test_crossref_messages_sync_or_fail_cleanly(db, document):
    report = sync_standing_source(source="crossref", data=as_line(document))
    assert report.status in ("succeeded", "failed")


def _rw_good_row(values) -> str:
    record_id, doi, nature, when = values
    return (f"{record_id},A title,,,,,,,,,{when},10.1155/2023/9804945,0,,{doi},0,{nature},\"+Paper Mill;\",No,\n")


rw_good_rows = st.tuples(st.integers(1, 30), st.sampled_from(["10.1155/2021/6907871", "10.1000/a", "10.1000/b"]),
                         st.sampled_from(["Retraction", "Correction", "Expression of concern", "Reinstatement"]),
                         st.sampled_from(["8/16/2023 0:00", "", "2001-02-03"])).map(_rw_good_row)
rw_junk_rows = st.lists(csv_cell | st.just("\x00") | st.just("10.1000/" + "x" * 300) | st.just("1/1/1850"),
                        min_size=0, max_size=22).map(lambda cells: ",".join(cells) + "\n")


def _stored_but_syncs() -> dict[str, int]:
    return {label: n for label, n in stored().items() if label != "citations.StandingSourceSync"}


def _succeeded_syncs() -> int:
    from citations.models import StandingSourceSync

    return StandingSourceSync.objects.filter(status="succeeded").count()


def _accounts_for_what_it_read(report, rows_read: int, before: dict) -> None:
    """Every row read is an event or a rejection, and the events stored are the new and revised ones."""
    counts, rejected = report.counts, sum(report.rejected.values())
    assert counts["accepted"] + rejected == counts["rows"] == rows_read
    added = _stored_but_syncs()["citations.ScholarlyWorkEvent"] - before["citations.ScholarlyWorkEvent"]
    assert added == counts["new"] + counts["revised"]
    assert counts["events"] == counts["new"] + counts["revised"] + counts["unchanged"] <= counts["accepted"]


def _csv_data_rows(body: str) -> int:
    """Rows as the csv module reads them, but for a row whose quote never closes: that one is a row
    (rejected), and the lines after its first are rows again (citations/standing/retraction_watch.csv_rows)."""
    import io

    from citations.standing.events import RejectedRow
    from citations.standing.retraction_watch import csv_rows

    rows = list(csv_rows(io.StringIO(body, newline="")))[1:]
    return sum(1 for row in rows if isinstance(row, RejectedRow) or any(cell.strip() for cell in row))


@FUZZ
@given(rows=st.lists(rw_good_rows | rw_junk_rows, max_size=8))
def test_every_retraction_watch_row_read_is_stored_or_rejected_else_nothing_changes(db, rows):
    body = RW_HEADER + "".join(rows)
    before, syncs = _stored_but_syncs(), _succeeded_syncs()
    report = sync_standing_source(source="retraction_watch", data=body.encode())
    if report.status == "succeeded":
        _accounts_for_what_it_read(report, _csv_data_rows(body), before)
        assert _succeeded_syncs() == syncs + 1
    else:
        assert report.error and _stored_but_syncs() == before and _succeeded_syncs() == syncs


crossref_relation = st.fixed_dictionaries({
    "DOI": st.sampled_from(["10.1000/n1", "10.1000/n2", "10.1000/" + "n" * 300]) | json_values,
    "type": st.sampled_from(["retraction", "correction", "new_version", "bogus"]) | json_values,
    "updated": st.fixed_dictionaries({"date-parts": st.lists(st.lists(st.integers(-5, 3000) | json_values,
                                                                      max_size=3), max_size=1)}) | json_values})
crossref_line = st.fixed_dictionaries({
    "DOI": st.sampled_from(["10.1000/w1", "10.1000/w2", "nope"]) | json_values,
    "updated-by": st.lists(crossref_relation, max_size=3) | json_values,
    "update-to": st.lists(crossref_relation, max_size=2) | json_values}).map(as_line)
crossref_work_line = st.fixed_dictionaries({"DOI": st.sampled_from(["10.1000/w1", "10.1000/w2"]),
                                            "updated-by": st.lists(crossref_relation, max_size=3)}).map(as_line)
junk_line = text.map(lambda t: t.encode() + b"\n") | st.just(b"[" * 5000 + b"\n") | st.just(b'{"DOI": "10.1000/cut')


@FUZZ
@given(first=crossref_work_line | crossref_work_line | crossref_line | json_values.map(as_line) | junk_line
       | st.binary(max_size=40).map(lambda b: b + b"\n"),
       lines=st.lists(crossref_line | crossref_line | json_values.map(as_line) | junk_line, max_size=5))
def test_every_crossref_line_read_is_stored_or_rejected_else_nothing_changes(db, first, lines):
    body = first + b"".join(lines)
    before, syncs = _stored_but_syncs(), _succeeded_syncs()
    report = sync_standing_source(source="crossref", data=body)
    if report.status != "succeeded":
        assert report.error and _stored_but_syncs() == before and _succeeded_syncs() == syncs
        return
    assert report.counts["works"] >= 1
    relations_and_rejections = report.counts["rows"]
    _accounts_for_what_it_read(report, relations_and_rejections, before)
    text = body.decode("utf-8-sig")
    try:
        json.loads(text)
    except ValueError:
        # Read as JSON lines: each line that does not parse is one rejection of its own.
        problems = [_problem(line) for line in text.splitlines() if line.strip()]
        assert report.rejected["not JSON"] == problems.count("not JSON")
        assert report.rejected["JSON nested too deeply to read"] == problems.count("too deep")


def _problem(line: str) -> str | None:
    try:
        json.loads(line)
    except RecursionError:
        return "too deep"
    except ValueError:
        return "not JSON"
    return None


# --- works files: good works kept, bad lines rejected, whatever surrounds them ----------------------------

WORK_NUMBERS = range(1, 5)
work_poison = st.one_of(
    poisoned_text.map(lambda t: "10.1234/" + "".join(t.split())),       # a DOI no column holds
    huge | st.just(True) | st.none() | st.lists(text, max_size=2),      # not a DOI
)


def good_work(source: str, n: int) -> dict:
    if source == "crossref":
        return {"DOI": f"10.1234/w{n}", "title": [f"A work numbered {n}"], "issued": {"date-parts": [[2020]]}}
    return {"id": f"https://openalex.org/W10{n}", "doi": f"https://doi.org/10.1234/w{n}",
            "title": f"A work numbered {n}", "publication_year": 2020}


def bad_work(source: str, n: int, value) -> dict:
    work = good_work(source, n)
    if source == "crossref":
        return {**work, "DOI": value}
    # An OpenAlex work is known by its own id: a DOI it cannot hold rejects it, a missing one does not.
    return {**work, "id": value if not isinstance(value, str) else work["id"], "doi": value}


works_file = st.lists(st.one_of(
    st.sampled_from(WORK_NUMBERS).map(lambda n: ("good", n)),
    st.tuples(st.sampled_from(WORK_NUMBERS), work_poison).map(lambda p: ("bad", p)),
    # (not "[1, 2]": a list is a list of works, each counted on its own)
    (unreadable_line.filter(lambda b: b != b"[1, 2]\n") | st.binary(max_size=40).filter(lambda b: b"\n" not in b and b"\r" not in b)
     .map(lambda b: b"\xff" + b + b"\n")).map(lambda b: ("junk", b)),
), max_size=8)


@FUZZ
@given(source=st.sampled_from(["crossref", "openalex"]), entries=works_file)
def test_works_files_keep_exactly_their_good_works_whatever_bad_lines_surround_them(db, source, entries):
    from citations.models import CitedWork, WorkIdentifier
    from citations.works.importer import import_works

    # A good first line: the file is read as JSON lines (a bad first line may make it one document).
    entries = [("good", 1)] + entries
    lines = [as_line(good_work(source, c)) if k == "good" else as_line(bad_work(source, *c)) if k == "bad" else c
             for k, c in entries]
    good = {f"10.1234/w{c}" for k, c in entries if k == "good"}
    with undone():
        report = import_works(lines_of(b"".join(lines)), source=source)
        assert report.lines == len(entries) and not report.stopped
        assert report.rejected_lines == sum(1 for k, _ in entries if k != "good")
        assert set(report.examples.values()) <= {n for n, (k, _) in enumerate(entries, 1) if k != "good"}
        assert set(WorkIdentifier.objects.filter(kind="doi").values_list("value", flat=True)) == good
        assert CitedWork.objects.count() == len(good)


# --- Retraction Watch works: good rows kept, bad rows rejected, whatever surrounds them -------------------

RW_WORK_ROWS = range(1, 6)
rw_bad_row = st.one_of(
    st.sampled_from([b"Caf\xe9", b"\xff\xfe", b"\xc3"]).map(lambda bad: b"90,A title " + bad + b",,,,,,,,,,,,,10.1234/bad,0,Retraction,,No,\n"),
    UNSTORABLE.filter(lambda c: c == "\x00").map(lambda c: f"91,A NUL,,,,,,,,,,,,,10.1234/n{c},0,Retraction,,No,\n".encode()),
    st.just(b'92,"A title whose quote never closes,,,,,,,,,,,,,10.1234/q,0,Retraction,,No,\n'),
    st.just(b"93,too,few,columns\n"),
    st.just(b"94,No DOI,,,,,,,,,,,,,,0,Retraction,,No,\n"),
)


def _rw_work_row(n: int) -> bytes:
    return f"{n},A title {n},,,,,,,,,8/16/2023 0:00,10.1155/2023/9804945,0,,10.1234/rw{n},0,Retraction,,No,\n".encode()


@FUZZ
@given(entries=st.lists(st.one_of(st.sampled_from(RW_WORK_ROWS).map(lambda n: ("good", n)),
                                  rw_bad_row.map(lambda b: ("bad", b))), max_size=8))
def test_retraction_watch_works_files_keep_exactly_their_good_rows_whatever_bad_rows_surround_them(db, entries):
    from citations.models import CitedWork
    from citations.works.importer import import_works

    data = RW_HEADER.encode() + b"".join(_rw_work_row(c) if k == "good" else c for k, c in entries)
    with undone():
        report = import_works(lines_of(data), source="retraction_watch")
        assert report.lines == len(entries) and not report.stopped
        assert report.rejected_lines == sum(1 for k, _ in entries if k == "bad")
        assert set(CitedWork.objects.values_list("doi", flat=True)) == {f"10.1234/rw{c}" for k, c in entries if k == "good"}
