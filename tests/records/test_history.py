import json
from datetime import UTC, datetime

import pytest
from django.core.management import call_command

from citations.current.resolutions import links_written
from citations.models import Paper, PaperReference, PaperReferenceLink
from citations.models.generations import records_changed
from citations.records.build import build_record
from citations.records.history import diff_records, record_history
from curation.services import apply_override, revision_of
from tests.conftest import SEED_000, SEED_004

PAST = datetime(2026, 8, 9, 10, 0, 30, tzinfo=UTC)       # after both seeds' observations


def export(capsysbinary, arxiv_id: str, as_of: str) -> bytes:
    capsysbinary.readouterr()
    call_command("export_record", arxiv_id, "--as-of", as_of)
    return capsysbinary.readouterr().out


def reference(arxiv_id: str, index: int) -> PaperReference:
    return PaperReference.objects.get(extraction__paper_version__paper__arxiv_id=arxiv_id, reference_index=index)


@pytest.fixture
def resolved_later(seeds):
    """Seed 000's reference 54 (Megatron-LM) resolved to the held arXiv:1909.08053 on 9 August."""
    link = PaperReferenceLink.objects.create(reference=reference("2509.11076", 54), state="verified_exact",
                                             resolver_source="arxiv_id",
                                             cited_paper=Paper.objects.get(arxiv_id="1909.08053"), observed_at=PAST)
    links_written([link.pk])
    records_changed(arxiv_ids=["2509.11076"])
    return link


@pytest.fixture
def curated_now(resolved_later, curator):
    """Then a curator's title for reference 5 ('Accessed: 2025-06'), now."""
    access_date = reference("2509.11076", 5)
    return apply_override(reference_id=access_date.pk, field="title", value="NVIDIA Megatron-LM",
                          reason="The URL names the software", curator=curator,
                          expected_revision=revision_of(access_date.pk))


# --- ?as_of= on the record pages -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [SEED_000, SEED_004], ids=["000", "004"])
def test_the_json_as_of_a_seeds_time_is_the_seed_byte_for_byte(seeds, client, seed, capsysbinary):
    exported = json.loads(seed.read_bytes())
    response = client.get(f"/paper/{exported['paper']['arxiv_id']}/citation-record.json?as_of={exported['as_of']}")
    assert response.status_code == 200
    assert response.content == seed.read_bytes()
    assert response.content == export(capsysbinary, exported["paper"]["arxiv_id"], exported["as_of"])
    assert response["ETag"] == f'W/"{exported["context_digest"]}"'


@pytest.mark.parametrize("as_of", ["2026-08-04T14:43:00Z", "2026-08-07T06:34:12.5+00:00", "2026-08-04T16:43:00+02:00"])
def test_the_json_as_of_any_time_is_what_export_record_prints(seeds, client, capsysbinary, as_of):
    response = client.get("/paper/2509.23722/citation-record.json", {"as_of": as_of})
    assert response.status_code == 200
    assert response.content == export(capsysbinary, "2509.23722", as_of)
    etag = response["ETag"]
    assert etag == f'W/"{json.loads(response.content)["context_digest"]}"'
    again = client.get("/paper/2509.23722/citation-record.json", {"as_of": as_of}, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag


def test_a_past_version_differs_from_the_current_one_and_names_its_time(seeds, client):
    past = client.get("/paper/2509.23722/citation-record.json?as_of=2026-08-04T14:43:00Z").json()
    now = client.get("/paper/2509.23722/citation-record.json").json()
    assert past["as_of"] == "2026-08-04T14:43:00Z"
    assert len(past["outbound"]) == 26 and len(now["outbound"]) == 68     # the list was still being read
    assert past["context_digest"] != now["context_digest"]


def test_the_record_page_as_of_a_time_shows_that_version_and_keeps_the_time_in_its_links(seeds, client):
    page = client.get("/paper/2509.23722/citation-record?as_of=2026-08-04T14:43:00Z").content.decode()
    assert "lists 26 of 26 outbound references" in page
    assert 'href="/paper/2509.23722/citation-record.json?as_of=2026-08-04T14:43:00Z"' in page
    assert 'href="/paper/2509.23722/integrity?as_of=2026-08-04T14:43:00Z"' in page
    assert 'href="/paper/2509.23722/history"' in page
    assert 'href="/paper/2509.23722/citation-record"' in page           # the record now


def test_the_integrity_page_as_of_a_time_checks_that_versions_bytes(seeds, client):
    page = client.get("/paper/2509.23722/integrity?as_of=2026-08-04T14:43:00Z").content.decode()
    assert "All 31 digests hold." in page              # 26 outbound + 4 inbound + the context digest
    assert "http://testserver/paper/2509.23722/citation-record.json?as_of=2026-08-04T14:43:00Z" in page


BAD_TIMES = [
    ("yesterday", "not an ISO 8601 time"),
    ("2026-08-08T11:07:00", "has no time zone"),
    ("2026-08-08", "has no time zone"),
    ("2026-13-01T00:00:00Z", "not an ISO 8601 time"),
    ("1800-01-01T00:00:00Z", "is not between 1900-01-01 and 2199-12-31 (UTC)"),
    ("9999-12-31T23:00:00-12:00", "is not between 1900-01-01 and 2199-12-31 (UTC)"),
    ("2199-06-01T00:00:00Z", "is in the future"),
    ("2026-08-08T11:07:00 00:00", "write %2B for it"),                 # a + the address turned into a space
    ("9" * 200, "not an ISO 8601 time"),
]


# Refused before anything is read: no paper is needed.
HTML_PAGES = [("/paper/2509.23722/citation-record", "as_of"), ("/paper/2509.23722/integrity", "as_of"),
              ("/paper/2509.23722/history", "from"), ("/paper/2509.23722/history", "to")]


@pytest.mark.parametrize("value,reason", BAD_TIMES, ids=[v[:20] for v, _ in BAD_TIMES])
def test_a_malformed_or_out_of_range_time_is_a_400_page_saying_why(db, client, value, reason):
    for path, name in HTML_PAGES:
        response = client.get(path, {name: value, **({"from": "2026-08-05T00:00:00Z"} if name == "to" else {})})
        assert response.status_code == 400, (path, name)
        page = response.content.decode()
        assert reason in page and "Traceback" not in page


@pytest.mark.parametrize("value,reason", BAD_TIMES, ids=[v[:20] for v, _ in BAD_TIMES])
def test_a_malformed_or_out_of_range_time_is_a_json_400_on_the_json(db, client, value, reason):
    for path in ("/paper/2509.23722/citation-record.json", "/api/v1/papers/2509.23722/citation-record/"):
        response = client.get(path, {"as_of": value})
        assert response.status_code == 400, path
        error = response.json()["error"]
        assert error["status"] == 400 and error["code"] == "invalid" and reason in error["message"]


def test_as_of_given_twice_is_refused_and_empty_means_now(seeds, client):
    twice = client.get("/paper/2509.23722/citation-record.json?as_of=2026-08-05T00:00:00Z&as_of=2026-08-06T00:00:00Z")
    assert twice.status_code == 400 and "given 2 times" in twice.json()["error"]["message"]
    empty = client.get("/paper/2509.23722/citation-record.json?as_of=")
    assert empty.status_code == 200
    assert empty.content == client.get("/paper/2509.23722/citation-record.json").content


def test_a_time_before_the_papers_first_snapshot_is_a_404_saying_so(seeds, client):
    response = client.get("/paper/2509.23722/citation-record?as_of=2026-08-01T00:00:00Z")
    assert response.status_code == 404
    assert "has no metadata snapshot observed by 2026-08-01T00:00:00Z" in response.content.decode()


# --- versions ------------------------------------------------------------------------------------------


def test_versions_are_named_by_digest_and_each_is_the_json_as_of_its_time(seeds, client):
    history = record_history(arxiv_id="2509.23722")
    assert not history.bounded
    assert history.versions[0].current and history.versions[-1].first
    assert [v.outbound for v in history.versions][-2:] == [68, 26]      # the list read across two minutes
    digests = [v.context_digest for v in history.versions]
    assert all(a != b for a, b in zip(digests, digests[1:]))            # equal neighbours are one version
    for version in history.versions[1:]:
        assert version.as_of.second == 0 and version.as_of.microsecond == 0
        body = client.get("/paper/2509.23722/citation-record.json", {"as_of": version.as_of_text})
        assert body["ETag"] == f'W/"{version.context_digest}"'
        assert json.loads(body.content)["as_of"] == version.as_of_text


def test_the_seeds_own_times_are_versions_of_their_records(seeds):
    for seed in (SEED_000, SEED_004):
        exported = json.loads(seed.read_bytes())
        history = record_history(arxiv_id=exported["paper"]["arxiv_id"])
        shown = next(v for v in history.versions if v.as_of <= datetime.fromisoformat(exported["as_of"]))
        assert shown.context_digest == exported["context_digest"]


def test_a_new_version_says_which_states_changed_and_which_fields_were_curated(curated_now):
    history = record_history(arxiv_id="2509.11076")
    current, resolved = history.versions[0], history.versions[1]
    assert current.current and current.changes.fields_curated == 1 and current.changes.states_changed == 0
    assert current.changes.other_areas == ["thesis"]                      # a new day since 9 August
    [change] = current.changes.observations
    assert change.where == "[5]" and change.kind == "changed"
    assert [(c.field, c.before, c.after) for c in change.curated] == [
        ("citation.cited_work.title", "Accessed: 2025-06", "NVIDIA Megatron-LM")]
    assert resolved.as_of == datetime(2026, 8, 9, 10, 1, tzinfo=UTC)       # the minute after the link
    assert resolved.changes.states_changed == 1
    [change] = resolved.changes.observations
    assert (change.where, change.state.before, change.state.after) == ("[54]", "unresolved", "verified_exact")
    assert "resolution.resolver_source" in {c.field for c in change.other}        # it named 1909.08053 before, unclaimed
    # The state counts moved with it.
    assert {c.field for c in resolved.changes.record} >= {"reference_resolution.state_counts.unresolved",
                                                          "reference_resolution.state_counts.verified_exact"}


def test_a_withdrawn_override_is_listed_as_curated_back(curated_now, curator):
    from curation.services import withdraw_override

    before = build_record(arxiv_id="2509.11076").record
    withdraw_override(override_id=curated_now.pk, reason="Wrong reference", curator=curator,
                      expected_revision=revision_of(curated_now.reference_id))
    changes = diff_records(before, build_record(arxiv_id="2509.11076").record)
    [change] = changes.observations
    assert [(c.field, c.after) for c in change.curated] == [("citation.cited_work.title", "Accessed: 2025-06")]


def test_the_first_version_lists_every_observation_as_added(seeds):
    first = record_history(arxiv_id="2509.23722").versions[-1]
    assert first.first and first.changes.added == 26 + 4
    assert {o.kind for o in first.changes.observations} == {"added"}


def test_the_work_is_bounded_and_the_page_says_so(seeds, client, monkeypatch):
    monkeypatch.setattr("citations.records.history.HISTORY_MINUTES", 3)
    history = record_history(arxiv_id="2509.23722")
    assert history.bounded and (history.minutes_read, history.minutes_found) == (3, 11)
    assert history.versions[-1].changes is None and not history.versions[-1].first
    page = client.get("/paper/2509.23722/history").content.decode()
    assert "Only the newest 3 of 11 such minutes are built here" in page
    assert "older than the minutes built here" in page


def test_a_history_costs_two_statements_and_six_per_version_built(seeds, django_assert_max_num_queries):
    # The paper's id, the change minutes, then each record: 11 minutes and now, six statements each at most.
    with django_assert_max_num_queries(2 + 6 * 12):
        record_history(arxiv_id="2509.23722")


def test_the_history_page_is_cached_until_the_record_changes(seeds, client, django_assert_max_num_queries):
    first = client.get("/paper/2509.11076/history")
    assert first.status_code == 200
    with django_assert_max_num_queries(1):             # the record's generations; the rest from the cache
        assert client.get("/paper/2509.11076/history").content == first.content
    link = PaperReferenceLink.objects.create(reference=reference("2509.11076", 54), state="verified_exact",
                                             resolver_source="arxiv_id",
                                             cited_paper=Paper.objects.get(arxiv_id="1909.08053"), observed_at=PAST)
    links_written([link.pk])
    records_changed(arxiv_ids=["2509.11076"])
    page = client.get("/paper/2509.11076/history").content.decode()
    assert "9 August 2026, 10:01 UTC" in page and "1 state changed" in page


def test_the_history_page_lists_versions_with_their_addresses(curated_now, client):
    page = client.get("/paper/2509.11076/history").content.decode()
    assert "All 8 minutes with an observation since the paper's first snapshot are built here" in page
    assert "(current)" in page and "1 field curated" in page and "The first version: 62 outbound" in page
    assert 'href="/paper/2509.11076/citation-record.json?as_of=2026-08-09T10:01:00Z"' in page
    assert 'href="/paper/2509.11076/history?from=2026-08-08T09:04:00Z&amp;to=2026-08-09T10:01:00Z"' in page
    assert "[54]" in page and "Unresolved → Verified by identifier" in page


def test_comparing_two_times_lists_the_differences_by_reference_index(curated_now, client):
    page = client.get("/paper/2509.11076/history?from=2026-08-08T11:07:00Z").content.decode()   # to: now
    assert "2 observations" not in page
    assert "1 state changed · 1 field curated" in page
    assert page.index("[5]") < page.index("[54]")
    assert "Accessed: 2025-06 → <strong>NVIDIA Megatron-LM</strong>" in page
    assert "Unresolved → <strong>Verified by identifier</strong>" in page
    assert "reference_resolution.state_counts.verified_exact" in page
    same = client.get("/paper/2509.11076/history?from=2026-08-08T11:07:00Z&to=2026-08-08T11:08:00Z")
    assert "The two versions are the same record" in same.content.decode()


def test_comparing_from_before_the_first_snapshot_shows_everything_as_new(seeds, client):
    page = client.get("/paper/2509.23722/history?from=2026-08-01T00:00:00Z&to=2026-08-04T14:43:00Z").content.decode()
    assert "no record yet" in page and "30 observations added" in page


def test_to_without_from_is_refused(seeds, client):
    response = client.get("/paper/2509.23722/history?to=2026-08-04T14:43:00Z")
    assert response.status_code == 400 and "to is given without from" in response.content.decode()


@pytest.mark.parametrize("path", ["/paper/2509.99999/history", "/paper/not-an-id/history",
                                  "/paper/2509.99999/history?from=2026-08-04T14:43:00Z"])
def test_the_history_of_a_paper_not_held_is_a_404(seeds, client, path):
    assert client.get(path).status_code == 404


def test_a_change_in_the_current_minute_is_in_the_current_version_only(curated_now):
    # The override's minute is not over: no version is dated after now, and the current one has it.
    history = record_history(arxiv_id="2509.11076")
    assert all(v.as_of <= history.built_at for v in history.versions)
    assert history.versions[0].as_of == history.built_at and history.versions[0].changes.fields_curated == 1
    assert history.versions[1].as_of == datetime(2026, 8, 9, 10, 1, tzinfo=UTC)
