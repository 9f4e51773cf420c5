"""Every importer, fed arbitrary and mutated input: it never crashes, and never writes half of a thing."""
import json

import pytest
from django.apps import apps
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citations.canonical import canonical_bytes, context_digest, observation_digest
from citations.ingest import import_arxiv_metadata, import_citation_counts, ingest_references, lines_of
from citations.record_import import RecordRefused, import_record
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
        from citations.record import build_record
        from citations.record_import import BUILD_MINUTE
        from citations.timestamps import parse_z

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
    assert taken >= 0
    # Every snapshot written comes from a line that was taken; nothing from a rejected one.
    assert PaperSnapshot.objects.count() - before == report.created.get("paper_snapshots", 0) <= taken


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
