"""Queue pages answer as fast as public pages (issue 31, item 11): a fixed number of statements
whatever the list's length, and no count over the references while nothing changed."""
from django.db import connection
from django.test.utils import CaptureQueriesContext

from curation.services import apply_override, revision_of
from tests.curation.conftest import seed_reference
from tests.factories import make_paper, make_references

CHANGELIST = "/admin/citations/paperreference/"
PAGES = ("/admin/", f"{CHANGELIST}queues/", CHANGELIST, f"{CHANGELIST}?queue=no_title",
         f"{CHANGELIST}?queue=unresolved", f"{CHANGELIST}?queue=access_date")


def _statements(client, url) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return [query["sql"] for query in captured.captured_queries]


def _counts(statements) -> list[str]:
    return [sql for sql in statements if "COUNT(" in sql.upper()]


def test_a_queue_page_costs_the_same_statements_for_2_rows_and_for_40(client, curator, seeds):
    client.force_login(curator)
    for url in PAGES:
        client.get(url)                                   # the counts, cached
    few = {url: len(_statements(client, url)) for url in PAGES}
    make_references(make_paper("2501.00001"), 40)
    for url in PAGES:
        client.get(url)
    many = {url: len(_statements(client, url)) for url in PAGES}
    assert few == many
    # Session, user, two permission reads, the generation, the rows (and on the home page the log).
    assert many[f"{CHANGELIST}?queue=no_title"] <= 8


def test_queue_counts_are_counted_once_per_change(client, curator, seeds):
    client.force_login(curator)
    for url in PAGES:
        client.get(url)
    assert all(not _counts(_statements(client, url)) for url in PAGES)
    reference = seed_reference("2509.11076", 5)
    apply_override(reference_id=reference.pk, field="title", value="NVIDIA Megatron-LM", reason="Named by its URL",
                   curator=curator, expected_revision=revision_of(reference.pk))
    assert _counts(_statements(client, "/admin/"))           # counted again after the write
    html = client.get(f"{CHANGELIST}?queue=access_date").content.decode()
    assert "Title is an access date (7)" in html and "7 results" in html


def test_a_queue_counted_empty_since_the_last_change_reads_no_reference(client, curator, seeds):
    """An empty queue's list would walk every reference to find nothing (a regular expression or a
    range no index serves): once counted empty at the lists' generation, it is not read at all."""
    client.force_login(curator)
    client.get("/admin/")                                  # counted
    statements = _statements(client, f"{CHANGELIST}?queue=old_year")
    assert not [sql for sql in statements if '"paper_references"' in sql]
    html = client.get(f"{CHANGELIST}?queue=old_year").content.decode()
    assert "0 results" in html or "0 paper references" in html
