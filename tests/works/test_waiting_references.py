"""References that found no work wait for it: a work, revision or paper arriving later under a key they
wait under (a title, a volume and page, an arXiv id) sends them back to resolution, and they link."""
import json

import pytest
from django.core.management import call_command

from citations.input_files import lines_of
from citations.models import Job, PaperReference, WaitingReferenceKey
from citations.resolution import waiting as waiting_module
from citations.resolution.matching import ReferenceFields, Resolution
from citations.resolution.service import resolve_references
from citations.resolution.waiting import waiting_keys
from citations.sources.arxiv_metadata import import_arxiv_metadata
from citations.works.importer import import_works
from tests.factories import make_paper
from tests.works.test_import_works import SC20, cite, outbound, read

pytestmark = pytest.mark.usefixtures("db")
ZERO_BY_TITLE = ("S. Rajbhandari, J. Rasley, O. Ruwase, and Y. He. ZeRO: Memory optimizations toward training "
                 "trillion parameter models. In SC20, 2020.")


def waiting(reference) -> int:
    return WaitingReferenceKey.objects.filter(reference=reference).count()


def found_waiting() -> list[int]:
    """How many waiting references each job a works import queued sent to resolution (None: not run)."""
    return [job.counts.get("references") for job in Job.objects.filter(kind="resolve_waiting_for_works")
            .order_by("pk")]


def crossref_line(doi: str, title: str, **fields) -> str:
    return json.dumps({"DOI": doi, "title": [title], "type": "journal-article", **fields})


def test_a_reference_citing_a_work_by_title_alone_links_when_the_work_arrives(django_capture_on_commit_callbacks):
    make_paper("2601.00001", title="Training at scale")
    cite("2601.00001", ZERO_BY_TITLE)
    assert outbound("2601.00001")[0]["resolution"]["status"] == "unresolved"
    reference = PaperReference.objects.get()
    assert waiting(reference) >= 3          # its title's keys

    with django_capture_on_commit_callbacks(execute=True):
        import_works(lines_of(read("openalex_works.jsonl")), source="openalex")
    assert found_waiting() == [1]           # a job queued with the batch found it
    (observation,) = outbound("2601.00001")
    assert observation["resolution"]["status"] == "verified_fuzzy"
    assert observation["citation"]["cited_work"]["doi"] == SC20
    assert waiting(reference) == 0          # linked: it waits no more

    with django_capture_on_commit_callbacks(execute=True):
        import_works(lines_of(read("openalex_works.jsonl")), source="openalex")
    assert found_waiting() == [1]           # the same file again writes no work, and queues nothing


def test_a_reference_naming_an_arxiv_paper_not_held_links_its_published_version_when_that_arrives(
        django_capture_on_commit_callbacks):
    make_paper("2601.00001", title="Training at scale")
    cite("2601.00001", "A. Buckley et al., Rivet user manual, Comput. Phys. Commun. 184 (2013) 2803 "
                       "[arXiv:1003.0694].")
    assert outbound("2601.00001")[0]["resolution"]["status"] == "unresolved"
    line = crossref_line("10.1016/j.cpc.2013.05.021", "Rivet user manual", published={"date-parts": [[2013]]},
                         author=[{"family": "Buckley", "sequence": "first"}])
    with django_capture_on_commit_callbacks(execute=True):
        import_works(lines_of(line.encode()), source="crossref")
    assert found_waiting() == [1]
    (observation,) = outbound("2601.00001")
    assert observation["resolution"]["status"] == "verified_fuzzy"
    assert observation["citation"]["cited_work"]["doi"] == "10.1016/j.cpc.2013.05.021"


def test_a_reference_with_an_unreadable_title_links_when_a_work_printed_at_its_volume_and_page_arrives(
        django_capture_on_commit_callbacks):
    make_paper("2601.00001", title="Training at scale")
    # As physics and astronomy styles print it: no title at all.
    cite("2601.00001", "Tonnesen HH, Karlsen J, Mostad A, Pedersen U, Rasmussen PB, \nLawesson SO (1983) "
                       "Acta Chem Scand B 37:179-185")
    assert outbound("2601.00001")[0]["resolution"]["status"] in ("unresolved", "parse_uncertain")
    line = crossref_line("10.3891/acta.chem.scand.37b-0179", "Structural studies of curcuminoids. II. Crystal structure "
                         "of 1,7-bis(4-hydroxyphenyl)-1,6-heptadiene-3,5-dione methanol complex",
                         author=[{"family": "Tonnesen", "sequence": "first"}], volume="37", page="179-185",
                         **{"container-title": ["Acta Chemica Scandinavica B"]})
    with django_capture_on_commit_callbacks(execute=True):
        import_works(lines_of(line.encode()), source="crossref")
    assert found_waiting() == [1]
    (observation,) = outbound("2601.00001")
    assert observation["resolution"]["resolver_source"] == "journal_volume_page"
    assert observation["citation"]["cited_work"]["doi"] == "10.3891/acta.chem.scand.37b-0179"


def test_references_naming_a_paper_not_held_link_when_its_metadata_arrives(django_capture_on_commit_callbacks):
    make_paper("2601.00001", title="Training at scale")
    cite("2601.00001", "A. Author. Sparse mixtures of experts at scale. arXiv:2601.00002, 2026.",
         "B. Author. Elastic checkpointing for preemptible accelerator fleets. 2026.",
         "C. Author. J. Mach. Learn. Res. 27, 2026. doi:10.1000/jmlr.2026.7")
    assert [o["resolution"]["status"] for o in outbound("2601.00001")] == ["unresolved", "unresolved", "parse_uncertain"]
    lines = b"".join(json.dumps({
        "id": arxiv_id, "title": title, "authors": "A. Author", "authors_parsed": [["Author", "A.", ""]],
        "versions": [{"version": "v1", "created": "Mon, 05 Jan 2026 10:00:00 GMT"}], "update_date": "2026-01-05",
        "categories": "cs.LG", "doi": doi, "journal-ref": None}).encode() + b"\n"
        for arxiv_id, title, doi in (("2601.00002", "Sparse Mixtures of Experts at Scale", None),
                                     ("2601.00003", "Elastic Checkpointing for Preemptible Accelerator Fleets", None),
                                     ("2601.00004", "Some Other Words Entirely", "10.1000/JMLR.2026.7")))
    with django_capture_on_commit_callbacks(execute=True):
        import_arxiv_metadata(lines_of(lines))
    found = [(o["resolution"]["status"], o["citation"]["cited_work"]["pith_arxiv_id"]) for o in outbound("2601.00001")]
    assert found == [("verified_exact", "2601.00002"), ("verified_fuzzy", "2601.00003"), ("verified_exact", "2601.00004")]


def test_a_title_many_works_share_does_not_send_its_waiting_references_back_for_nothing(
        django_capture_on_commit_callbacks):
    # "Deep learning" is filed under one key; with more than SPECIFIC_KEY works under it, the resolver
    # finds none of them for a reference sharing that key alone, so a 31st does not send it back.
    import_works(lines_of("\n".join(crossref_line(f"10.1000/dl.{n}", "Deep Learning") for n in range(30)).encode()),
                 source="crossref")
    make_paper("2601.00001", title="Training at scale")
    cite("2601.00001", "Y. LeCun. Deep learning. 2015.")
    assert outbound("2601.00001")[0]["resolution"]["status"] == "unresolved"
    assert waiting(PaperReference.objects.get()) == 1
    with django_capture_on_commit_callbacks(execute=True):
        report = import_works(lines_of(crossref_line("10.1000/dl.30", "Deep Learning").encode()), source="crossref")
    assert report.created["works"] == 1 and found_waiting()[-1] == 0


def test_what_a_reference_waits_under():
    title = "Elastic checkpointing for preemptible accelerator fleets"
    unresolved = Resolution("unresolved", "title_year")
    assert len(waiting_keys(ReferenceFields(title=title, year=None), unresolved)) == 4
    assert waiting_keys(ReferenceFields(title=title, year=None), Resolution("verified_fuzzy", "title_year")) == set()
    assert waiting_keys(ReferenceFields(title=title, year=None, not_a_work=True), Resolution("unresolved", "curation")) == set()
    named = ReferenceFields(title=title, year=None, identifiers=({"kind": "arxiv", "value": "2601.00002", "valid": True},))
    # That paper resolves it, and so may a work without an arXiv id under its title: its published version.
    assert len(waiting_keys(named, Resolution("unresolved", "arxiv_id"))) == 1 + 4


def test_a_store_resolved_before_the_index_existed_is_filed_by_a_command(capsys):
    make_paper("2601.00001", title="Training at scale")
    cite("2601.00001", ZERO_BY_TITLE, "Some reference that is not a work at all")
    filed = set(WaitingReferenceKey.objects.values_list("key", "reference_id"))
    WaitingReferenceKey.objects.all().delete()
    call_command("file_waiting_references")
    assert set(WaitingReferenceKey.objects.values_list("key", "reference_id")) == filed
    assert "2 unresolved references read" in capsys.readouterr().out


def test_a_reference_that_links_while_the_command_files_it_is_left_linked(monkeypatch,
                                                                          django_capture_on_commit_callbacks):
    make_paper("2601.00001", title="Training at scale")
    cite("2601.00001", ZERO_BY_TITLE)
    reference = PaperReference.objects.get()
    WaitingReferenceKey.objects.all().delete()          # a store resolved before the index existed
    real_atomic, arrived = waiting_module.transaction.atomic, []

    def work_arrives_first(*args, **kwargs):
        # Between the command's read of the unresolved references and its lock on them, the work
        # arrives and the reference is resolved (say by `resolve --all`): it links, and its resolution
        # rewrites its filing (none).
        if not arrived:
            arrived.append(True)
            with django_capture_on_commit_callbacks(execute=True):
                import_works(lines_of(read("openalex_works.jsonl")), source="openalex")
                resolve_references(reference_ids=[reference.pk])
        return real_atomic(*args, **kwargs)

    monkeypatch.setattr(waiting_module.transaction, "atomic", work_arrives_first)
    call_command("file_waiting_references")
    assert arrived and outbound("2601.00001")[0]["resolution"]["status"] == "verified_fuzzy"
    assert waiting(reference) == 0


def test_a_purged_reference_waits_no_more(django_user_model):
    from citations.purge import purge_references

    make_paper("2601.00001", title="Training at scale")
    cite("2601.00001", ZERO_BY_TITLE)
    assert WaitingReferenceKey.objects.exists()
    operator = django_user_model.objects.create_user("operator", is_staff=True)
    purge_references(arxiv_id="2601.00001", reason="takedown request from the authors", operator=operator)
    assert not WaitingReferenceKey.objects.exists()


@pytest.mark.celery_worker
@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_on_real_workers_a_works_import_links_the_references_waiting_for_its_titles():
    from tests.celery_worker import client_call, redis_url, running_worker, wait_until, worker_log
    from tests.works.test_import_works import FIXTURES

    broker = redis_url()
    make_paper("2601.00001", title="Training at scale")
    cite("2601.00001", ZERO_BY_TITLE)
    with running_worker(broker) as worker:
        # The operator's command, in a process of its own configured for the broker.
        client_call(broker, "import django; django.setup()\nfrom django.core.management import call_command\n"
                            f"call_command('import_works', 'openalex', {str(FIXTURES / 'openalex_works.jsonl')!r})")
        assert wait_until(lambda: outbound("2601.00001")[0]["resolution"]["status"] == "verified_fuzzy", timeout=60), \
            worker_log(worker)
    assert outbound("2601.00001")[0]["citation"]["cited_work"]["doi"] == SC20
    assert found_waiting() == [1]
