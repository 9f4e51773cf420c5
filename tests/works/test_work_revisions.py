"""A work's later statements: a source saying more of a work already held is a dated revision, shown by
the record as of its time and weighed by resolution; nothing is rewritten."""
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from citations.input_files import lines_of
from citations.models import CitedWork, WorkRevision, WorkTitleKey
from citations.records.build import build_record
from citations.records.timestamps import render_z
from citations.resolution.service import resolve_paper
from citations.sources.reference_lists import ReferenceList, ingest_reference_list
from citations.works.importer import import_works
from tests.factories import make_paper

FIXTURES = Path(__file__).parent / "fixtures"
T1 = datetime(2026, 3, 1, tzinfo=UTC)
T2 = datetime(2026, 4, 1, tzinfo=UTC)
TITLE = "Hidden variables in the retracted cohort study of sleep"

pytestmark = pytest.mark.usefixtures("db")

NOTICE = {"DOI": "10.1000/notice.1", "title": ["Retraction notice"], "type": "retraction",
          "update-to": [{"DOI": "10.1000/paper.1", "type": "retraction"}]}
PAPER = {"DOI": "10.1000/paper.1", "title": [TITLE], "author": [{"family": "Okafor", "sequence": "first"}],
         "container-title": ["Journal of Sleep Research"], "volume": "31", "page": "e13502",
         "issued": {"date-parts": [[2021, 5]]}, "type": "journal-article"}


def crossref_lines(*works) -> list[bytes]:
    return lines_of(b"\n".join(json.dumps(work).encode() for work in works))


def cite(arxiv_id: str, *raws: str) -> None:
    ingest_reference_list(ReferenceList(arxiv_id, 1, "pdf_text", tuple(enumerate(raws, 1))))
    resolve_paper(arxiv_id=arxiv_id)


def cited_work(arxiv_id: str, *, as_of: datetime | None = None) -> dict:
    (observation,) = build_record(arxiv_id=arxiv_id, as_of=as_of).record["outbound"]
    return observation["citation"]["cited_work"]


def test_a_work_first_known_by_a_notice_takes_the_title_its_own_record_gives_later():
    import_works(crossref_lines(NOTICE), source="crossref", observed_at=T1)
    stub = CitedWork.objects.get(doi="10.1000/paper.1")
    assert stub.title is None

    report = import_works(crossref_lines(PAPER), source="crossref", observed_at=T2)

    assert report.created["works revised (a source said more of them)"] == 1 and not report.created.get("works")
    (revision,) = WorkRevision.objects.filter(work=stub)
    assert (revision.source, revision.observed_at, revision.title, revision.year, revision.first_author) == (
        "crossref", T2, TITLE, 2021, "Okafor")
    assert CitedWork.objects.get(pk=stub.pk).title is None          # the first observation is never rewritten
    assert WorkTitleKey.objects.filter(work=stub).exists()              # filed under its title's keys


def test_the_record_shows_the_newest_titled_statement_as_of_its_time():
    make_paper("2601.00001", title="Sleep at scale")
    import_works(crossref_lines(NOTICE), source="crossref", observed_at=T1)
    cite("2601.00001", "A. Okafor. Sleep study. doi:10.1000/paper.1")
    before = cited_work("2601.00001")
    assert (before["doi"], before["title"], before["metadata_source"]) == ("10.1000/paper.1", None, "crossref")
    between = timezone.now()

    revised_at = between + timedelta(seconds=1)
    import_works(crossref_lines(PAPER), source="crossref", observed_at=revised_at)

    after = cited_work("2601.00001", as_of=revised_at + timedelta(seconds=1))
    assert (after["title"], after["year"], after["venue"], after["metadata_source"]) == (
        TITLE, 2021, "Journal of Sleep Research", "crossref")
    assert after["snapshot_observed_at"] == render_z(revised_at)
    assert after["work_id"] == before["work_id"]
    # As of a time before the revision was observed, the record is what it was then.
    assert cited_work("2601.00001", as_of=between) == before


def test_a_reference_citing_only_the_revised_title_links_to_the_work():
    make_paper("2601.00001", title="Sleep at scale")
    import_works(crossref_lines(NOTICE), source="crossref", observed_at=T1)
    import_works(crossref_lines(PAPER), source="crossref", observed_at=T2)
    cite("2601.00001", f"Okafor A, Mensah K. {TITLE}. J Sleep Res. 2021.")
    work = cited_work("2601.00001")
    assert work["doi"] == "10.1000/paper.1"


def test_importing_a_revision_again_writes_nothing():
    import_works(crossref_lines(NOTICE), source="crossref", observed_at=T1)
    import_works(crossref_lines(PAPER), source="crossref", observed_at=T2)
    before = (WorkRevision.objects.count(), WorkTitleKey.objects.count())
    report = import_works(crossref_lines(PAPER, NOTICE), source="crossref",
                          observed_at=datetime(2026, 5, 1, tzinfo=UTC))
    assert (WorkRevision.objects.count(), WorkTitleKey.objects.count()) == before
    assert report.unchanged == 3 and not report.created.get("works revised (a source said more of them)")


def test_a_record_repeating_what_is_known_in_another_case_is_not_a_revision():
    import_works(crossref_lines(PAPER), source="crossref", observed_at=T1)
    same = {**PAPER, "title": [TITLE.upper() + "."], "author": [{"family": "OKAFOR", "sequence": "first"}]}
    import_works(crossref_lines(same), source="crossref", observed_at=T2)
    assert not WorkRevision.objects.exists()


def test_the_venue_record_of_a_preprint_is_a_revision_of_its_work():
    # dblp's CoRR record makes the work; its SC 2020 record is the same work, and says its venue and year.
    import_works(lines_of((FIXTURES / "dblp.xml").read_bytes()), source="dblp", observed_at=T1)
    zero = CitedWork.objects.get(arxiv_id="1910.02054")
    (revision,) = WorkRevision.objects.filter(work=zero)
    assert revision.source == "dblp" and revision.year == 2020 and "SC" in (revision.container_title or "")
    assert zero.container_title != revision.container_title


def test_the_works_api_shows_the_newest_statement_and_every_revision(client):
    import_works(crossref_lines(NOTICE), source="crossref", observed_at=T1)
    import_works(crossref_lines(PAPER), source="crossref", observed_at=T2)
    (work,) = client.get("/api/v1/works/", {"doi": "10.1000/paper.1"}).json()["results"]
    assert (work["title"], work["year"], work["venue"], work["metadata_source"]) == (
        TITLE, 2021, "Journal of Sleep Research", "crossref")
    assert work["snapshot_observed_at"].startswith("2026-04-01T00:00:00")
    assert [(r["source"], r["title"]) for r in work["revisions"]] == [("crossref", TITLE)]


def test_a_works_page_costs_the_same_statements_for_one_work_and_for_twenty(client, django_assert_num_queries):
    from django.core.cache import cache

    from citations.api.page_cache import local_pages

    def page_statements() -> int:
        local_pages.clear()
        cache.clear()
        with django_assert_num_queries(3) as counted:    # the lists' generation, the page, its revisions
            assert client.get("/api/v1/works/").status_code == 200
        return len(counted.captured_queries)

    import_works(crossref_lines(NOTICE), source="crossref", observed_at=T1)
    import_works(crossref_lines(PAPER), source="crossref", observed_at=T2)
    client.get("/api/v1/works/")
    page_statements()
    more = [{**PAPER, "DOI": f"10.1000/more.{n}", "title": [f"Another sleep study number {n} of many"]}
            for n in range(20)]
    import_works(crossref_lines(*more), source="crossref", observed_at=T2)
    import_works(crossref_lines(*[{**w, "title": [w["title"][0] + " revisited"]} for w in more]), source="crossref",
                 observed_at=datetime(2026, 5, 1, tzinfo=UTC))
    assert WorkRevision.objects.count() == 21
    page_statements()


def test_a_back_dated_record_is_refused_and_a_record_published_before_keeps_its_bytes(tmp_path, capsys):
    """import_works --observed-at a time before the work's first observation would have changed the title,
    venue and digest of a record as of a later time: the record is refused, named and counted."""
    from django.core.management import CommandError, call_command

    from citations.works.batch_plan import BACK_DATED

    make_paper("2601.00001", title="Sleep at scale")
    import_works(crossref_lines(PAPER), source="crossref", observed_at=T2)
    cite("2601.00001", f"Okafor A. {TITLE}. J Sleep Res. 2021. doi:10.1000/paper.1")
    as_of = timezone.now()
    published = build_record(arxiv_id="2601.00001", as_of=as_of).body
    assert cited_work("2601.00001", as_of=as_of)["title"] == TITLE
    older = {**PAPER, "title": ["An earlier title of the sleep study"], "container-title": ["Sleep Letters"]}
    other = {**PAPER, "DOI": "10.1000/other.1", "title": ["A study no store held before"]}
    path = tmp_path / "back-dated.jsonl"
    path.write_bytes(b"".join(crossref_lines(other, older, PAPER)))
    with pytest.raises(CommandError, match=r"^1 of 3 records rejected; the others were imported$"):
        call_command("import_works", "crossref", str(path), "--observed-at", T1.isoformat())
    out = capsys.readouterr().out
    assert BACK_DATED in out and "(first at line 2)" in out
    assert not WorkRevision.objects.exists() and CitedWork.objects.filter(doi="10.1000/other.1").exists()
    assert build_record(arxiv_id="2601.00001", as_of=as_of).body == published
    # Dated after what is held, the same record is a revision, as before.
    report = import_works(crossref_lines(older), source="crossref", observed_at=timezone.now())
    assert report.created["works revised (a source said more of them)"] == 1 and not report.rejected
