"""A file that is empty, cut, not the source's, or holds nothing readable fails its sync and changes
nothing; a row that cannot be stored is rejected with a reason and the rest of the file is kept."""
import json

import pytest

from citations.models import ScholarlyWorkEvent, StandingSourceSync
from citations.standing.sync import sync_standing_source
from citations.validation import RANGE_TEXT
from tests.standing.test_checks import CITED_DOI, CROSSREF_WORK, HEADER, RW_DERIVED, needs, rw_row

GOOD_RW = (HEADER + rw_row(50438, CITED_DOI)).encode()
GOOD_CROSSREF = json.dumps({"message": {"DOI": CITED_DOI, "updated-by": [
    {"DOI": "10.1155/2023/9804945", "type": "retraction", "updated": {"date-parts": [[2023, 8, 16]]}}]}}).encode()
DEEP = b"[" * 100_000 + b"]" * 100_000
LONG_DOI = "10.1000/" + "x" * 300
HUGE_YEAR = "9" * 5000
AS_A_NUMBER = "__a JSON number of 5,000 digits__"     # int() refuses to make it; the JSON text holds it


def crossref_work(*relations, doi="10.1000/work") -> dict:
    return {"DOI": doi, "updated-by": list(relations)}


def relation(doi="10.1000/notice", kind="retraction", parts=((2023, 8, 16),), **extra) -> dict:
    return {"DOI": doi, "type": kind, "updated": {"date-parts": [list(p) for p in parts]}, **extra}


def lines(*documents) -> bytes:
    return b"".join(json.dumps(d).encode() + b"\n" for d in documents)


def held() -> tuple:
    newest = StandingSourceSync.objects.filter(status="succeeded").order_by("-observed_at").first()
    return (list(ScholarlyWorkEvent.objects.order_by("id").values()), newest.pk if newest else None)


def fails(source: str, data: bytes) -> str:
    """The sync fails, keeps the events and the standing time held before it; returns its error."""
    sync_standing_source(source=source, data=GOOD_RW if source == "retraction_watch" else GOOD_CROSSREF)
    before = held()
    report = sync_standing_source(source=source, data=data)
    run = StandingSourceSync.objects.get(pk=report.sync_id)
    assert (report.status, run.status, run.observed_at, run.error) == ("failed", "failed", None, report.error)
    assert held() == before
    return report.error


def succeeds(source: str, data: bytes):
    report = sync_standing_source(source=source, data=data)
    assert report.status == "succeeded", report.error
    return report


# --- files that fail ------------------------------------------------------------------------------------

SAMPLE = CROSSREF_WORK.read_bytes() if CROSSREF_WORK.exists() else b'{"message": {"DOI": "10.5555/12345678"}}'
HALF_OF_THE_SAMPLE = SAMPLE[:len(SAMPLE) // 2]


@pytest.mark.parametrize("source, data, error", [
    ("retraction_watch", b"", "the file is empty"),
    ("crossref", b"", "the file is empty"),
    ("retraction_watch", b"\n  \r\n\n", "the file is empty (only blank space)"),
    ("retraction_watch", b"\xef\xbb\xbf", "the file is empty (only blank space)"),
    ("retraction_watch", HEADER.encode(), "no data rows"),
    ("retraction_watch", HEADER.encode() + b",,,\n\n", "no data rows"),
    ("retraction_watch", b"Title,DOI,Status\nA,10.1000/x,Retracted\n",
     "the header is not Retraction Watch's (Record ID, ..., OriginalPaperDOI, RetractionNature, ...)"),
    ("retraction_watch", b"42", "the header is not Retraction Watch's"),
    ("retraction_watch", (HEADER + rw_row(1, "") + rw_row(2, "not a doi") + rw_row(3, "")).encode(),
     "no data row could be read: all 3 rejected (most often, 2 times: no OriginalPaperDOI: nothing to attach the "
     "notice to)"),
    ("retraction_watch", HEADER.encode() + b"\xff\xfe1,2\n",
     f"the file is not UTF-8 text: byte {len(HEADER):,} (0xff) cannot be decoded"),
    ("crossref", b'{"message": "\xc3\x28"}', "the file is not UTF-8 text: byte 13 (0xc3) cannot be decoded"),
    ("crossref", HALF_OF_THE_SAMPLE, "not JSON: it ends in the middle (truncated?)"),
    ("crossref", GOOD_CROSSREF[:-20], "not JSON: it ends in the middle (truncated?)"),
    ("crossref", b'{"message": {"DOI": "10.1000/x", "updated-by": [{"DOI": "10.1000/y',
     "not JSON: it ends in the middle"),
    ("crossref", b"42",
     "no Crossref work in the file: all 1 rejected (most often, 1 times: a work is not a JSON object)"),
    ("crossref", b"[]", "no Crossref work in the file"),
    ("crossref", b'{"status": "ok", "message": {"items": []}}', "no Crossref work in the file"),
    ("crossref", b'{"message": {"title": ["no DOI"]}}', "no Crossref work in the file: all 1 rejected (most often, "
                                                        "1 times: a work without a DOI)"),
    ("crossref", b"hello\nworld\n", "not JSON: Expecting value at line 1, column 1"),
    ("crossref", b'{"a": 1} trailing', "not JSON: Extra data at line 1, column 10"),
    ("crossref", DEEP, "the JSON is nested too deeply to read"),
])
def test_a_file_with_nothing_readable_fails_and_keeps_what_was_held(db, source, data, error):
    assert fails(source, data).startswith(error)


def test_a_cell_past_the_csv_field_limit_is_a_rejected_row_and_the_rows_after_it_are_read(db):
    report = succeeds("retraction_watch", (HEADER + rw_row(1, CITED_DOI, reason="x" * 131_073)
                                           + rw_row(2, "10.1000/after")).encode())
    assert dict(report.rejected) == {"a cell runs on over more than 131,072 characters (an unclosed quote?): the "
                                     "row is rejected, the lines after its first are read as rows": 1}
    assert report.counts["new"] == 1


def test_a_cell_at_the_csv_field_limit_is_read(db):
    report = succeeds("retraction_watch", (HEADER + rw_row(1, CITED_DOI, reason="x" * 131_072)).encode())
    assert report.counts["new"] == 1


@pytest.mark.parametrize("after", [3, 2_000], ids=["to the end of the file", "past the bound"])
def test_an_unclosed_quote_is_a_rejected_row_and_the_rows_it_swallowed_are_read(db, after):
    rows = rw_row(1, CITED_DOI) + '2,"an unclosed quote,\n' + "".join(rw_row(n, f"10.1000/r{n}") for n in range(3, 3 + after))
    report = succeeds("retraction_watch", (HEADER + rows).encode())
    (reason,) = report.rejected
    assert reason.startswith("a cell runs on over ") and "(an unclosed quote?)" in reason
    assert (report.counts["new"], report.rejected[reason]) == (1 + after, 1)


# --- rows that are rejected, the file kept --------------------------------------------------------------


def test_real_data_with_rows_without_a_doi_succeeds_with_the_rejections_counted(db):
    report = succeeds("retraction_watch", (HEADER + rw_row(1, CITED_DOI) + rw_row(2, "Unavailable")).encode())
    assert (report.counts["events"], dict(report.rejected)) == (
        1, {"no OriginalPaperDOI: nothing to attach the notice to": 1})


def test_the_4827_real_rows_sync_whole(db):
    report = succeeds("retraction_watch", needs(RW_DERIVED).read_bytes())
    # 27 rows repeat another's key (the derived file has no Record IDs): the last of each stands.
    assert (report.counts["rows"], report.counts["accepted"], report.counts["new"], report.rejected) == (
        4827, 4827, 4800, {})


def test_the_crossref_sample_syncs_and_counts_its_work(db):
    report = succeeds("crossref", needs(CROSSREF_WORK).read_bytes())
    assert (report.counts["works"], report.counts["events"]) == (1, 2)


def test_a_crossref_work_without_notices_is_content(db):
    report = succeeds("crossref", json.dumps({"message": {"DOI": "10.1000/quiet"}}).encode())
    assert (report.counts["works"], report.counts["events"], report.rejected) == (1, 0, {})


@pytest.mark.parametrize("row, reason", [
    (rw_row(2, "10.1000/a\x00b"), "OriginalPaperDOI holds a NUL character"),
    (rw_row(2, CITED_DOI, notice="10.1000/n\x00"), "RetractionDOI holds a NUL character"),
    (rw_row(2, CITED_DOI, reason="+Paper Mill\x00;"), "Reason holds a NUL character"),
    (rw_row(2, LONG_DOI), "OriginalPaperDOI is longer than 255 characters"),
    (rw_row(2, CITED_DOI, notice=LONG_DOI), "RetractionDOI is longer than 255 characters"),
    (rw_row(2, CITED_DOI, when="1/1/1850 0:00"), f"RetractionDate 1850-01-01 is not {RANGE_TEXT}"),
    (rw_row(2, CITED_DOI, when="12/31/2999"), f"RetractionDate 2999-12-31 is not {RANGE_TEXT}"),
    (rw_row(2, CITED_DOI, when=f"1/1/{HUGE_YEAR}"), f"unreadable RetractionDate '1/1/{HUGE_YEAR[:26]}'"),
    ("3,too,few\x00\n", "3 columns, the header has 20"),
])
def test_a_retraction_watch_row_that_cannot_be_stored_is_rejected_with_its_reason(db, row, reason):
    report = succeeds("retraction_watch", (HEADER + rw_row(1, CITED_DOI) + row).encode())
    assert (report.counts["new"], dict(report.rejected)) == (1, {reason: 1})


def test_a_nul_in_a_cell_that_is_not_stored_rejects_nothing(db):
    row = rw_row(1, CITED_DOI).replace("A title", "A ti\x00tle")
    assert succeeds("retraction_watch", (HEADER + row).encode()).rejected == {}


@pytest.mark.parametrize("bad, reason", [
    (relation(parts=((AS_A_NUMBER, 1, 1),)), "updated date-parts ['" + "9" * 36),
    (relation(parts=((HUGE_YEAR, 1, 1),)), "updated date-parts ['" + "9" * 36),
    (relation(parts=((2999, 1, 1),)), f"the relation's updated date 2999-01-01 is not {RANGE_TEXT}"),
    (relation(parts=((1066, 10, 14),)), "the relation's updated date 1066-10-14 is not between"),
    (relation(parts=((2023, 13, 1),)), "updated date-parts [2023, 13, 1] is not a date"),
    (relation(parts=(("2023", "1"),)), "updated date-parts ['2023', '1'] is not a date"),
    (relation(doi=LONG_DOI), "the relation's DOI is longer than 255 characters"),
    (relation(doi="10.1000/a\x00"), "the relation's DOI holds a NUL character"),
    (relation(label="Retraction \ud800"), "the relation's label or source holds a lone surrogate (not valid Unicode)"),
    (relation(kind="bogus"), "unknown update type 'bogus'"),
    ("not an object", "an update relation is not an object"),
])
def test_a_crossref_relation_that_cannot_be_stored_is_rejected_with_its_reason(db, bad, reason):
    data = json.dumps({"message": crossref_work(relation(doi="10.1000/ok"), bad)}).replace(
        json.dumps(AS_A_NUMBER), HUGE_YEAR).encode()
    report = succeeds("crossref", data)
    (rejected, count), = report.rejected.items()
    assert (report.counts["new"], count) == (1, 1) and rejected.startswith(reason)


def test_a_crossref_date_crossref_does_not_know_is_null():
    from citations.standing.crossref import _date

    unknown = (None, {}, {"date-parts": [[None]]}, {"date-parts": []}, {"date-parts": [[]]})
    assert [_date(updated) for updated in unknown] == [None] * 5


def test_a_crossref_work_with_an_overlong_doi_is_rejected(db):
    data = lines({"DOI": LONG_DOI, "updated-by": [relation()]}, crossref_work(relation()))
    report = succeeds("crossref", data)
    assert (report.counts["works"], dict(report.rejected)) == (1, {"the work's DOI is longer than 255 characters": 1})


def test_two_long_dois_make_a_relation_id_that_fits_its_column(db):
    subject, notice = "10.1000/" + "s" * 200, "10.1000/" + "n" * 200
    succeeds("crossref", json.dumps(crossref_work(relation(doi=notice), doi=subject)).encode())
    event = ScholarlyWorkEvent.objects.get()
    assert event.source_record_id.startswith("sha1:") and (event.subject_doi, event.notice_doi) == (subject, notice)
    assert succeeds("crossref", json.dumps(crossref_work(relation(doi=notice), doi=subject)).encode()).counts[
        "unchanged"] == 1


def test_updated_by_that_is_not_a_list_is_rejected(db):
    report = succeeds("crossref", lines({"DOI": "10.1000/w", "updated-by": True}))
    assert dict(report.rejected) == {"updated-by is not a list": 1}


def test_in_json_lines_a_cut_or_too_deep_line_is_a_rejected_row(db):
    data = lines(crossref_work(relation())) + DEEP + b"\n" + lines(crossref_work(relation(), doi="10.1000/two"))[:-9]
    report = succeeds("crossref", data)
    assert (report.counts["works"], report.examples) == (
        1, {"JSON nested too deeply to read": 2, "not JSON": 3})
