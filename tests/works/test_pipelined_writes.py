"""On PostgreSQL, outside a caller's transaction, import_works decides a batch while a thread of its own
stores the batch before (writers.PipelinedWriter). The store it leaves is the one the batches written
one after the other leave: a batch reaching what the batch being stored writes waits for it."""
import json

import pytest
from django.db import connection

from citations.input_files import lines_of
from citations.models import CitedWork, WorkIdentifier, WorkTitleKey
from citations.parsing.text import title_fingerprints
from citations.works import importer, read_ahead, writers
from citations.works.importer import import_works

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]


def line(doi, title=None, **fields) -> dict:
    return {"DOI": doi, "type": "journal-article", **({"title": [title]} if title else {}), **fields}


def lines(*works) -> list[bytes]:
    return lines_of(b"\n".join(json.dumps(work).encode() for work in works))


@pytest.fixture
def batches_of_three(monkeypatch):
    """Batches of three records; counts how each batch was written."""
    monkeypatch.setattr(importer, "BATCH", 3)
    monkeypatch.setattr(read_ahead, "READ_AHEAD_CHUNK", 2)
    written = {"decided ahead": 0, "serially": 0}
    for name, how in (("_store_and_resolve", "decided ahead"), ("_write_and_resolve", "serially")):
        def counted(*args, _original=getattr(writers, name), _how=how):
            written[_how] += 1
            return _original(*args)
        monkeypatch.setattr(writers, name, counted)
    return written


FILE = [
    line("10.1234/w0", "Pipelined import of the first work"), line("10.1234/w1", "Second work of the file"),
    line("10.1234/w2", "Third work of the file"),
    # the batch being stored made w0: this record joins its preprint's DOI to it
    line("10.1234/w3", "Fourth work of the file"), line("10.1234/w4", "Fifth work of the file"),
    line("10.1234/w0", "Pipelined import of the first work",
         relation={"has-preprint": [{"id": "10.1234/w0-preprint", "id-type": "doi"}]}),
    # nothing in common with the batch before: decided while it is stored
    line("10.1234/w5", "Sixth work of the file"), line("10.1234/w6", "Seventh work of the file"),
    line("10.1234/w7", "Eighth work of the file"),
    # a notice updating w5, which the batch being stored made
    line("10.1234/notice", "Retraction notice: sixth work", **{"update-to": [{"DOI": "10.1234/w5"}]}),
]


@pytest.mark.parametrize("pipelined", [True, False])
def test_batches_decided_while_the_one_before_is_stored_leave_the_store_serial_writes_leave(
        batches_of_three, monkeypatch, pipelined):
    if not pipelined:
        monkeypatch.setattr(importer, "_can_pipeline", lambda: False)
    report = import_works(lines(*FILE), source="crossref")
    # Pipelined: batches 1 and 3 are decided ahead; 2 and 4 reach what the batch before wrote, and are
    # written after it (none is written twice: a batch decided ahead that clashed would be).
    assert batches_of_three == ({"decided ahead": 2, "serially": 2} if pipelined
                                else {"decided ahead": 0, "serially": 4})
    assert report.created["works"] == 9 and report.created["works joined by new identifiers"] == 1
    # (the notice's bare record of w5 is one more record read, and leaves w5 as it is)
    assert report.created["identifiers"] == 10 and report.unchanged == 1 and report.lines == 11
    assert CitedWork.objects.count() == 9
    w0 = CitedWork.objects.get(doi="10.1234/w0")
    assert set(w0.identifiers.values_list("value", flat=True)) == {"10.1234/w0", "10.1234/w0-preprint"}
    assert WorkIdentifier.objects.filter(value="10.1234/w5").count() == 1
    for work in CitedWork.objects.all():
        assert set(WorkTitleKey.objects.filter(work=work).values_list("key", flat=True)) == \
            title_fingerprints(work.title)
    again = import_works(lines(*FILE), source="crossref")
    assert not again.created.get("works") and not again.created.get("identifiers") and again.unchanged == 11
    assert CitedWork.objects.count() == 9


def open_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        return cursor.fetchone()[0]


def test_a_batch_failing_in_the_writing_thread_is_raised_the_batches_before_stay_and_its_connection_closes(
        batches_of_three, monkeypatch):
    before = open_connections()
    stored = []
    original = writers.store_batch

    def store(plan, observed_at, *, copy):
        if len(stored) == 2:
            raise RuntimeError("the database went away")
        stored.append(plan)
        original(plan, observed_at, copy=copy)

    monkeypatch.setattr(writers, "store_batch", store)
    with pytest.raises(RuntimeError, match="went away"):
        import_works(lines(*(line(f"10.1234/f{n}", f"Work {n} of a failing import") for n in range(12))),
                     source="crossref")
    assert CitedWork.objects.count() == 6                 # two whole batches; the third rolled back
    assert open_connections() == before


def test_inside_a_callers_transaction_batches_are_written_in_it(batches_of_three):
    from django.db import transaction

    with transaction.atomic():
        import_works(lines(*FILE[:6]), source="crossref")
        assert CitedWork.objects.count() == 5           # seen inside: written on this connection
    assert batches_of_three == {"decided ahead": 0, "serially": 2}


@pytest.mark.parametrize("pipelined", [True, False])
def test_a_work_another_importer_wrote_meanwhile_is_joined_not_written_twice(batches_of_three, monkeypatch,
                                                                             pipelined):
    import threading
    from datetime import timedelta

    from django.db import connections
    from django.utils import timezone

    if not pipelined:
        monkeypatch.setattr(importer, "_can_pipeline", lambda: False)
    original = writers.plan_batch

    def another_importer():
        # Dated before this import's time: a later one would make this import's record back-dated
        # (refused, test_work_revisions.py).
        CitedWork.objects.create(doi="10.1234/c1", title="Written by another importer",
                                 snapshot_observed_at=timezone.now() - timedelta(hours=1))
        connections.close_all()

    def decided_then_another_importer_writes(*args, **kwargs):
        plan = original(*args, **kwargs)
        if not CitedWork.objects.filter(doi="10.1234/c1").exists():
            thread = threading.Thread(target=another_importer)      # its own connection, committed
            thread.start()
            thread.join()
        return plan

    monkeypatch.setattr(writers, "plan_batch", decided_then_another_importer_writes)
    report = import_works(lines(line("10.1234/c0", "A work of this import"), line("10.1234/c1", "The raced work")),
                          source="crossref")
    # c1 is found on the batch's second reading, and its own record is a revision of it
    assert report.created["works"] == report.created["works revised (a source said more of them)"] == 1
    raced = CitedWork.objects.get(doi="10.1234/c1")
    assert raced.title == "Written by another importer" and raced.stated.title == "The raced work"
    assert CitedWork.objects.count() == 2


@pytest.mark.parametrize("pipelined", [True, False])
def test_back_dated_records_are_refused_with_their_lines_however_the_batches_are_written(
        batches_of_three, monkeypatch, pipelined):
    from datetime import UTC, datetime

    from citations.models import WorkRevision
    from citations.works.batch_plan import BACK_DATED

    if not pipelined:
        monkeypatch.setattr(importer, "_can_pipeline", lambda: False)
    import_works(lines(*FILE[:5]), source="crossref", observed_at=datetime(2026, 4, 1, tzinfo=UTC))
    older = [line(f"10.1234/w{n}", f"An earlier title of work {n}") for n in range(5)]
    fresh = [line(f"10.1234/n{n}", f"A new work {n}") for n in range(4)]
    report = import_works(lines(fresh[0], older[0], fresh[1], older[1], older[2], fresh[2], fresh[3], older[3]),
                          source="crossref", observed_at=datetime(2026, 3, 1, tzinfo=UTC))
    assert dict(report.rejected) == {BACK_DATED: 4} and report.examples[BACK_DATED] == 2
    assert report.created["works"] == 4 and not WorkRevision.objects.exists()
