"""paper_current: each paper's newest snapshot and reference list, kept by the writers in their own
transaction, equal to what a rebuild from the log gives, and what the lists show at once."""
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from citations.current.papers import rebuild
from citations.models import PaperCurrent, PaperSnapshot
from citations.sources.arxiv_metadata import import_arxiv_metadata
from tests.factories import T0, make_paper, make_references


def _rows() -> dict:
    return {row.paper_id: (row.snapshot_id, row.reference_list_id) for row in PaperCurrent.objects.all()}


def test_the_writers_keep_what_a_rebuild_from_the_log_gives(seeds):
    kept = _rows()
    assert len(kept) == PaperSnapshot.objects.values("paper").distinct().count() and all(s for s, _ in kept.values())
    rebuild()
    assert _rows() == kept


def test_rebuild_command_rebuilds_both_materialised_tables(seeds, capsys):
    PaperCurrent.objects.all().delete()
    call_command("rebuild_current_resolutions")
    out = capsys.readouterr().out
    assert "papers: newest snapshot and reference list rebuilt from the log" in out
    assert PaperCurrent.objects.count() == PaperSnapshot.objects.values("paper").distinct().count()


def test_a_newer_snapshot_shows_in_the_lists_at_once(db, client):
    paper = make_paper("2501.00001", title="The first title")
    make_references(paper, 2)
    assert "The first title" in client.get("/").content.decode()
    PaperSnapshot.objects.create(paper=paper, observed_at=T0 + timedelta(days=1), title="The newer title",
                                 source="arxiv_metadata")
    from citations.current.papers import papers_changed

    papers_changed([paper.pk])
    assert "The newer title" in client.get("/").content.decode()
    listed = APIClient().get("/api/v1/papers/").json()["results"]
    assert [p["title"] for p in listed] == ["The newer title"]


def test_a_paper_without_a_reference_list_is_held_but_not_on_the_home_page(db, client):
    make_paper("2501.00001", title="Held with no list")
    with_list = make_paper("2501.00002", title="Has a list")
    make_references(with_list, 1)
    page = client.get("/").content.decode()
    assert "Has a list" in page and "Held with no list" not in page
    assert {p["arxiv_id"] for p in APIClient().get("/api/v1/papers/").json()["results"]} == {"2501.00001", "2501.00002"}


def test_metadata_import_updates_the_papers_list(db):
    line = ('{"id": "2501.00009", "title": "Imported by the metadata importer", "authors": "A. Author", '
            '"categories": "cs.DC", "versions": [{"version": "v1", "created": "Mon, 6 Jan 2025 10:00:00 GMT"}]}')
    import_arxiv_metadata([line.encode()])
    listed = APIClient().get("/api/v1/papers/?search=2501.00009").json()["results"]
    assert listed[0]["title"] == "Imported by the metadata importer"


def test_a_papers_list_page_costs_the_same_statements_for_1_and_40_papers(db):
    client = APIClient()

    def statements() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/api/v1/papers/").status_code == 200
        return len(queries)

    make_references(make_paper("2501.00001"), 1)
    one = statements()
    for n in range(2, 41):
        make_paper(f"2501.{n:05d}")
    assert statements() == one


def test_the_api_search_reads_the_current_title(db):
    paper = make_paper("2501.00001", title="An older title")
    PaperSnapshot.objects.create(paper=paper, observed_at=T0 + timedelta(days=1), title="A renamed paper",
                                 source="arxiv_metadata")
    from citations.current.papers import papers_changed

    papers_changed([paper.pk])
    client = APIClient()
    assert [p["arxiv_id"] for p in client.get("/api/v1/papers/?search=RENAMED").json()["results"]] == ["2501.00001"]
    assert client.get("/api/v1/papers/?search=older").json()["results"] == []


@pytest.mark.postgresql
def test_title_and_author_search_have_trigram_indexes_on_postgresql(db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'paper_snapshots' AND indexname LIKE '%%trgm'")
        assert {name for (name,) in cursor.fetchall()} == {"paper_snapshot_title_trgm", "paper_snapshot_authors_trgm"}
