"""The import's fast paths store what the plain ones did: orjson reads JSON as json does, text COPY
escapes what needs escaping, the reading thread hands over records and errors in order."""
import gzip
import json
import uuid

import pytest
from django.db import connection

from citations.input_files import lines_of
from citations.models import CitedWork, PaperTitleKey, WorkIdentifier, WorkTitleKey
from citations.parsing.text import title_fingerprints
from citations.sql_arrays import any_of
from citations.works import batch_plan, batch_store, importer, read_ahead
from citations.works.importer import import_works
from citations.works.sources import loads

pytestmark = pytest.mark.usefixtures("db")

JSON_CASES = [b'{"a":1,"a":2}', b'\xef\xbb\xbf{"a":1}', b"-0", b"-0.0", b"1e400", b"12345678901234567890123",
              b"18446744073709551615", b"18446744073709551616", b"-9223372036854775809", b'"\\ud800"',
              b'"\\ud83d\\ude00"', b"1.0000000000000002", b"NaN", b'"\xff"', b'{"a":"\x01"}', b'"\xed\xa0\x80"',
              b"[" * 1100 + b"]" * 1100, b"\x00\x00\x00{", b'{"a":1} x', b"", b'{"\xc3\xa9":[1, 2.5e-3, null]}\n',
              b'{"volume": 123456789012345678901234567890, "title": ["x"]}',
              # a document longer than the lines loads copies to look for long numbers in
              pytest.param(b'{"pad": "' + b"x" * (1 << 20) + b'", "n": 123456789012345678901234}', id="long-document"),
              pytest.param(b'{"pad": "' + b"x" * (1 << 20) + b'", "n": 1234567890123456789}', id="long-document-64-bit")]


def outcome(parse, data):
    try:
        value = parse(data)
    except Exception as error:             # the same exception class is the same rejection reason
        return "raises", type(error).__name__
    return "value", repr(value)


@pytest.mark.parametrize("data", JSON_CASES)
def test_loads_gives_what_json_gives(data):
    assert outcome(loads, data) == outcome(json.loads, data)


def crossref_line(doi, title, **fields):
    return json.dumps({"DOI": doi, "title": [title], "type": "journal-article", **fields}).encode()


def test_values_with_backslashes_and_tabs_are_stored_as_read():
    title = "C:\\path \\N and\ta \\\\ tab"          # the reader folds the tab; backslashes stay
    lines = [crossref_line("10.1234/a\\b", title, author=[{"family": "O\\Brien", "sequence": "first"}],
                           volume="\\N", page="12\\-13"),
             crossref_line("10.1234/plain", "Plain title of a work here")]
    report = import_works(lines_of(b"\n".join(lines)), source="crossref")
    assert report.created["works"] == 2 and not report.rejected
    work = CitedWork.objects.get(doi="10.1234/a\\b")
    assert (work.title, work.first_author, work.volume, work.first_page) == (
        "C:\\path \\N and a \\\\ tab", "O\\Brien", "\\N", "12\\")
    assert set(WorkIdentifier.objects.filter(work=work).values_list("value", flat=True)) == {"10.1234/a\\b"}
    assert set(WorkTitleKey.objects.filter(work=work).values_list("key", flat=True)) == title_fingerprints(work.title)
    assert CitedWork.objects.get(doi="10.1234/plain").volume is None


@pytest.mark.skipif(connection.vendor != "postgresql", reason="COPY is the PostgreSQL path")
def test_copy_escapes_tabs_line_breaks_carriage_returns_and_backslashes():
    work = CitedWork.objects.create(snapshot_observed_at="2025-01-01T00:00:00Z")
    values = ["a\tb", "a\nb", "a\rb", "a\\b", "\\N", "\\.", "x\\\ty\n"]
    batch_store._copy("work_identifiers", ("kind", "value", "work_id", "source", "observed_at"),
                      [("dblp", value, str(work.id), "dblp", "2025-01-01T00:00:00+00:00") for value in values])
    assert sorted(WorkIdentifier.objects.filter(work=work).values_list("value", flat=True)) == sorted(values)
    batch_store._copy("work_identifiers", ("kind", "value", "work_id", "source", "observed_at"),
                      [("doi", "10.1/x", str(work.id), "crossref", None)][:0])      # nothing: no statement
    with pytest.raises(ValueError):
        batch_store._copy_lines("work_title_keys", ("key", "work_id"), [f"a\\b\t{work.id}\n"])


def test_new_work_ids_are_version_7_uuids_that_follow_each_other():
    ids = batch_plan._uuid7_texts(2000)
    assert len(set(ids)) == 2000 and ids == sorted(ids)
    later = batch_plan._uuid7_texts(1)[0]
    for text in ids:
        value = uuid.UUID(text)
        assert str(value) == text and value.version == 7 and value.variant == uuid.RFC_4122
    # The first 48 bits are the time in milliseconds: a later batch's ids come after.
    assert int(later[:8] + later[9:13], 16) >= int(ids[-1][:8] + ids[-1][9:13], 16)
    assert abs(int(ids[0][:8] + ids[0][9:13], 16) / 1000 - __import__("time").time()) < 60


def test_a_file_that_breaks_off_raises_where_it_breaks_and_keeps_the_batches_before(monkeypatch):
    monkeypatch.setattr(importer, "BATCH", 3)
    monkeypatch.setattr(read_ahead, "READ_AHEAD_CHUNK", 2)

    def lines():
        for n in range(7):
            yield crossref_line(f"10.1234/w{n}", f"Work number {n} of a broken file") + b"\n"
        raise EOFError("Compressed file ended before the end-of-stream marker was reached")

    with pytest.raises(EOFError):
        import_works(lines(), source="crossref")
    # Two whole batches were written before the file broke; the third, unfinished, was not.
    assert CitedWork.objects.count() == 6


def test_a_gzip_file_is_read_the_same_through_the_reading_thread(tmp_path, monkeypatch):
    monkeypatch.setattr(importer, "BATCH", 4)
    monkeypatch.setattr(read_ahead, "READ_AHEAD_CHUNK", 3)
    lines = [crossref_line(f"10.1234/g{n}", f"Gzip work {n}") for n in range(10)] + [b"not json"]
    path = tmp_path / "w.jsonl.gz"
    path.write_bytes(gzip.compress(b"\n".join(lines)))
    report = import_works(gzip.open(path, "rb"), source="crossref")
    assert report.created["works"] == 10 and report.lines == 11
    assert dict(report.rejected) == {"not JSON": 1} and report.examples["not JSON"] == 11
    again = import_works(gzip.open(path, "rb"), source="crossref")
    assert not again.created.get("works") and again.unchanged == 10


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the array parameter is the PostgreSQL path")
def test_identifiers_are_found_whether_or_not_they_hold_the_separator_the_lookup_splits_on():
    work = CitedWork.objects.create(snapshot_observed_at="2025-01-01T00:00:00Z")
    for value in ("journals/x/A\x1fB", "10.1234/plain"):
        WorkIdentifier.objects.create(kind="dblp", value=value, work=work, source="dblp",
                                      observed_at="2025-01-01T00:00:00Z")
    for values in (["10.1234/plain", "10.1234/unknown"], ["journals/x/A\x1fB", "10.1234/plain"]):
        sql, params = any_of(values)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT value FROM work_identifiers WHERE value = {sql}", params)
            assert {value for value, in cursor.fetchall()} == set(values) - {"10.1234/unknown"}


# What an imported work costs on disk: each index here is written once per work or per title key.
# A column's unique=True on PostgreSQL adds a LIKE-pattern copy of its index, and a foreign key its
# own index; these are the ones the lookups use, and no more.
WORKS_INDEXES = {
    "cited_works": {"cited_works_pkey", "cited_works_doi_key", "cited_works_arxiv_id_key", "work_by_volume_page",
                    "work_of_paper"},
    "work_identifiers": {"work_identifiers_pkey", "identifier_names_one_work", "identifiers_of_work"},
    "work_title_keys": {"work_title_keys_pkey"},
    "paper_title_keys": {"paper_title_keys_pkey", "keys_of_paper"},
}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="index sizes matter on PostgreSQL")
@pytest.mark.parametrize("table", sorted(WORKS_INDEXES))
def test_the_works_tables_carry_only_the_indexes_their_lookups_use(table):
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = %s::regclass", [table])
        assert {name for name, in cursor.fetchall()} == WORKS_INDEXES[table]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="collations are PostgreSQL's")
def test_identifiers_compare_as_bytes_and_their_lookups_use_the_indexes():
    """Migration 0022: the identifier columns the importer writes and looks up compare as bytes (the
    model state does not carry it, so an AlterField would silently drop it), and the importer's
    lookups, whose values have the default collation, still read those indexes."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT table_name, column_name, collation_name FROM information_schema.columns "
                       "WHERE table_name IN ('cited_works', 'work_identifiers') AND collation_name IS NOT NULL")
        collations = {(table, column): collation for table, column, collation in cursor.fetchall()}
        for column in ("doi", "arxiv_id", "volume", "first_page"):
            assert collations[("cited_works", column)] == "C"
        assert collations[("work_identifiers", "value")] == collations[("work_identifiers", "kind")] == "C"
        cursor.execute("SET LOCAL enable_seqscan = off")
        for sql, index in (("SELECT work_id FROM work_identifiers WHERE value = {}", "identifier_names_one_work"),
                           ("SELECT id FROM cited_works WHERE doi = {}", "cited_works_doi_key")):
            any_value, params = any_of(["10.1234/a", "10.1234/b"])
            cursor.execute("EXPLAIN " + sql.format(any_value), params)
            assert index in " ".join(line for line, in cursor.fetchall())


@pytest.mark.skipif(connection.vendor != "postgresql", reason="query plans are PostgreSQL's")
def test_candidates_sharing_a_title_key_are_read_by_index():
    for model in (PaperTitleKey, WorkTitleKey):
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute(f"EXPLAIN {model.objects.filter(key__in=[1, 2]).values_list('key').query}")
            plan = " ".join(line for line, in cursor.fetchall())
        assert f"{model._meta.db_table}_pkey" in plan


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the file is read in a child process on PostgreSQL")
def test_the_reading_process_dying_is_an_error_and_the_batches_before_it_stay(monkeypatch):
    import os
    import time

    monkeypatch.setattr(importer, "BATCH", 3)
    monkeypatch.setattr(read_ahead, "READ_AHEAD_CHUNK", 2)

    def lines():
        for n in range(7):
            yield crossref_line(f"10.1234/k{n}", f"Work number {n} of a killed reader") + b"\n"
        time.sleep(0.5)                 # (what it read is handed over first)
        os._exit(9)                     # in the child: as if the kernel killed it

    with pytest.raises(read_ahead.ReaderDied, match="exit code 9"):
        import_works(lines(), source="crossref")
    assert CitedWork.objects.count() == 6
