import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from citations.models import PaperReferenceLink, PaperSnapshot, ResolutionState
from citations.records.build import RecordUnavailable, build_record
from citations.records.canonical import context_digest, observation_digest
from tests.conftest import SEED_000, SEED_004, SHARED_SEEDS
from tests.factories import T0, make_paper, make_references

VERIFY_TOOL = Path(__file__).resolve().parents[3] / "shared" / "tools" / "verify_record.py"
LATER = T0 + timedelta(days=1)


def verify_with_shared_tool(body: bytes) -> str:
    """Run the team's spec checker on a record body; returns its output."""
    if not VERIFY_TOOL.exists():
        pytest.skip("../shared/tools/verify_record.py is not on this machine")
    result = subprocess.run([sys.executable, str(VERIFY_TOOL), "-"], input=body, capture_output=True, check=False)
    assert result.returncode == 0, result.stdout.decode()
    return result.stdout.decode()


def seed_time(path: Path) -> datetime:
    return datetime.fromisoformat(json.loads(path.read_bytes())["as_of"])


# --- the seeds, byte for byte --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [SEED_000, SEED_004], ids=["000", "004"])
def test_both_seeds_round_trip_byte_identical(seeds, seed):
    arxiv_id = json.loads(seed.read_bytes())["paper"]["arxiv_id"]
    built = build_record(arxiv_id=arxiv_id, as_of=seed_time(seed))
    assert built.body == seed.read_bytes()


def test_vendored_seeds_are_the_shared_ones():
    if not SHARED_SEEDS.exists():
        pytest.skip("../shared/seeds is not on this machine")
    for path in (SEED_000, SEED_004):
        assert path.read_bytes() == (SHARED_SEEDS / path.name).read_bytes()


def test_a_seed_rebuilt_now_differs_only_where_newer_observations_exist(seeds):
    # 004 was built on 7 August; by 8 August its paper's standing sources had been synchronised again.
    then = build_record(arxiv_id="2509.23722", as_of=seed_time(SEED_004)).record
    now = build_record(arxiv_id="2509.23722").record
    assert then["standing_sources"][0]["observed_at"] == "2026-08-07T06:34:17.273281+00:00"
    assert now["standing_sources"][0]["observed_at"] == "2026-08-08T06:32:00.761636+00:00"
    # Of the 68 outbound observations, only the one citing arXiv:1604.06174 changed: 000 brought a
    # newer snapshot of that paper.
    changed = [a["citation"]["cited_paper"]["arxiv_id"] for a, b in zip(now["outbound"], then["outbound"]) if a != b]
    assert changed == ["1604.06174"]
    assert now["context_digest"] != then["context_digest"]


def test_a_paper_snapshotted_twice_shows_the_snapshot_of_the_records_time(seeds):
    # arXiv:1604.06174 was snapshotted on 4 August (seen by 004) and again on 8 August (seen by 000).
    old = build_record(arxiv_id="2509.23722", as_of=seed_time(SEED_004)).record
    new = build_record(arxiv_id="2509.11076", as_of=seed_time(SEED_000)).record
    cited = lambda record: next(o["citation"]["cited_paper"] for o in record["outbound"]
                                if (o["citation"]["cited_paper"] or {}).get("arxiv_id") == "1604.06174")
    assert cited(old)["snapshot_observed_at"] == "2026-08-04T13:01:58.606241Z"
    assert cited(new)["snapshot_observed_at"] == "2026-08-08T09:03:25.135475Z"


def test_built_records_pass_the_shared_spec_checker(seeds):
    for arxiv_id in ("2509.11076", "2509.23722", "2604.06956"):
        verify_with_shared_tool(build_record(arxiv_id=arxiv_id).body)


# --- what the builder promises ---------------------------------------------------------------------------


def test_digests_are_recomputed_from_the_content(seeds):
    record = build_record(arxiv_id="2509.23722").record
    assert context_digest(record) == record["context_digest"]
    assert all(observation_digest(o) == o["observation_digest"] for o in record["outbound"] + record["inbound"])


def test_the_build_time_alone_does_not_change_the_context_digest(seeds):
    a = build_record(arxiv_id="2509.11076", as_of=datetime(2026, 9, 1, 8, 0, tzinfo=UTC)).record
    b = build_record(arxiv_id="2509.11076", as_of=datetime(2026, 9, 1, 17, 45, tzinfo=UTC)).record
    assert a["as_of"] != b["as_of"]
    assert a["context_digest"] == b["context_digest"]
    # The thesis names the day, so the next day is a new displayed fact.
    c = build_record(arxiv_id="2509.11076", as_of=datetime(2026, 9, 2, 8, 0, tzinfo=UTC)).record
    assert c["context_digest"] != a["context_digest"]


def test_a_new_resolution_is_shown_and_the_old_one_stays_in_history(db):
    paper = make_paper("2501.00001")
    cited = make_paper("2501.00002", latest_version=3)
    (reference,) = make_references(paper, 1)
    before = build_record(arxiv_id="2501.00001", as_of=LATER - timedelta(seconds=1)).record
    PaperReferenceLink.objects.create(reference=reference, state=ResolutionState.VERIFIED_EXACT,
                                      resolver_source="arxiv_id", cited_paper=cited, observed_at=LATER)
    after = build_record(arxiv_id="2501.00001", as_of=LATER + timedelta(seconds=1)).record
    assert before["outbound"][0]["resolution"]["status"] == "unresolved"
    assert after["outbound"][0]["resolution"] == {"observed_at": "2026-08-02T12:00:00.123456Z",
                                                   "resolver_source": "arxiv_id", "status": "verified_exact"}
    assert after["outbound"][0]["citation"]["cited_paper"]["version"] == 3
    assert after["reference_resolution"]["state_counts"]["verified_exact"] == 1
    assert reference.links.count() == 2
    # ...and the record as of the earlier time is unchanged.
    assert build_record(arxiv_id="2501.00001", as_of=LATER - timedelta(seconds=1)).record == before


def test_inbound_lists_only_references_that_verify_a_citation(db):
    cited = make_paper("2501.00002")
    citing = make_paper("2501.00003")
    make_references(citing, 2, cites=cited, state=ResolutionState.VERIFIED_EXACT, resolver_source="arxiv_id")
    make_references(citing, 1, cites=cited, state=ResolutionState.UNRESOLVED, start_index=9,
                    observed_at=T0 - timedelta(days=1))
    record = build_record(arxiv_id="2501.00002", as_of=LATER).record
    assert [o["citation"]["reference_index"] for o in record["inbound"]] == [1, 2]
    assert "lists 0 of 0 outbound references and 2 inbound" in record["thesis"]


def test_a_new_extraction_replaces_the_old_list_without_counting_twice(db):
    paper = make_paper("2501.00001")
    make_references(paper, 3, observed_at=T0)
    make_references(paper, 2, observed_at=LATER)
    assert build_record(arxiv_id="2501.00001", as_of=LATER - timedelta(seconds=1)).record[
        "reference_resolution"]["total_outbound_references"] == 3
    assert build_record(arxiv_id="2501.00001", as_of=LATER + timedelta(seconds=1)).record[
        "reference_resolution"]["total_outbound_references"] == 2


def test_the_highest_version_with_references_is_itemized(db):
    paper = make_paper("2501.00001", latest_version=3)
    make_references(paper, 4, version=1)
    make_references(paper, 2, version=2)
    record = build_record(arxiv_id="2501.00001", as_of=LATER).record
    assert {o["citation"]["citing_paper"]["version"] for o in record["outbound"]} == {2}


def test_unknown_and_not_yet_observed_papers_have_no_record(db):
    make_paper("2501.00001", observed_at=LATER)
    with pytest.raises(RecordUnavailable, match="not held"):
        build_record(arxiv_id="2501.09999")
    with pytest.raises(RecordUnavailable, match="no metadata snapshot"):
        build_record(arxiv_id="2501.00001", as_of=T0)


def test_without_synchronised_sources_the_standing_lane_says_so(db):
    paper = make_paper("2501.00001")
    make_references(paper, 1)
    lane = build_record(arxiv_id="2501.00001", as_of=LATER).record["coverage"][1]
    assert lane["state"] == "unavailable"
    assert lane["source_observed_at"] is None


# --- caps and the statement bound ------------------------------------------------------------------------


@pytest.fixture
def capped_paper(db):
    """arXiv:2502.00001 with 250 references of its own and 150 inbound citations from 15 papers."""
    paper = make_paper("2502.00001")
    make_references(paper, 250)
    for n in range(15):
        citing = make_paper(f"2502.{n + 10:05d}")
        make_references(citing, 10, cites=paper, state=ResolutionState.VERIFIED_EXACT, resolver_source="arxiv_id")
    return paper


def test_caps_itemize_100_each_way_and_still_count_everything(capped_paper):
    record = build_record(arxiv_id="2502.00001", as_of=LATER).record
    assert len(record["outbound"]) == 100
    assert [o["citation"]["reference_index"] for o in record["outbound"]] == list(range(1, 101))
    assert record["reference_resolution"]["total_outbound_references"] == 250
    assert record["reference_resolution"]["displayed"] == 100
    assert sum(record["reference_resolution"]["state_counts"].values()) == 100
    assert len(record["inbound"]) == 100
    inbound_lane = record["coverage"][2]
    assert (inbound_lane["records_observed"], inbound_lane["denominator"]) == (100, 150)
    assert record["coverage"][1]["denominator"] == 200
    assert record["thesis"].endswith("lists 100 of 250 outbound references and 100 of 150 inbound Pith citation "
                                     "observations for arXiv:2502.00001.")
    keys = [(o["citation"]["citing_paper"]["arxiv_id"], o["citation"]["reference_index"]) for o in record["inbound"]]
    assert keys == sorted(keys) and keys[-1] == ("2502.00019", 10)
    verify_with_shared_tool(build_record(arxiv_id="2502.00001", as_of=LATER).body)


@pytest.mark.parametrize("references", [5, 100, 1000])
def test_a_record_costs_at_most_six_statements(db, django_assert_max_num_queries, references):
    # paper snapshot, outbound, inbound, standing sources, receipts, measurements
    paper = make_paper("2503.00001")
    cited = make_paper("2503.00002")
    make_references(paper, references, cites=cited, state=ResolutionState.VERIFIED_EXACT, resolver_source="arxiv_id")
    citing = make_paper("2503.00003")
    make_references(citing, references, cites=paper, state=ResolutionState.VERIFIED_EXACT, resolver_source="arxiv_id")
    with django_assert_max_num_queries(6):
        record = build_record(arxiv_id="2503.00001").record
    assert record["reference_resolution"]["total_outbound_references"] == references
    assert record["coverage"][2]["denominator"] == references


def test_the_seed_records_cost_at_most_six_statements(seeds, django_assert_max_num_queries):
    with django_assert_max_num_queries(6):
        build_record(arxiv_id="2509.23722")


def test_snapshot_history_is_append_only_per_time(db):
    paper = make_paper("2501.00001")
    with pytest.raises(Exception):
        PaperSnapshot.objects.create(paper=paper, observed_at=T0, title="again", source="arxiv_metadata")


def test_a_capped_record_reimports_as_a_no_op_and_says_it_is_capped(capped_paper):
    from citations.sources.record_import import import_record

    summary = import_record(data=build_record(arxiv_id="2502.00001", as_of=LATER).body)
    assert summary.capped
    assert not summary.changed
