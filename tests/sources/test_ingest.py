import gzip
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from citations.input_files import lines_of
from citations.models import Paper, PaperReference, PaperSnapshot, PaperTitleKey, PaperVersion, ReferenceExtraction
from citations.parsing.text import key_fingerprint
from citations.records.build import build_record
from citations.sources.arxiv_metadata import import_arxiv_metadata
from citations.sources.reference_lists import ingest_references

KAGGLE_SAMPLE = Path(__file__).resolve().parents[3] / "shared" / "data" / "unarxive-sample" / \
    "derived_arxiv_metadata_kaggle_format.jsonl"


def metadata_line(arxiv_id="2509.11076", title="SmartSwap: Swap-Based Memory Optimization", versions=2, **extra):
    created = ["Sun, 14 Sep 2025 03:55:03 GMT", "Tue, 15 Jul 2026 13:51:17 GMT", "Wed, 16 Jul 2026 10:00:00 GMT"]
    value = {"id": arxiv_id, "title": title, "authors": "A. Author, B. Author",
             "versions": [{"version": f"v{n + 1}", "created": created[n]} for n in range(versions)],
             "update_date": "2026-07-15", "categories": "cs.DC cs.LG", "doi": None, "journal-ref": None,
             "authors_parsed": [["Author", "A.", ""]], **extra}
    return json.dumps(value).encode() + b"\n"


def test_metadata_lines_become_papers_with_dated_snapshots(db):
    report = import_arxiv_metadata(lines_of(metadata_line() + metadata_line("hep-th/9901001", "An old one", 1)))
    assert report.created == {"papers": 2, "paper_snapshots": 2}
    snapshot = PaperSnapshot.objects.get(paper__arxiv_id="2509.11076")
    assert (snapshot.latest_version, snapshot.primary_category) == (2, "cs.DC")
    assert snapshot.submitted_at.isoformat() == "2025-09-14T03:55:03+00:00"
    assert snapshot.last_updated.isoformat() == "2026-07-15T13:51:17+00:00"
    assert list(PaperVersion.objects.filter(paper__arxiv_id="2509.11076").values_list("version", flat=True)) == [1, 2]
    assert PaperTitleKey.objects.filter(paper__arxiv_id="2509.11076").exists()


def test_importing_the_same_metadata_again_writes_nothing(db):
    import_arxiv_metadata(lines_of(metadata_line()))
    report = import_arxiv_metadata(lines_of(metadata_line()))
    assert report.created == {"papers": 0, "paper_snapshots": 0} and report.unchanged == 1
    assert PaperSnapshot.objects.count() == 1


def test_changed_metadata_is_a_new_snapshot_and_the_old_one_stays(db):
    import_arxiv_metadata(lines_of(metadata_line(versions=2)))
    import_arxiv_metadata(lines_of(metadata_line(versions=3, title="SmartSwap, renamed")))
    titles = list(PaperSnapshot.objects.order_by("observed_at").values_list("title", "latest_version"))
    assert titles == [("SmartSwap: Swap-Based Memory Optimization", 2), ("SmartSwap, renamed", 3)]


def test_bad_metadata_lines_are_counted_with_reasons_and_the_rest_imported(db):
    data = (b"not json\n" + metadata_line(arxiv_id="2513.00001") + metadata_line(title="") +
            json.dumps({"id": "2509.00001", "title": "x", "versions": [{"version": "v1"}]}).encode() + b"\n[]\n" +
            metadata_line())
    report = import_arxiv_metadata(lines_of(data))
    assert dict(report.rejected) == {"not JSON": 1, "no valid arXiv id": 1, "no title": 1,
                                     "a version without a number or a date": 1, "not a JSON object": 1}
    assert report.examples["no title"] == 3
    assert Paper.objects.count() == 1


def test_the_metadata_command_reads_gzip_and_reports(db, tmp_path, capsys):
    path = tmp_path / "snapshot.jsonl.gz"
    path.write_bytes(gzip.compress(metadata_line() + b"{broken\n"))
    with pytest.raises(CommandError, match="1 of 2 lines rejected"):
        call_command("import_arxiv_metadata", str(path))
    out = capsys.readouterr().out
    assert "2 lines read: 1 paper snapshots, 1 papers; 0 unchanged; 1 rejected" in out
    assert "rejected 1: not JSON (first at line 2)" in out


def test_the_real_snapshot_layout_is_read(db):
    if not KAGGLE_SAMPLE.exists():
        pytest.skip("../shared/data is not on this machine")
    report = import_arxiv_metadata(iter(KAGGLE_SAMPLE.open("rb")))
    assert report.created["papers"] == 49 and not report.rejected


def references_line(arxiv_id="2509.11076", version=2, raws=("A. Author. A title of a work. 2020.",), **extra):
    value = {"arxiv_id": arxiv_id, "version": version, "source": "pdf_text",
             "references": [{"index": n + 1, "raw": raw} for n, raw in enumerate(raws)], **extra}
    return json.dumps(value).encode() + b"\n"


@pytest.fixture
def held(db):
    import_arxiv_metadata(lines_of(metadata_line()))


def test_reference_lists_become_observations_with_a_first_resolution(held):
    report = ingest_references(lines_of(references_line(raws=(
        "Tianqi Chen, Bing Xu. Training deep nets with sublinear memory cost.arXiv:1604.06174, 2016.",
        "NVIDIA. Megatron-LM. Accessed: 2025-06."))))
    assert report.created == {"reference_lists": 1, "references": 2}
    first = PaperReference.objects.get(reference_index=1)
    assert (first.title, first.year, first.arxiv_id) == ("Training deep nets with sublinear memory cost", 2016,
                                                         "1604.06174")
    record = build_record(arxiv_id="2509.11076").record
    assert [o["resolution"]["status"] for o in record["outbound"]] == ["unresolved", "unresolved"]
    assert record["outbound"][0]["resolution"]["resolver_source"] is None


def test_ingesting_the_same_list_again_changes_nothing(held):
    ingest_references(lines_of(references_line()))
    report = ingest_references(lines_of(references_line()))
    assert report.unchanged == 1 and not report.created
    assert ReferenceExtraction.objects.count() == 1


def test_a_new_extraction_is_a_new_observation_set_and_the_old_one_stays(held):
    ingest_references(lines_of(references_line()))
    ingest_references(lines_of(references_line(raws=("A. Author. Another work entirely. 2021.", "B. Two. 2022."))))
    assert ReferenceExtraction.objects.count() == 2 and PaperReference.objects.count() == 3
    assert build_record(arxiv_id="2509.11076").record["reference_resolution"]["total_outbound_references"] == 2


def test_bad_reference_lines_are_counted_and_skipped_whole(held):
    data = (references_line(arxiv_id="2599.00001") + references_line(arxiv_id="2401.00001") +
            references_line(version=0) + references_line(raws=("",)) + references_line(source="ocr") +
            json.dumps({"arxiv_id": "2509.11076", "version": 1, "references": []}).encode() + b"\n" +
            references_line())
    report = ingest_references(lines_of(data))
    assert dict(report.rejected) == {
        "no valid arxiv_id": 1, "paper not held: import its arXiv metadata first": 1,
        "version is not a positive integer": 1,
        "a reference's raw text is empty or longer than 10,000 characters": 1,
        "source is not one of pdf_text, latex_bbl, latex_bib, latex, grobid, crossref": 1, "references is not a non-empty list": 1}
    assert report.created["references"] == 1
    assert PaperReference.objects.count() == 1


def test_the_ingest_command_can_resolve_what_it_ingested(held, tmp_path, capsys):
    path = tmp_path / "refs.jsonl"
    path.write_bytes(references_line(raws=("NVIDIA. Accessed: 2025-06.",)))
    call_command("ingest_references", str(path), "--resolve")
    out = capsys.readouterr().out
    assert "1 lines read: 1 reference lists, 1 references" in out
    assert "parse_uncertain" in out


def test_titles_can_be_indexed_again_after_the_key_function_changes(held, capsys):
    PaperTitleKey.objects.all().delete()
    PaperTitleKey.objects.create(key=key_fingerprint("f:stale"), paper=Paper.objects.get())
    call_command("index_titles", "--rebuild")
    assert "1 papers" in capsys.readouterr().out
    assert not PaperTitleKey.objects.filter(key=key_fingerprint("f:stale")).exists()
    assert PaperTitleKey.objects.filter(key=key_fingerprint("f:smartswap swap based memory optimization")).exists()
