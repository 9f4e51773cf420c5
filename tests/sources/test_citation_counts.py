"""import_citation_counts: a bad line is rejected with its reason, never a traceback; times are
in the one stored range; the exit status says whether every line was taken."""
import gzip

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from citations.input_files import lines_of
from citations.models import CitationMeasurement
from citations.sources.arxiv_metadata import import_arxiv_metadata
from citations.sources.citation_counts import import_citation_counts
from tests.sources.test_arxiv_metadata import line, metadata


def count(arxiv_id="2501.00001", source="openalex", n=12, observed_at="2026-09-01T00:00:00Z", **extra) -> dict:
    return {"arxiv_id": arxiv_id, "source": source, "count": n, "observed_at": observed_at, **extra}


@pytest.fixture
def held(db):
    import_arxiv_metadata(lines_of(line(metadata("2501.00001", doi="10.1234/held")) + line(metadata("2501.00002"))))


def measured() -> set[tuple[str, str, int]]:
    return set(CitationMeasurement.objects.values_list("paper__arxiv_id", "source", "count"))


BAD_LINES = [
    ({"doi": "10.1234/held\u0000", "source": "openalex", "count": 1, "observed_at": "2026-09-01T00:00:00Z"},
     "doi holds a NUL character"),
    ({"doi": "10.1234/held\ud800", "source": "openalex", "count": 1, "observed_at": "2026-09-01T00:00:00Z"},
     "doi holds a lone surrogate (not valid Unicode)"),
    ({"doi": "10.1234/" + "x" * 300, "source": "openalex", "count": 1, "observed_at": "2026-09-01T00:00:00Z"},
     "doi is longer than 255 characters"),
    (count(arxiv_id="2501.00001\u0000"), "arxiv_id holds a NUL character"),
    (count(arxiv_id="2501.00001\ud800"), "arxiv_id holds a lone surrogate (not valid Unicode)"),
    (count(arxiv_id=2501.00001), "arxiv_id is not text"),
    (count(source="openalex\u0000"), "source is not a short lower-case name (e.g. semantic_scholar)"),
    (count(source="openalex\ud800"), "source is not a short lower-case name (e.g. semantic_scholar)"),
    (count(observed_at="0001-01-01T00:00:00+14:00"),
     "observed_at 0001-01-01T00:00:00+14:00 is not between 1900-01-01 and 2199-12-31 (UTC)"),
    (count(observed_at="9999-12-31T23:59:59-12:00"),
     "observed_at 9999-12-31T23:59:59-12:00 is not between 1900-01-01 and 2199-12-31 (UTC)"),
    (count(observed_at="2150-01-01T00:00:00Z"), "observed_at 2150-01-01T00:00:00+00:00 is in the future"),
    (count(observed_at="2026-09-01T00:00:00"), "observed_at has no time zone"),
    (count(observed_at=20260901), "observed_at is not an ISO 8601 time"),
    (count(n=2**63), "count is not a non-negative integer"),
]


@pytest.mark.parametrize("bad, reason", BAD_LINES, ids=[r for _, r in BAD_LINES])
def test_a_bad_line_is_rejected_with_its_reason_and_the_lines_around_it_kept(held, bad, reason):
    data = line(count(n=1)) + line(bad) + line(count("2501.00002", n=3))
    report = import_citation_counts(lines_of(data))
    assert dict(report.rejected) == {reason: 1} and report.examples[reason] == 2
    assert measured() == {("2501.00001", "openalex", 1), ("2501.00002", "openalex", 3)}


def test_a_measurement_named_by_a_held_doi_is_taken(held):
    report = import_citation_counts(lines_of(line({"doi": "https://doi.org/10.1234/HELD", "source": "openalex",
                                                   "count": 4, "observed_at": "2026-09-01T00:00:00Z"})))
    assert report.created == {"measurements": 1} and measured() == {("2501.00001", "openalex", 4)}


def test_the_command_reports_the_bad_line_and_exits_non_zero(held, tmp_path, capsys):
    path = tmp_path / "counts.jsonl"
    path.write_bytes(line(count(n=1)) + line(count(observed_at="0001-01-01T00:00:00+14:00")) + line(count("2501.00002")))
    with pytest.raises(CommandError, match=r"^1 of 3 lines rejected; the other lines were imported$"):
        call_command("import_citation_counts", str(path))
    assert "(first at line 2)" in capsys.readouterr().out
    assert measured() == {("2501.00001", "openalex", 1), ("2501.00002", "openalex", 12)}


def test_a_file_of_good_counts_exits_zero(held, tmp_path, capsys):
    path = tmp_path / "counts.jsonl"
    path.write_bytes(line(count()))
    call_command("import_citation_counts", str(path))
    assert "1 measurements; 0 unchanged; 0 rejected" in capsys.readouterr().out


def test_a_truncated_gzip_file_of_counts_is_a_clear_command_error(held, tmp_path):
    path = tmp_path / "counts.jsonl.gz"
    path.write_bytes(gzip.compress(b"".join(line(count(n=n)) for n in range(2000)))[:300])
    with pytest.raises(CommandError, match="the file ends early or is not valid gzip"):
        call_command("import_citation_counts", str(path))


@pytest.mark.parametrize("bad", [b"[" * 100_000 + b"]" * 100_000 + b"\n", b'{"count": ' + b"9" * 5000 + b"}\n"],
                         ids=["nested 100,000 deep", "a 5,000-digit number"])
def test_a_line_python_cannot_parse_is_rejected_and_the_good_counts_around_it_kept(held, bad):
    good = [line(count(observed_at=f"2026-09-0{n}T00:00:00Z", n=n)) for n in (1, 2)] + \
        [line(count("2501.00002", observed_at=f"2026-09-0{n}T00:00:00Z", n=n)) for n in (3, 4)]
    report = import_citation_counts(lines_of(b"".join(good[:2]) + bad + b"".join(good[2:])))
    assert report.created["measurements"] == 4 and report.rejected_lines == 1
    assert list(report.examples.values()) == [3]


def test_counts_ended_by_a_carriage_return_alone_are_each_read(held):
    report = import_citation_counts(lines_of(line(count(n=1)).rstrip() + b"\r" + line(count("2501.00002", n=2)).rstrip()
                                             + b"\r\r\n"))
    assert (report.lines, report.created["measurements"], report.rejected_lines) == (2, 2, 0)



def test_a_back_dated_count_is_refused_and_a_record_published_as_of_an_earlier_time_never_changes(held):
    from datetime import UTC, datetime

    from citations.records.build import build_record

    import_arxiv_metadata(lines_of(line(metadata("2501.00003"))), observed_at=datetime(2026, 1, 1, tzinfo=UTC))
    assert import_citation_counts(lines_of(line(count("2501.00003", n=20, observed_at="2026-10-01T00:00:00Z")))).created
    as_of = datetime(2026, 9, 15, tzinfo=UTC)
    published = build_record(arxiv_id="2501.00003", as_of=as_of).record
    report = import_citation_counts(lines_of(line(count("2501.00003", n=5, observed_at="2026-09-01T00:00:00Z"))
                                             + line(count("2501.00003", n=20, observed_at="2026-10-01T00:00:00Z"))
                                             + line(count("2501.00003", n=30, observed_at="2026-11-01T00:00:00Z"))
                                             + line(count("2501.00001", n=7, observed_at="2026-09-01T00:00:00Z"))))
    assert dict(report.rejected) == {"back-dated: a later measurement by this source is held for this paper, so "
                                     "records already published as of an earlier time would change": 1}
    assert report.examples == {next(iter(report.rejected)): 1}
    assert (report.created["measurements"], report.unchanged) == (2, 1)      # a later one; another paper's first
    assert measured() == {("2501.00003", "openalex", 20), ("2501.00003", "openalex", 30), ("2501.00001", "openalex", 7)}
    assert build_record(arxiv_id="2501.00003", as_of=as_of).record == published


def test_a_sources_first_count_dated_in_the_past_leaves_records_already_published_as_they_were(held):
    """A record as of a time before the import was published without the count: it shows from its import on."""
    from datetime import UTC, datetime

    from django.utils import timezone

    from citations.records.build import build_record

    import_arxiv_metadata(lines_of(line(metadata("2501.00003"))), observed_at=datetime(2026, 1, 1, tzinfo=UTC))
    as_of = datetime(2026, 9, 15, tzinfo=UTC)
    assert as_of < timezone.now()
    published = build_record(arxiv_id="2501.00003", as_of=as_of).body
    before_import = timezone.now()
    published_just_before = build_record(arxiv_id="2501.00003", as_of=before_import).body
    report = import_citation_counts(lines_of(line(count("2501.00003", source="crossref", n=5, observed_at="2026-09-01T00:00:00Z"))))
    assert report.created == {"measurements": 1}
    assert build_record(arxiv_id="2501.00003", as_of=as_of).body == published
    assert build_record(arxiv_id="2501.00003", as_of=before_import).body == published_just_before
    assert build_record(arxiv_id="2501.00003").record["external_citation_measurements"] == [
        {"count": 5, "observed_at": "2026-09-01T00:00:00Z", "source": "crossref"}]
