import json
from datetime import date
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from citations.input_files import lines_of
from citations.models import ScholarlyWorkEvent, StandingSourceSync
from citations.records.build import build_record
from citations.records.presentation import standing_summary
from citations.resolution.service import resolve_paper
from citations.sources.citation_counts import import_citation_counts
from citations.sources.reference_lists import ReferenceList, ingest_reference_list
from citations.standing import crossref, retraction_watch
from citations.standing.checks import check_works
from citations.standing.events import RejectedRow, SourceEvent, WorkRead
from citations.standing.sync import sync_standing_source
from tests.factories import make_paper

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
RW_EXEMPLAR = DATA / "retraction-watch-sample" / "rw_original_layout_exemplar.csv"
RW_DERIVED = DATA / "retraction-watch-sample" / "DERIVED_rw_layout_from_etl_sample.csv"
RW_RESHAPED = DATA / "retraction-watch-sample" / "retraction_watch_etl_sampled.csv"
CROSSREF_WORK = DATA / "crossref-work-json" / "works_10.5555_12345678.json"
HEADER = ("Record ID,Title,Subject,Institution,Journal,Publisher,Country,Author,URLS,ArticleType,RetractionDate,"
          "RetractionDOI,RetractionPubMedID,OriginalPaperDate,OriginalPaperDOI,OriginalPaperPubMedID,RetractionNature,"
          "Reason,Paywalled,Notes\n")
CITED_DOI = "10.1155/2021/6907871"      # the real row of the exemplar: retracted on 16 August 2023


def rw_row(record_id, original, nature="Retraction", notice="10.1155/2023/9804945", when="8/16/2023 0:00",
           reason="+Concerns/Issues About Data;+Paper Mill;"):
    return (f'{record_id},A title,(B/T) Technology;,Somewhere;,A Journal,Hindawi,China,An Author,https://rw.example,'
            f'Research Article;,{when},{notice},0,9/24/2021 0:00,{original},0,{nature},"{reason}",No,\n')


def needs(path: Path):
    if not path.exists():
        pytest.skip(f"{path} is not on this machine")
    return path


# --- readers ------------------------------------------------------------------------------------------


def test_the_exact_original_row_reads_as_a_retraction_with_its_notice_and_date():
    (_, event), = list(retraction_watch.read_rows(needs(RW_EXEMPLAR).read_text().splitlines(keepends=True)))
    assert (event.source_record_id, event.event_type, event.subject_doi, event.notice_doi, event.occurred_on) == (
        "50438", "retraction", CITED_DOI, "10.1155/2023/9804945", date(2023, 8, 16))
    assert event.reason.startswith("+Concerns/Issues About Data;+Concerns/Issues About Results")


def test_the_4827_real_rows_keep_their_four_natures_apart():
    rows = list(retraction_watch.read_rows(needs(RW_DERIVED).read_text().splitlines(keepends=True)))
    events = [e for _, e in rows if not isinstance(e, RejectedRow)]
    assert len(rows) == 4827 and len(events) == 4827
    kinds = {kind: sum(e.event_type == kind for e in events) for kind in
             ("retraction", "expression_of_concern", "correction", "reinstatement")}
    assert kinds == {"retraction": 4447, "expression_of_concern": 259, "correction": 101, "reinstatement": 20}


def test_the_reshaped_sprint_layout_is_read_too():
    rows = list(retraction_watch.read_rows(needs(RW_RESHAPED).read_text().splitlines(keepends=True)))
    events = [e for _, e in rows if not isinstance(e, RejectedRow)]
    assert len(events) == 4827
    assert all(";" not in e.reason or e.reason.startswith("+") for e in events)


def test_malformed_rows_are_reported_and_skipped_without_stopping_the_file():
    text = (HEADER + rw_row(1, CITED_DOI) + rw_row(2, "not a doi") + rw_row(3, CITED_DOI, nature="Retracted?") +
            rw_row(4, CITED_DOI, when="sometime") + "5,too,few,columns\n" + rw_row(6, "", nature="Correction") +
            rw_row(7, "10.1000/ok", nature="Correction"))
    rows = list(retraction_watch.read_rows(text.splitlines(keepends=True)))
    rejected = {n: str(e) for n, e in rows if isinstance(e, RejectedRow)}
    assert rejected == {3: "'not a doi' is not a DOI", 4: "unknown RetractionNature 'Retracted?'",
                        5: "unreadable RetractionDate 'sometime'", 6: "4 columns, the header has 20",
                        7: "no OriginalPaperDOI: nothing to attach the notice to"}
    assert [e.source_record_id for _, e in rows if not isinstance(e, RejectedRow)] == ["1", "7"]


def test_crossref_updated_by_gives_each_notice_its_own_type():
    events = [e for _, e in crossref.read_messages(needs(CROSSREF_WORK).read_bytes()) if isinstance(e, SourceEvent)]
    kinds = {(e.event_type, e.subject_doi, e.notice_doi, e.occurred_on) for e in events}
    assert ("retraction", "10.5555/12345678", "10.5555/24242424x", date(2009, 9, 14)) in kinds
    assert ("corrigendum", "10.5555/12345678", None, date(2018, 1, 1)) in kinds
    # The self-referential corrigendum appears in both relations: one record, so one event once synced.
    assert len({e.source_record_id for e in events}) == 2


def test_crossref_notices_that_update_others_are_read_from_update_to():
    notice = {"DOI": "10.1000/RETRACTION-NOTICE", "update-to": [
        {"DOI": "https://doi.org/10.1000/Paper", "type": "retraction", "updated": {"date-parts": [[2024, 2]]}},
        {"DOI": "10.1000/other", "type": "new_version"}]}
    (_, work), (_, event) = list(crossref.read_messages(json.dumps({"status": "ok", "message": notice}).encode()))
    assert work == WorkRead("10.1000/retraction-notice")
    assert (event.event_type, event.subject_doi, event.notice_doi, event.occurred_on) == (
        "retraction", "10.1000/paper", "10.1000/retraction-notice", date(2024, 2, 1))


# --- syncs ----------------------------------------------------------------------------------------------


def test_a_sync_is_idempotent_and_records_its_time_each_run(db):
    data = (HEADER + rw_row(1, CITED_DOI) + rw_row(2, "10.1000/x", nature="Correction")).encode()
    first = sync_standing_source(source="retraction_watch", data=data)
    second = sync_standing_source(source="retraction_watch", data=data)
    assert (first.counts["new"], second.counts["new"], second.counts["unchanged"]) == (2, 0, 2)
    assert ScholarlyWorkEvent.objects.count() == 2
    syncs = StandingSourceSync.objects.filter(status="succeeded").order_by("observed_at")
    assert [s.observed_at for s in syncs] == [first.observed_at, second.observed_at]


def test_a_failed_sync_changes_nothing_and_is_visible(db):
    good = sync_standing_source(source="retraction_watch", data=(HEADER + rw_row(1, CITED_DOI)).encode())
    failed = sync_standing_source(source="retraction_watch", data=b"this,is,not\nthe,right,header\n")
    assert failed.status == "failed" and "header is not Retraction Watch" in failed.error
    assert ScholarlyWorkEvent.objects.count() == 1
    run = StandingSourceSync.objects.get(pk=failed.sync_id)
    assert (run.status, run.observed_at) == ("failed", None)
    newest = StandingSourceSync.objects.filter(status="succeeded").latest("observed_at")
    assert newest.observed_at == good.observed_at


def test_the_sync_command_reports_and_refuses_clearly(db, tmp_path, capsys):
    path = tmp_path / "rw.csv"
    path.write_text(HEADER + rw_row(1, CITED_DOI) + rw_row(2, "junk"))
    call_command("sync_standing_source", "retraction_watch", str(path))
    out = capsys.readouterr().out
    assert "succeeded" in out and "1 events (1 new" in out and "rejected 1: 'junk' is not a DOI (first at 3)" in out
    path.write_text("nonsense\n")
    with pytest.raises(CommandError, match="failed, nothing changed"):
        call_command("sync_standing_source", "retraction_watch", str(path))


# --- one-hop checks in the record ---------------------------------------------------------------------


@pytest.fixture
def cites_retracted_work(db):
    """arXiv:2601.00001 cites, by arXiv id, a held paper whose journal DOI Retraction Watch lists as retracted."""
    make_paper("2107.00001", title="Construction of mental health education model", doi=CITED_DOI)
    make_paper("2107.00002", title="A corrected paper on something", doi="10.1000/corrected")
    make_paper("2601.00001")
    ingest_reference_list(ReferenceList("2601.00001", 1, "pdf_text", (
        (1, "H. Zhang. Construction of mental health education model. Adv. Multimedia 2021. arXiv:2107.00001"),
        (2, "A. Author. A corrected paper on something. J. Things 2021. arXiv:2107.00002"),
        (3, "Nobody. Something not held at all. 2020."))))
    resolve_paper(arxiv_id="2601.00001")


def notice_of(record, index):
    return next(o for o in record["outbound"] if o["citation"]["reference_index"] == index)["standing_notice"]


def test_without_any_synchronised_source_the_notice_says_so(cites_retracted_work):
    record = build_record(arxiv_id="2601.00001").record
    assert notice_of(record, 1) == {"events": [], "reason": "standing_sources_never_synchronised",
                                    "source_receipts": [], "state": "unavailable"}
    assert notice_of(record, 3)["reason"] == "canonical_work_link_unavailable"


def test_a_retracted_work_shows_its_retraction_with_receipts_from_both_sources(cites_retracted_work):
    rw = sync_standing_source(source="retraction_watch",
                              data=(HEADER + rw_row(50438, CITED_DOI) +
                                    rw_row(7, "10.1000/corrected", nature="Correction", notice="10.1000/fix")).encode())
    check_works()
    cr = sync_standing_source(source="crossref", data=json.dumps({"message": {
        "DOI": CITED_DOI, "updated-by": [{"DOI": "10.1155/2023/9804945", "type": "retraction",
                                          "updated": {"date-parts": [[2023, 8, 16]]}}]}}).encode())
    check_works()
    record = build_record(arxiv_id="2601.00001").record
    notice = notice_of(record, 1)
    assert notice["state"] == "measured"
    assert [r["source"] for r in notice["source_receipts"]] == ["crossref", "retraction_watch"]
    assert {r["observed_at"] for r in notice["source_receipts"]} == {
        rw.observed_at.isoformat().replace("+00:00", "").rstrip("0").rstrip(".") + "+00:00",
        cr.observed_at.isoformat().replace("+00:00", "").rstrip("0").rstrip(".") + "+00:00"}
    assert [(e["event_type"], e["source"], e["notice_doi"], e["occurred_on"]) for e in notice["events"]] == [
        ("retraction", "crossref", "10.1155/2023/9804945", "2023-08-16"),
        ("retraction", "retraction_watch", "10.1155/2023/9804945", "2023-08-16")]
    assert notice["observation"].startswith("2 events found in the named queried sources as of ")
    # A correction stays a correction.
    correction = notice_of(record, 2)
    assert [e["event_type"] for e in correction["events"]] == ["correction"]
    assert [r["source"] for r in correction["source_receipts"]] == ["crossref", "retraction_watch"]
    summary = standing_summary(record)
    assert [i.reference_index for i in summary.retracted] == [1, 1]
    assert [i.event_type for i in summary.corrected] == ["correction"]


def test_only_the_sources_synchronised_are_named(cites_retracted_work):
    sync_standing_source(source="retraction_watch", data=(HEADER + rw_row(50438, CITED_DOI)).encode())
    check_works()
    notice = notice_of(build_record(arxiv_id="2601.00001").record, 2)
    assert (notice["state"], notice["events"]) == ("measured", [])
    assert [r["source"] for r in notice["source_receipts"]] == ["retraction_watch"]
    assert notice["observation"].startswith("No event found in the named queried sources as of ")


def test_a_work_linked_after_the_last_check_is_pending(cites_retracted_work):
    sync_standing_source(source="retraction_watch", data=(HEADER + rw_row(50438, CITED_DOI)).encode())
    assert notice_of(build_record(arxiv_id="2601.00001").record, 1)["reason"] == "standing_check_pending"


def test_checks_are_idempotent(cites_retracted_work):
    sync_standing_source(source="retraction_watch", data=(HEADER + rw_row(50438, CITED_DOI)).encode())
    assert check_works()["retraction_watch"] == 2
    assert check_works()["retraction_watch"] == 0


def test_the_record_stays_within_six_statements_with_events(cites_retracted_work, django_assert_max_num_queries):
    sync_standing_source(source="retraction_watch", data=(HEADER + rw_row(50438, CITED_DOI)).encode())
    check_works()
    with django_assert_max_num_queries(6):
        build_record(arxiv_id="2601.00001")


def test_the_pages_say_the_paper_cites_a_retracted_work(cites_retracted_work, client):
    sync_standing_source(source="retraction_watch", data=(HEADER + rw_row(50438, CITED_DOI)).encode())
    check_works()
    integrity = client.get("/paper/2601.00001/integrity").content.decode()
    assert "This paper cites 1 retracted work." in integrity
    assert "10.1155/2023/9804945" in integrity and "retraction_watch" in integrity
    assert "Cites a retracted work" in client.get("/paper/2601.00001").content.decode()


def test_a_reinstatement_after_a_retraction_is_not_shown_as_retracted(cites_retracted_work):
    sync_standing_source(source="retraction_watch", data=(
        HEADER + rw_row(1, CITED_DOI) + rw_row(2, CITED_DOI, nature="Reinstatement", when="1/5/2024 0:00")).encode())
    check_works()
    summary = standing_summary(build_record(arxiv_id="2601.00001").record)
    assert not summary.cites_retracted and [i.event_type for i in summary.reinstated] == ["retraction"]


# --- external citation measurements -------------------------------------------------------------------


def test_citation_counts_are_kept_per_source_and_never_summed(cites_retracted_work):
    lines = b"\n".join(json.dumps(x).encode() for x in (
        {"arxiv_id": "2601.00001", "source": "semantic_scholar", "count": 12, "observed_at": "2026-09-01T00:00:00Z"},
        {"doi": "10.48550/arXiv.2601.00001", "source": "openalex", "count": 9, "observed_at": "2026-09-02T00:00:00Z"},
        {"arxiv_id": "2601.00001", "source": "semantic_scholar", "count": 15, "observed_at": "2026-10-01T00:00:00Z"},
        {"arxiv_id": "2601.99999", "source": "openalex", "count": 1, "observed_at": "2026-09-02T00:00:00Z"},
        {"arxiv_id": "2601.00001", "source": "OpenAlex!", "count": 1, "observed_at": "2026-09-02T00:00:00Z"},
        {"arxiv_id": "2601.00001", "source": "openalex", "count": -1, "observed_at": "2026-09-02T00:00:00Z"},
    ))
    report = import_citation_counts(lines_of(lines))
    assert report.created["measurements"] == 3 and sum(report.rejected.values()) == 3
    record = build_record(arxiv_id="2601.00001").record
    assert record["external_citation_measurements"] == [
        {"count": 9, "observed_at": "2026-09-02T00:00:00Z", "source": "openalex"},
        {"count": 15, "observed_at": "2026-10-01T00:00:00Z", "source": "semantic_scholar"}]
    lane = record["coverage"][3]
    assert (lane["records_observed"], lane["source"], lane["source_observed_at"]) == (
        2, "openalex, semantic_scholar", "2026-10-01T00:00:00Z")
    assert import_citation_counts(lines_of(lines)).unchanged == 3


def test_a_record_with_events_reimports_as_a_no_op(cites_retracted_work):
    from citations.sources.record_import import import_record

    sync_standing_source(source="retraction_watch", data=(HEADER + rw_row(50438, CITED_DOI)).encode())
    check_works()
    summary = import_record(data=build_record(arxiv_id="2601.00001").body)
    assert not summary.changed
