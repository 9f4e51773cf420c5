"""reparse_references: every stored list read again by the current parser as a new dated list, so a
record as of before is byte-identical, one after shows the new reading and its resolution, curators'
overrides carry over, and a second run writes nothing."""
import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from citations.input_files import lines_of
from citations.models import Override, PaperReference, PaperReferenceLink, ReferenceExtraction
from citations.models.references import ExtractionOrigin
from citations.parsing import parser as rules
from citations.parsing.reader import READER_NAME, read_reference
from citations.records.build import build_record
from citations.records.canonical import canonical_bytes
from citations.sources import reference_lists, rereading
from citations.sources.arxiv_metadata import import_arxiv_metadata
from citations.sources.reference_lists import ingest_reference_list, ingest_references, reference_list
from citations.sources.rereading import reread_list, reread_papers
from citations.works.importer import import_works
from curation.services import OverrideRefused, apply_override, revision_of
from tests.sources.test_arxiv_metadata import line, metadata

# The rule parser takes the authors into this title; the trained one does not.
MISREAD = ("D. Wierichs, J. Izaac, C. Wang, and C. Y.-Y. Lin, General parameter-shift rules for quantum gradients, "
           "Quantum 6, 677 (2022).")
TITLE = "General parameter-shift rules for quantum gradients"
READ_ALIKE = "A. Author. A title of a work. 2020."
BEFORE = datetime(2026, 1, 10, tzinfo=UTC)


def read_by_an_older_parser(raws):
    """The rule parser's reading of MISREAD; of anything else, what the current parser reads, under
    an older parser's name."""
    return [replace(rules.parse_reference(raw), parser=rules.PARSER_NAME) if raw == MISREAD
            else replace(read_reference(raw), parser="pith-older/0") for raw in raws]


@pytest.fixture
def listed(db, monkeypatch):
    """A paper whose list was ingested before the current parser existed: its first reference misread."""
    import_arxiv_metadata(lines_of(line(metadata("2501.00001"))), observed_at=BEFORE - timedelta(days=1))
    with monkeypatch.context() as patched:
        patched.setattr(reference_lists, "read_references", read_by_an_older_parser)
        ingest_reference_list(reference_list({"arxiv_id": "2501.00001", "version": 1, "source": "pdf_text",
                                              "references": [{"index": 1, "raw": MISREAD}, {"index": 2, "raw": READ_ALIKE}]}),
                              observed_at=BEFORE)
    return ReferenceExtraction.objects.get()


def record_bytes(as_of):
    return canonical_bytes(build_record(arxiv_id="2501.00001", as_of=as_of).record)


def titles(as_of=None):
    outbound = build_record(arxiv_id="2501.00001", as_of=as_of).record["outbound"]
    return [o["citation"]["cited_work"]["title"] for o in outbound]


def test_a_list_read_differently_is_a_new_list_and_the_record_before_it_is_byte_identical(listed):
    import_works(lines_of(json.dumps({"DOI": "10.22331/q-2022-03-30-677", "title": [TITLE], "type": "journal-article",
                                      "issued": {"date-parts": [[2022, 3, 30]]}}).encode()), source="crossref")
    then = BEFORE + timedelta(days=1)
    before = record_bytes(then)
    assert titles(then)[0] != TITLE

    summary = reread_papers(paper_ids=[listed.paper_version.paper_id])

    assert (summary.reread, summary.references) == (1, 2) and summary.changed >= 1
    assert record_bytes(then) == before
    assert titles()[0] == TITLE
    successor = ReferenceExtraction.objects.exclude(pk=listed.pk).get()
    assert (successor.origin, successor.corrects_id, successor.content_digest) == (
        ExtractionOrigin.REREAD, listed.pk, listed.content_digest)
    first = PaperReference.objects.get(extraction=successor, reference_index=1)
    assert first.parser == READER_NAME and first.derived_from.extraction_id == listed.pk
    outbound = build_record(arxiv_id="2501.00001").record["outbound"]
    assert outbound[0]["citation"]["cited_work"]["doi"] == "10.22331/q-2022-03-30-677"
    assert outbound[0]["resolution"]["status"].startswith("verified")


def test_a_reference_read_the_same_keeps_its_reading_and_its_link(listed):
    old = PaperReference.objects.get(extraction=listed, reference_index=2)
    old_link = PaperReferenceLink.objects.get(reference=old)
    reread_papers(paper_ids=[listed.paper_version.paper_id])
    new = PaperReference.objects.get(derived_from=old)
    link = PaperReferenceLink.objects.get(reference=new)
    assert (new.title, new.parser, new.observed_at) == (old.title, "pith-older/0", old.observed_at)
    assert (link.state, link.observed_at, link.evidence["carried_over"]["link"]) == (
        old_link.state, old_link.observed_at, old_link.pk)


def not_read(raws):
    raise AssertionError("a list the current parser has read was read again")


def test_reading_again_twice_writes_nothing_and_reads_nothing_the_second_time(listed, monkeypatch):
    reread_papers(paper_ids=[listed.paper_version.paper_id])
    counts = (ReferenceExtraction.objects.count(), PaperReference.objects.count(), PaperReferenceLink.objects.count())
    # The list written keeps "pith-older/0" on the reference it carried, yet it is the current parser's reading.
    monkeypatch.setattr(rereading, "read_references", not_read)
    again = reread_papers(paper_ids=[listed.paper_version.paper_id])
    assert (again.lists, again.reread, again.current, again.references) == (1, 0, 1, 0)
    assert (ReferenceExtraction.objects.count(), PaperReference.objects.count(),
            PaperReferenceLink.objects.count()) == counts


def test_a_list_every_reference_of_which_reads_the_same_writes_nothing(db, monkeypatch):
    import_arxiv_metadata(lines_of(line(metadata("2501.00001"))), observed_at=BEFORE - timedelta(days=1))
    with monkeypatch.context() as patched:
        patched.setattr(reference_lists, "read_references", read_by_an_older_parser)
        ingest_references(lines_of(line({"arxiv_id": "2501.00001", "version": 1, "source": "pdf_text",
                                         "references": [{"index": 1, "raw": READ_ALIKE}]})))
    extraction = ReferenceExtraction.objects.get()
    summary = reread_list(extraction.pk)
    assert (summary.unchanged, summary.reread, summary.references) == (1, 0, 1)
    assert ReferenceExtraction.objects.count() == 1
    monkeypatch.setattr(rereading, "read_references", not_read)
    again = reread_list(extraction.pk)
    assert (again.current, again.unchanged, again.references) == (1, 0, 0)


def test_a_curators_override_carries_over_to_the_list_read_again(listed, curator):
    old = PaperReference.objects.get(extraction=listed, reference_index=2)
    apply_override(reference_id=old.pk, field="title", value="The title as printed", reason="checked the PDF",
                   curator=curator, expected_revision=revision_of(old.pk))
    reread_papers(paper_ids=[listed.paper_version.paper_id])
    new = PaperReference.objects.get(derived_from=old)
    carried = Override.objects.in_force().get(reference=new)
    assert carried.value_text == "The title as printed" and carried.carried_from.reference_id == old.pk
    assert titles()[1] == "The title as printed"


def test_every_kind_of_override_carries_over_with_its_value(listed, curator):
    old = PaperReference.objects.get(extraction=listed, reference_index=1)
    for field, value in (("index", "7"), ("checked", "")):
        apply_override(reference_id=old.pk, field=field, value=value, reason="as printed", curator=curator,
                       expected_revision=revision_of(old.pk))
    reread_papers(paper_ids=[listed.paper_version.paper_id])
    new = PaperReference.objects.get(derived_from=old)
    carried = {entry.field: entry for entry in Override.objects.in_force().filter(reference=new)}
    assert set(carried) == {"index", "checked"} and carried["index"].value_index == 7
    outbound = build_record(arxiv_id="2501.00001").record["outbound"]
    assert [o["citation"]["reference_index"] for o in outbound] == [2, 7]


def test_a_curator_working_on_the_old_list_is_told_it_was_read_again(listed, curator):
    old = PaperReference.objects.get(extraction=listed, reference_index=1)
    revision = revision_of(old.pk)
    reread_papers(paper_ids=[listed.paper_version.paper_id])
    with pytest.raises(OverrideRefused, match="read again by a newer parser"):
        apply_override(reference_id=old.pk, field="year", value="2015", reason="as printed", curator=curator,
                       expected_revision=revision)


def test_lists_read_from_records_have_no_text_and_are_left_alone(db):
    from tests.factories import make_paper, make_references
    paper = make_paper("2501.00009")
    extraction = make_references(paper, 2)[0].extraction
    extraction_without_text = ReferenceExtraction.objects.create(
        paper_version=extraction.paper_version, source="crossref", origin=ExtractionOrigin.RECORD_IMPORT,
        observed_at=timezone.now())
    PaperReference.objects.create(extraction=extraction_without_text, reference_index=1, title="A work", year=2020,
                                  parser="arxiv_record", observed_at=timezone.now())
    summary = reread_list(extraction_without_text.pk)
    assert (summary.no_text, summary.reread) == (1, 0)


def test_the_command_reads_every_paper_again_and_says_what_it_found(listed):
    out = StringIO()
    call_command("reparse_references", "--all", stdout=out)
    text = out.getvalue()
    assert f"read with {READER_NAME}" in text
    assert "1 lists: 1 written again" in text and "references read differently" in text
    out = StringIO()
    call_command("reparse_references", "--paper", "2501.00001", stdout=out)
    assert "0 written again" in out.getvalue()


@pytest.mark.celery_worker
@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_reading_job_runs_on_real_workers_and_a_second_one_writes_nothing():
    from citations.jobs.planning import plan_rereading
    from citations.models import Job
    from tests.celery_worker import client_call, redis_url, running_worker, wait_until, worker_log
    from tests.factories import make_paper, make_references

    for n in range(4):
        make_references(make_paper(f"2602.{n + 1:05d}"), 5)       # read by a parser named "test"
    broker = redis_url()
    with running_worker(broker) as worker:
        for expected_reread in (4, 0):
            job = plan_rereading(chunk_papers=2)
            client_call(broker, "import django; django.setup()\n"
                                "from citations.jobs.planning import enqueue_job\nfrom citations.models import Job\n"
                                f"enqueue_job(Job.objects.get(pk={job.pk}))")
            assert wait_until(lambda: Job.objects.get(pk=job.pk).state == "succeeded", timeout=90), worker_log(worker)
            counts = Job.objects.get(pk=job.pk).counts
            assert (counts["lists"], counts["reread"], counts["papers"]) == (4, expected_reread, 4)
    assert ReferenceExtraction.objects.filter(origin=ExtractionOrigin.REREAD).count() == 4
    assert not PaperReference.objects.filter(extraction__origin=ExtractionOrigin.REREAD).exclude(
        parser=READER_NAME).exists()


def test_a_chunk_run_again_after_a_lost_worker_counts_each_list_once(db, monkeypatch):
    from citations.jobs.planning import plan_rereading
    from citations.models import Job, JobChunk
    from citations.tasks import reread_chunk
    from tests.factories import make_paper, make_references

    for n in range(3):
        make_references(make_paper(f"2602.{n + 1:05d}"), 2)       # read by a parser named "test"
    job = plan_rereading(chunk_papers=3)
    chunk = JobChunk.objects.get(job=job)
    real, calls = rereading.reread_list, []

    def dies_at_the_second_list(extraction_id, **kwargs):
        calls.append(extraction_id)
        if len(calls) == 2:
            raise SystemExit("the worker is killed")
        return real(extraction_id, **kwargs)

    monkeypatch.setattr(rereading, "reread_list", dies_at_the_second_list)
    with pytest.raises(SystemExit):
        reread_chunk(chunk.pk)
    monkeypatch.setattr(rereading, "reread_list", real)
    reread_chunk(chunk.pk)                                      # redelivered
    counts = Job.objects.get(pk=job.pk).counts
    assert (counts["lists"], counts["reread"], counts["current"]) == (3, 3, 0)
    assert ReferenceExtraction.objects.filter(origin=ExtractionOrigin.REREAD).count() == 3
