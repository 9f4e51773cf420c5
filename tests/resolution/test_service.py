import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from citations.models import CitedWork, PaperReference, PaperReferenceLink
from citations.records.build import build_record
from citations.resolution.index import index_paper_titles
from citations.resolution.service import resolve_paper, resolve_references
from tests.conftest import SEED_000, SEED_004
from tests.factories import make_paper


@pytest.fixture
def resolved_seeds(seeds, capsys):
    call_command("resolve", "--all")
    return capsys.readouterr().out


def test_resolving_the_seeds_verifies_the_35_held_arxiv_papers(resolved_seeds):
    held_in_seeds = {o["observation_id"] for path in (SEED_000, SEED_004) for o in json.loads(path.read_bytes())["outbound"]
                     if o["citation"]["cited_work"]["pith_arxiv_id"]}
    outbound = [o for arxiv_id in ("2509.11076", "2509.23722") for o in build_record(arxiv_id=arxiv_id).record["outbound"]]
    named = [o for o in outbound if o["observation_id"] in held_in_seeds]
    assert len(named) == 35
    assert {o["resolution"]["status"] for o in named} == {"verified_exact"}
    assert {o["resolution"]["resolver_source"] for o in named} == {"arxiv_id"}
    # Newly resolved: the resolution time is after the references were observed, and each now has a canonical
    # work, checked against the synchronised sources as it was linked (standing on link), not pending.
    assert all(o["resolution"]["observed_at"] > o["citation"]["source_observed_at"] for o in named)
    assert all(o["citation"]["cited_work"]["work_id"] for o in named)
    assert {o["standing_notice"]["reason"] for o in named} == {None}
    assert all(o["standing_notice"]["source_receipts"] for o in named)


def test_the_resolve_command_prints_a_summary_of_states(resolved_seeds):
    # The 4 inbound observations were already verified by arxiv_id when imported: nothing new for them.
    assert re.search(r"job #\d+ succeeded: 5 papers, 134 references, 130 new resolutions, 4 unchanged", resolved_seeds)
    assert re.search(r"verified_exact +39\n", resolved_seeds)
    assert re.search(r"verified_fuzzy +2\n", resolved_seeds)       # PyTorch Distributed, PyTorch FSDP


def test_misparses_are_typed_not_left_unresolved(resolved_seeds):
    record = build_record(arxiv_id="2509.11076").record
    by_index = {o["citation"]["reference_index"]: o for o in record["outbound"]}
    assert by_index[5]["resolution"]["status"] == "parse_uncertain"          # "Accessed: 2025-06"
    assert by_index[8]["resolution"]["status"] == "parse_uncertain"          # an author list as title
    assert by_index[54]["resolution"]["status"] == "verified_exact"          # Megatron-LM, year 1909
    assert by_index[54]["citation"]["cited_work"]["year"] == 2019            # the canonical work's year
    counts = record["reference_resolution"]["state_counts"]
    assert counts["unresolved"] < 62 and sum(counts.values()) == 62


def test_the_old_resolutions_stay_in_history(resolved_seeds):
    built = build_record(arxiv_id="2509.11076", as_of=datetime(2026, 8, 8, 11, 7, tzinfo=UTC))
    assert built.body == SEED_000.read_bytes()
    assert PaperReferenceLink.objects.count() == 134 + len(
        PaperReferenceLink.objects.filter(observed_at__gt=timezone.now() - timedelta(hours=1)))


def test_a_rerun_that_finds_the_same_answer_writes_nothing(resolved_seeds):
    links = PaperReferenceLink.objects.count()
    works = CitedWork.objects.count()
    summary = resolve_paper(arxiv_id="2509.23722")
    assert summary.written == 0 and summary.unchanged == 68
    assert (PaperReferenceLink.objects.count(), CitedWork.objects.count()) == (links, works)


def test_the_inbound_seed_citations_keep_their_imported_resolution(resolved_seeds):
    inbound = build_record(arxiv_id="2509.23722").record["inbound"]
    seed = json.loads(SEED_004.read_bytes())["inbound"]
    assert [o["resolution"] for o in inbound] == [o["resolution"] for o in seed]


def test_a_held_paper_found_by_title_gets_a_canonical_work_from_its_metadata(db):
    from citations.sources.reference_lists import ReferenceList, ingest_reference_list

    cited = make_paper("2006.15704", title="PyTorch Distributed: Experiences on Accelerating Data Parallel Training",
                       submitted_at=datetime(2020, 6, 28, tzinfo=UTC))
    make_paper("2601.00001")
    index_paper_titles(paper_ids=[cited.pk])
    _, (reference_id,) = ingest_reference_list(ReferenceList("2601.00001", 1, "pdf_text", (
        (1, "Shen Li, Yanli Zhao. Pytorch distributed: Experiences on accelerating data parallel training.Proc. "
            "VLDB Endow. 13, 12 (2020)."),)))
    assert resolve_references(reference_ids=[reference_id]).states == {"verified_fuzzy": 1}
    observation = build_record(arxiv_id="2601.00001").record["outbound"][0]
    assert observation["citation"]["cited_paper"]["arxiv_id"] == "2006.15704"
    work = observation["citation"]["cited_work"]
    assert (work["doi"], work["metadata_source"], work["year"]) == ("10.48550/arxiv.2006.15704", "arxiv_metadata", 2020)
    assert PaperReference.objects.get(pk=reference_id).links.count() == 2


def test_a_paper_printing_its_own_arxiv_id_or_title_in_its_list_is_not_its_own_citation(db):
    from citations.sources.reference_lists import ReferenceList, ingest_reference_list

    title = "PyTorch Distributed: Experiences on Accelerating Data Parallel Training"
    paper = make_paper("2006.15704", title=title, doi="10.14778/3415478.3415530",
                       submitted_at=datetime(2020, 6, 28, tzinfo=UTC))
    other = make_paper("2601.00001", title="Another paper entirely, about something else")
    index_paper_titles(paper_ids=[paper.pk, other.pk])
    _, ids = ingest_reference_list(ReferenceList("2006.15704", 1, "pdf_text", (
        (1, "Shen Li, Yanli Zhao. PyTorch distributed. arXiv:2006.15704, 2020."),
        (2, "Shen Li, Yanli Zhao. Pytorch distributed: Experiences on accelerating data parallel training. 2020."),
        (3, "Shen Li. PyTorch Distributed. PVLDB, 2020. doi:10.14778/3415478.3415530"),
        (4, "A. Author. Another paper entirely, about something else. arXiv:2601.00001, 2026."))))
    summary = resolve_references(reference_ids=ids)
    assert summary.states == {"unresolved": 3, "verified_exact": 1}
    outbound = build_record(arxiv_id="2006.15704").record["outbound"]
    assert [o["citation"]["cited_paper"] and o["citation"]["cited_paper"]["arxiv_id"] for o in outbound] == [
        None, None, None, "2601.00001"]
    assert [o["resolution"]["status"] for o in outbound] == ["unresolved"] * 3 + ["verified_exact"]
    reasons = {PaperReferenceLink.objects.filter(reference_id=pk).latest("observed_at", "id").evidence["reason"]
               for pk in ids[:3]}
    assert reasons == {"the work found is the citing paper itself: a paper is not its own citation"}
    assert build_record(arxiv_id="2006.15704").record["inbound"] == []
