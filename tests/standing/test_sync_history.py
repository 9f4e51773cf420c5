"""A source's revision is a new dated observation: what a record said as of a time, it says forever."""
import json
from datetime import timedelta

from django.core.management import call_command
from django.utils import timezone

from citations.models import ReceiptEvent, RetractionStatusReceipt, ScholarlyWorkEvent
from citations.records.build import build_record
from citations.sources.record_import import import_record
from citations.standing.checks import check_works
from citations.standing.revisions import newest_as_of
from citations.standing.sync import sync_standing_source
from tests.standing.test_checks import CITED_DOI, HEADER, cites_retracted_work, notice_of, rw_row  # noqa: F401

RETRACTED = (HEADER + rw_row(50438, CITED_DOI)).encode()
CORRECTED = (HEADER + rw_row(50438, CITED_DOI, nature="Correction", notice="10.1155/2023/0000001")).encode()
OTHER_ROW = (HEADER + rw_row(7, "10.1000/corrected", nature="Correction", notice="10.1000/fix")).encode()


def sync(data: bytes):
    report = sync_standing_source(source="retraction_watch", data=data)
    assert report.status == "succeeded", report.error
    return report


def export(capfdbinary, *args) -> bytes:
    call_command("export_record", "2601.00001", *args)
    return capfdbinary.readouterr().out


def event_types(body: bytes, index: int = 1) -> list[str]:
    return [e["event_type"] for e in notice_of(json.loads(body), index)["events"]]


def test_a_revised_row_leaves_the_export_as_of_an_earlier_time_byte_identical(cites_retracted_work, capfdbinary):
    sync(RETRACTED)
    check_works()
    t1 = timezone.now().isoformat()
    before = export(capfdbinary, "--as-of", t1)
    assert sync(CORRECTED).counts["revised"] == 1
    check_works()
    assert export(capfdbinary, "--as-of", t1) == before
    assert event_types(before) == ["retraction"]
    assert event_types(export(capfdbinary)) == ["correction"]


def test_a_revision_adds_a_row_and_never_changes_the_one_before(cites_retracted_work):
    first = sync(RETRACTED)
    old = ScholarlyWorkEvent.objects.get()
    held = {name: getattr(old, name) for name in ("event_type", "notice_doi", "observed_at", "reason")}
    second = sync(CORRECTED)
    revisions = list(ScholarlyWorkEvent.objects.filter(source_record_id="50438").order_by("observed_at"))
    assert [(r.event_type, r.observed_at) for r in revisions] == [("retraction", first.observed_at),
                                                                 ("correction", second.observed_at)]
    old.refresh_from_db()
    assert {name: getattr(old, name) for name in held} == held


def test_each_receipt_keeps_the_revision_newest_at_its_sync(cites_retracted_work):
    sync(RETRACTED)
    check_works()
    sync(CORRECTED)
    check_works()
    found = [(r.observed_at, ReceiptEvent.objects.get(receipt=r).event.event_type)
             for r in RetractionStatusReceipt.objects.filter(work__doi=CITED_DOI).order_by("observed_at")]
    assert [kind for _, kind in found] == ["retraction", "correction"]


def test_the_same_file_again_writes_no_revision(cites_retracted_work):
    sync(RETRACTED)
    sync(CORRECTED)
    again = sync(CORRECTED)
    assert (again.counts["new"], again.counts["revised"], again.counts["unchanged"]) == (0, 0, 1)
    assert ScholarlyWorkEvent.objects.count() == 2


def test_a_row_revised_back_is_a_third_revision_and_the_newest_wins(cites_retracted_work):
    sync(RETRACTED)
    sync(CORRECTED)
    sync(RETRACTED)
    check_works()
    assert ScholarlyWorkEvent.objects.count() == 3
    assert event_types(build_record(arxiv_id="2601.00001").body) == ["retraction"]


def test_a_row_the_source_dropped_stays_as_it_was(cites_retracted_work):
    sync(RETRACTED)
    check_works()
    sync(OTHER_ROW)
    check_works()
    assert ScholarlyWorkEvent.objects.filter(source_record_id="50438").count() == 1
    assert event_types(build_record(arxiv_id="2601.00001").body) == ["retraction"]


def test_a_record_moved_to_another_work_is_no_longer_found_for_the_first(cites_retracted_work):
    # Only the newest revision of a record counts, whatever DOI an older one was about.
    sync(RETRACTED)
    check_works()
    sync((HEADER + rw_row(50438, "10.1000/corrected")).encode())
    check_works()
    record = build_record(arxiv_id="2601.00001").record
    assert notice_of(record, 1)["events"] == []
    assert [e["event_type"] for e in notice_of(record, 2)["events"]] == ["retraction"]


def test_newest_as_of_a_time_is_the_revision_observed_by_then(db):
    first = sync(RETRACTED)
    second = sync(CORRECTED)
    held = ScholarlyWorkEvent.objects.all()
    assert [e.event_type for e in newest_as_of(held, first.observed_at)] == ["retraction"]
    assert [e.event_type for e in newest_as_of(held, second.observed_at)] == ["correction"]
    assert [e.event_type for e in newest_as_of(held)] == ["correction"]
    assert not newest_as_of(held, first.observed_at - timedelta(seconds=1)).exists()


def test_the_record_stays_within_six_statements_with_revisions(cites_retracted_work, django_assert_max_num_queries):
    sync(RETRACTED)
    check_works()
    sync(CORRECTED)
    check_works()
    with django_assert_max_num_queries(6):
        build_record(arxiv_id="2601.00001")


def test_a_record_reimports_as_a_no_op_after_a_revision(cites_retracted_work):
    sync(RETRACTED)
    check_works()
    sync(CORRECTED)
    check_works()
    assert not import_record(data=build_record(arxiv_id="2601.00001").body).changed


def test_the_api_lists_what_each_source_now_says_and_every_revision_on_request(cites_retracted_work, client):
    sync(RETRACTED)
    sync(CORRECTED)
    listed = client.get("/api/v1/standing-events/", {"source": "retraction_watch"}).json()["results"]
    assert [(e["source_record_id"], e["event_type"]) for e in listed] == [("50438", "correction")]
    every = client.get("/api/v1/standing-events/", {"source": "retraction_watch", "revisions": "all"}).json()["results"]
    assert sorted(e["event_type"] for e in every) == ["correction", "retraction"]
    assert client.get("/api/v1/standing-events/", {"revisions": "some"}).status_code == 400
