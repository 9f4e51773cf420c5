"""import_arxiv_metadata: one bad line never loses a good one, never gives a traceback, and the
exit status says whether every line was taken."""
import gzip
import json

import pytest
from django.core.management import call_command, execute_from_command_line
from django.core.management.base import CommandError
from django.db import IntegrityError

from citations.input_files import MAX_LINE_BYTES, lines_of, open_lines
from citations.models import Paper, PaperSnapshot, PaperVersion
from citations.sources import arxiv_metadata
from citations.sources.arxiv_metadata import import_arxiv_metadata

CREATED = "Sun, 14 Sep 2025 03:55:03 GMT"


def metadata(arxiv_id="2509.11076", **fields) -> dict:
    value = {"id": arxiv_id, "title": f"A paper numbered {arxiv_id}", "authors": "A. Author, B. Author",
             "versions": [{"version": "v1", "created": CREATED}], "categories": "cs.DC cs.LG", "doi": None,
             "journal-ref": None}
    return {**value, **fields}


def line(value: dict) -> bytes:
    return json.dumps(value).encode() + b"\n"


def new_style_id(n: int) -> str:
    return f"2501.{n:05d}"


def snapshot_ids() -> set[str]:
    return set(PaperSnapshot.objects.values_list("paper__arxiv_id", flat=True))


def write(tmp_path, data: bytes, name="snapshot.jsonl"):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


# --- one bad line in a file ---------------------------------------------------------------------------


def test_a_bad_line_at_1201_of_1500_keeps_the_other_1499_papers_and_is_named(db, tmp_path, capsys):
    lines = [line(metadata(new_style_id(n))) for n in range(1, 1501)]
    lines[1200] = line(metadata(new_style_id(1201), title="NUL \u0000 in a title"))
    with pytest.raises(CommandError, match=r"^1 of 1,500 lines rejected; the other lines were imported$"):
        call_command("import_arxiv_metadata", write(tmp_path, b"".join(lines)))
    assert PaperSnapshot.objects.count() == 1499
    assert new_style_id(1201) not in snapshot_ids() and new_style_id(1500) in snapshot_ids()
    out = capsys.readouterr().out
    assert "1,500 lines read: 1,499 paper snapshots, 1,499 papers; 0 unchanged; 1 rejected" in out
    assert "rejected 1: title holds a NUL character (first at line 1,201)" in out


BAD_FIELDS = [
    ({"title": "a \u0000 b"}, "title holds a NUL character"),
    ({"title": "a \ud800 b"}, "title holds a lone surrogate (not valid Unicode)"),
    ({"authors": "A. Author\ud800"}, "authors holds a lone surrogate (not valid Unicode)"),
    ({"authors": "A. \u0000Author"}, "authors holds a NUL character"),
    ({"journal-ref": "Phys. Rev. \u0000"}, "journal-ref holds a NUL character"),
    ({"journal-ref": "\udfff"}, "journal-ref holds a lone surrogate (not valid Unicode)"),
    ({"categories": "c" * 100 + " cs.LG"}, "the primary category (the first of categories) is longer than 64 characters"),
    ({"categories": " ".join(["cs.LG"] * 100)}, "categories is longer than 500 characters"),
    ({"categories": "cs.LG\u0000"}, "categories holds a NUL character"),
    ({"doi": "10.1234/" + "x" * 300}, "doi is longer than 255 characters"),
    ({"doi": "10.1234/\ud800"}, "doi holds a lone surrogate (not valid Unicode)"),
    ({"versions": [{"version": "v0", "created": CREATED}]}, "a version number is not v1 to v1000"),
    ({"versions": [{"version": "v-3", "created": CREATED}]}, "a version number is not v1 to v1000"),
    ({"versions": [{"version": "v99999", "created": CREATED}]}, "a version number is not v1 to v1000"),
    ({"versions": [{"version": "v１", "created": CREATED}]}, "a version number is not v1 to v1000"),
    ({"versions": [{"version": "v1", "created": CREATED}, {"version": "v1", "created": CREATED}]},
     "version 1 appears twice"),
    ({"versions": [{"version": "v1", "created": 12345}]}, "a version without a number or a date"),
    ({"versions": [{"version": "v1", "created": "Fri, 31 Dec 9999 23:59:59 -1200"}]},
     "version 1 created 9999-12-31T23:59:59-12:00 is not between 1900-01-01 and 2199-12-31 (UTC)"),
    ({"versions": [{"version": "v1", "created": "Mon, 01 Jan 1800 00:00:00 GMT"}]},
     "version 1 created 1800-01-01T00:00:00+00:00 is not between 1900-01-01 and 2199-12-31 (UTC)"),
    ({"versions": [{"version": "v1", "created": "Mon, 01 Jan 2120 00:00:00 GMT"}]},
     "version 1 created 2120-01-01T00:00:00+00:00 is in the future"),
    ({"versions": "v1"}, "versions is not a list"),
    ({"versions": ["v1"]}, "a version without a number or a date"),
    ({"title": ["a", "list"]}, "title is not text"),
    ({"id": 2501.00002}, "no valid arXiv id"),       # a number: 2501.00010 would lose its zeros
]


@pytest.mark.parametrize("fields, reason", BAD_FIELDS, ids=[r for _, r in BAD_FIELDS])
def test_a_bad_field_rejects_its_line_with_the_reason_and_the_lines_around_it_are_kept(db, fields, reason):
    data = line(metadata("2501.00001")) + line(metadata("2501.00002", **fields)) + line(metadata("2501.00003"))
    report = import_arxiv_metadata(lines_of(data))
    assert dict(report.rejected) == {reason: 1} and report.examples[reason] == 2
    assert snapshot_ids() == {"2501.00001", "2501.00003"}
    assert not Paper.objects.filter(arxiv_id="2501.00002").exists()


def test_a_line_the_database_refuses_is_rejected_alone_and_the_rest_of_its_batch_kept(db, monkeypatch):
    """The second line of defence: what the checks let through and the database refuses."""
    write_snapshots = PaperSnapshot.objects.bulk_create

    def refusing(snapshots, *args, **kwargs):
        if any(s.title == "refused by the database" for s in snapshots):
            raise IntegrityError("this row breaks a rule of the test")
        return write_snapshots(snapshots, *args, **kwargs)

    monkeypatch.setattr(PaperSnapshot.objects, "bulk_create", refusing)
    monkeypatch.setattr(arxiv_metadata, "METADATA_BATCH", 4)
    lines = [line(metadata(new_style_id(n))) for n in range(1, 11)]
    lines[5] = line(metadata(new_style_id(6), title="refused by the database"))
    report = import_arxiv_metadata(lines_of(b"".join(lines)))
    assert dict(report.rejected) == {"the database refused it: this row breaks a rule of the test": 1}
    assert report.examples["the database refused it: this row breaks a rule of the test"] == 6
    assert report.created == {"papers": 9, "paper_snapshots": 9}
    assert snapshot_ids() == {new_style_id(n) for n in range(1, 11)} - {new_style_id(6)}
    assert not Paper.objects.filter(arxiv_id=new_style_id(6)).exists()


@pytest.mark.postgresql
def test_on_postgresql_a_primary_category_too_long_for_its_column_is_refused_by_the_database_alone(db, monkeypatch):
    monkeypatch.setattr(arxiv_metadata, "_checked_categories", lambda value: (value.split()[0], value))
    data = line(metadata("2501.00001")) + line(metadata("2501.00002", categories="c" * 100)) + line(metadata("2501.00003"))
    report = import_arxiv_metadata(lines_of(data))
    (reason,) = report.rejected
    assert reason == "the database refused it: value too long for type character varying(64)"
    assert report.examples[reason] == 2 and snapshot_ids() == {"2501.00001", "2501.00003"}


def test_a_paper_named_twice_in_one_batch_keeps_its_first_line_and_counts_the_second(db):
    data = (line(metadata("2501.00001")) + line(metadata("2501.00001")) +
            line(metadata("2501.00001", title="Another title")))
    report = import_arxiv_metadata(lines_of(data))
    assert report.created["paper_snapshots"] == 1 and report.unchanged == 1
    assert report.examples["a paper named again with other metadata (the first line stands)"] == 3
    assert PaperSnapshot.objects.get().title == "A paper numbered 2501.00001"


# --- --observed-at ------------------------------------------------------------------------------------


@pytest.mark.parametrize("when, says", [
    ("2150-01-01T00:00:00Z", "--observed-at 2150-01-01T00:00:00+00:00 is in the future"),
    ("2999-01-01T00:00:00Z", "--observed-at 2999-01-01T00:00:00+00:00 is not between 1900-01-01 and 2199-12-31 (UTC)"),
    ("1800-01-01T00:00:00Z", "is not between 1900-01-01 and 2199-12-31 (UTC)"),
    ("2026-08-01T00:00:00", "--observed-at has no time zone"),
    ("yesterday", "--observed-at 'yesterday' is not an ISO 8601 time"),
])
def test_an_observed_at_in_the_future_or_out_of_range_is_refused_before_reading(db, tmp_path, when, says):
    with pytest.raises(CommandError, match=says.replace("(", r"\(").replace(")", r"\)").replace("+", r"\+")):
        call_command("import_arxiv_metadata", write(tmp_path, line(metadata())), "--observed-at", when)
    assert not Paper.objects.exists()


def test_an_observed_at_in_the_past_dates_the_snapshots(db, tmp_path):
    call_command("import_arxiv_metadata", write(tmp_path, line(metadata())), "--observed-at", "2026-08-01T00:00:00Z")
    assert PaperSnapshot.objects.get().observed_at.isoformat() == "2026-08-01T00:00:00+00:00"


# --- the exit status ----------------------------------------------------------------------------------


def test_a_file_of_good_lines_exits_zero(db, tmp_path, capsys):
    call_command("import_arxiv_metadata", write(tmp_path, line(metadata())))
    assert "0 rejected" in capsys.readouterr().out


def test_the_shell_sees_exit_status_1_after_the_report_when_a_line_was_rejected(db, tmp_path, capsys, monkeypatch):
    # manage.py closes every connection as it exits; the test's transaction must outlive it.
    monkeypatch.setattr("django.core.management.base.connections.close_all", lambda: None)
    path = write(tmp_path, line(metadata()) + b"{broken\n")
    with pytest.raises(SystemExit) as exit:
        execute_from_command_line(["manage.py", "import_arxiv_metadata", path])
    assert exit.value.code == 1
    captured = capsys.readouterr()
    assert "rejected 1: not JSON (first at line 2)" in captured.out
    assert "1 of 2 lines rejected; the other lines were imported" in captured.err
    assert Paper.objects.count() == 1


@pytest.mark.parametrize("damage", ["truncated", "corrupt", "not gzip"])
def test_a_damaged_gzip_file_is_a_clear_command_error(db, tmp_path, damage):
    data = gzip.compress(b"".join(line(metadata(new_style_id(n), title=f"{n} " * 40)) for n in range(1, 3000)))
    if damage == "truncated":
        data = data[:len(data) // 2]
    elif damage == "corrupt":
        data = data[:200] + bytes(b ^ 0xFF for b in data[200:260]) + data[260:]
    else:
        data = b"\x1f\x8b" + b"not gzip at all"
    with pytest.raises(CommandError, match="the file ends early or is not valid gzip"):
        call_command("import_arxiv_metadata", write(tmp_path, data, "snapshot.jsonl.gz"))


# --- memory -------------------------------------------------------------------------------------------


def test_a_line_longer_than_4_mib_is_rejected_without_being_held_whole(db, tmp_path):
    path = write(tmp_path, b'{"id": "' + b"x" * (3 * MAX_LINE_BYTES) + b'"}\n' + line(metadata()))
    lines, _, _ = open_lines(path)
    read = list(lines)
    assert max(len(chunk) for chunk in read) <= MAX_LINE_BYTES + 1
    report = import_arxiv_metadata(iter(read))
    assert report.examples == {"line longer than 4 MiB": 1} and snapshot_ids() == {"2509.11076"}
    assert PaperVersion.objects.count() == 1


def test_the_abstract_is_kept_and_shown_on_the_paper_page_and_a_second_import_changes_nothing(db, client):
    abstract = "  Let $X_1, X_2, \\ldots$ be independent\n  random variables.  "
    data = line(metadata("2212.11867", abstract=abstract))
    import_arxiv_metadata(lines_of(data))
    assert PaperSnapshot.objects.get().abstract == "Let $X_1, X_2, \\ldots$ be independent random variables."
    assert "be independent random variables.</p>" in client.get("/paper/2212.11867").content.decode()
    assert import_arxiv_metadata(lines_of(data)).unchanged == 1
    assert PaperSnapshot.objects.count() == 1


def test_an_abstract_longer_than_any_arxiv_allows_rejects_its_line(db):
    report = import_arxiv_metadata(lines_of(line(metadata("2501.00001", abstract="word " * 5000))))
    assert [reason for reason in report.rejected] == ["abstract is longer than 20,000 characters"]


DEEP = b"[" * 100_000 + b"]" * 100_000 + b"\n"
HUGE_NUMBER = b'{"id": ' + b"9" * 5000 + b"}\n"


@pytest.mark.django_db
@pytest.mark.parametrize("bad", [DEEP, HUGE_NUMBER], ids=["nested 100,000 deep", "a 5,000-digit number"])
def test_a_line_python_cannot_parse_is_rejected_and_the_good_lines_around_it_kept(bad):
    good = [line(metadata(new_style_id(n))) for n in range(1, 5)]
    report = import_arxiv_metadata(lines_of(b"".join(good[:2]) + bad + b"".join(good[2:])))
    assert snapshot_ids() == {new_style_id(n) for n in range(1, 5)}
    assert report.rejected_lines == 1 and list(report.examples.values()) == [3]


@pytest.mark.django_db
@pytest.mark.parametrize("end", [b"\r", b"\r\n", b"\n"], ids=["CR", "CRLF", "LF"])
@pytest.mark.parametrize("gzipped", [False, True], ids=["plain", "gzip"])
def test_lines_ended_by_a_carriage_return_alone_are_lines(tmp_path, end, gzipped):
    data = b"".join(line(metadata(new_style_id(n))).rstrip(b"\n") + end for n in range(1, 5))
    path = write(tmp_path, gzip.compress(data) if gzipped else data, "snapshot.jsonl.gz" if gzipped else "s.jsonl")
    lines, _, _ = open_lines(path)
    report = import_arxiv_metadata(lines)
    assert (report.lines, report.rejected_lines) == (4, 0)
    assert snapshot_ids() == {new_style_id(n) for n in range(1, 5)}


@pytest.mark.django_db
@pytest.mark.parametrize("created, reason", [
    ("Mon, 1 Jan 0000 00:00:00 GMT", "is not a possible date"),
    ("Mon, 1 Jan 07 00:00:00 GMT", "is not a possible date"),
    ("Mon, 1 Jan 999 00:00:00 GMT", "is not between 1900-01-01"),
    ("Mon, 30 Feb 2007 00:00:00 GMT", "a version without a number or a date"),
])
def test_an_impossible_creation_date_is_rejected_with_a_reason_not_read_as_another(created, reason):
    report = import_arxiv_metadata(lines_of(line(metadata(new_style_id(1), versions=[{"version": "v1", "created": created}]))
                                            + line(metadata(new_style_id(2)))))
    assert snapshot_ids() == {new_style_id(2)}
    (rejected,) = report.rejected
    assert reason in rejected and not PaperVersion.objects.filter(created_at__year=2000).exists()


@pytest.mark.django_db
def test_a_version_dated_before_the_one_it_follows_is_rejected():
    versions = [{"version": "v1", "created": "Tue, 15 Jul 2026 13:51:17 GMT"}, {"version": "v2", "created": CREATED}]
    report = import_arxiv_metadata(lines_of(line(metadata(new_style_id(1), versions=versions))))
    assert dict(report.rejected) == {"version 2 is dated before version 1: arXiv receives them in order": 1}
    assert not snapshot_ids()
    # The same date twice is possible (two versions the same second): taken.
    same = [{"version": "v1", "created": CREATED}, {"version": "v2", "created": CREATED}]
    assert not import_arxiv_metadata(lines_of(line(metadata(new_style_id(1), versions=same)))).rejected


@pytest.mark.django_db
def test_a_gzip_followed_by_garbage_keeps_what_came_before_and_says_so(tmp_path, capsys):
    from citations.input_files import TRAILING_GARBAGE

    data = b"".join(line(metadata(new_style_id(n))) for n in range(1, 4)) + line(metadata(new_style_id(4))).rstrip()
    path = write(tmp_path, gzip.compress(data) + b"this is not gzip\n" * 3, "snapshot.jsonl.gz")
    with pytest.raises(CommandError, match="1 of 5 lines rejected"):
        call_command("import_arxiv_metadata", str(path))
    assert snapshot_ids() == {new_style_id(n) for n in range(1, 5)}
    assert f"rejected 1: {TRAILING_GARBAGE} (first at line 5)" in capsys.readouterr().out
