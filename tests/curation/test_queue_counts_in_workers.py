"""With workers (the production shape), a curator's page never counts the queues: it shows the last
count, says when it was taken, and asks a worker for one count per change, however many pages are
opened meanwhile; a broker that refuses the message loses nothing, and the next page asks again."""
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

import curation.queues
from curation.models import QueueCounts
from curation.queues import count_queues, queue_counts
from curation.services import apply_override, revision_of
from tests.curation.conftest import seed_reference

CHANGELIST = "/admin/citations/paperreference/"


class Workers:
    """The broker as the pages see it: the messages sent, and whether it takes them."""

    def __init__(self):
        self.sent, self.up = [], True

    def send(self, task_name, **kwargs) -> bool:
        if self.up:
            self.sent.append(task_name)
        return self.up


@pytest.fixture
def workers(monkeypatch):
    broker = Workers()
    monkeypatch.setattr(curation.queues, "send_untracked", broker.send)
    return broker


@pytest.fixture
def decided(seeds, curator):
    """Counted once; then a curator takes one reference out of "Title is an access date" (8 -> 7)."""
    count_queues()
    assert queue_counts()["access_date"] == 8

    def decide():
        reference = seed_reference("2509.11076", 5)
        apply_override(reference_id=reference.pk, field="title", value="NVIDIA Megatron-LM",
                       reason="Named by its URL", curator=curator, expected_revision=revision_of(reference.pk))
    return decide


def _page(client, url) -> tuple[str, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode(), [q["sql"] for q in captured.captured_queries]


def test_pages_show_the_last_count_with_its_time_and_ask_a_worker_once(client, curator, workers, decided):
    client.force_login(curator)
    decided()
    for url in ("/admin/", f"{CHANGELIST}queues/", f"{CHANGELIST}?queue=access_date", "/admin/"):
        html, statements = _page(client, url)
        assert not [sql for sql in statements if "COUNT(" in sql.upper()], url      # no page counts
        assert "the lists have changed since, and a worker is counting them again" in html, url
    assert workers.sent == ["curation.count_queues"]                 # one count for the change
    listed, _ = _page(client, f"{CHANGELIST}?queue=access_date")
    assert "Title is an access date (8)" in listed              # the last count, not a guess
    assert "7 results" not in listed

    count_queues()                                              # the worker's count
    html, _ = _page(client, "/admin/")
    assert "a worker is counting" not in html
    listed, _ = _page(client, f"{CHANGELIST}?queue=access_date")
    assert "Title is an access date (7)" in listed and "7 results" in listed
    assert workers.sent == ["curation.count_queues"]


def test_a_refused_message_is_asked_for_again_a_minute_later(client, curator, workers, decided):
    client.force_login(curator)
    decided()
    workers.up = False
    html, _ = _page(client, "/admin/")
    assert "a worker is counting them again" in html and workers.sent == []
    workers.up = True
    _page(client, "/admin/")
    assert workers.sent == []                   # not every page pays the broker's timeout
    QueueCounts.objects.update(requested_at=F("requested_at") - timedelta(seconds=61))     # a minute on
    _page(client, "/admin/")
    assert workers.sent == ["curation.count_queues"]


def test_before_the_first_count_the_pages_say_so_and_count_nothing(client, curator, workers, seeds):
    client.force_login(curator)
    html, statements = _page(client, "/admin/")
    assert "Not counted yet" in html and not [sql for sql in statements if "COUNT(" in sql.upper()]
    listed, _ = _page(client, f"{CHANGELIST}?queue=access_date")
    assert "Title is an access date" in listed and "Title is an access date (" not in listed
    assert workers.sent == ["curation.count_queues"]


def test_a_count_that_ends_after_a_newer_one_stores_nothing(seeds, curator, monkeypatch):
    count_queues()
    generation_before = curation.queues.lists_generation()
    reference = seed_reference("2509.11076", 5)
    apply_override(reference_id=reference.pk, field="title", value="NVIDIA Megatron-LM", reason="Named by its URL",
                   curator=curator, expected_revision=revision_of(reference.pk))
    count_queues()
    newer = QueueCounts.objects.get()
    # A count begun before the override (at its generation) that ends last.
    monkeypatch.setattr(curation.queues, "lists_generation", lambda: generation_before)
    count_queues()
    assert QueueCounts.objects.get().counted_at == newer.counted_at
    assert QueueCounts.objects.get().generation == newer.generation > generation_before


@pytest.mark.celery_worker
@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_counts_what_a_page_asked_for():
    from citations.models import Job
    from tests.celery_worker import client_call, redis_url, running_worker, wait_until, worker_log
    from tests.factories import make_paper, make_references

    make_references(make_paper("2602.00001"), 12)            # twelve references, none resolved yet
    broker = redis_url()
    page = ("import django; django.setup()\n"
            "from curation.queues import counted\n"
            "shown = counted()\n"
            "print(shown.current, shown.counts and shown.counts['unresolved'])")
    with running_worker(broker) as worker:
        assert client_call(broker, page).split() == ["False", "None"]      # asked, not counted by the page
        assert wait_until(lambda: QueueCounts.objects.filter(counted_at__isnull=False).exists(), timeout=60), \
            worker_log(worker)
        assert client_call(broker, page).split() == ["True", str(queue_counts()["unresolved"])]
    assert not Job.objects.filter(kind="count_queues").exists()
