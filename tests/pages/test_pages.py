import json

import pytest

from tests.conftest import SEED_004


@pytest.mark.parametrize("path", [
    "/paper/2509.99999",
    "/paper/2509.99999/citation-record",
    "/paper/2509.99999/citation-record.json",
    "/paper/2509.99999/integrity",
    "/paper/2513.00001/citation-record",           # month 13
    "/paper/arXiv:2513.00001",                     # prefixed, month 13
    "/paper/not-an-id/citation-record.json",
    "/paper/hep-th/9901001/citation-record",       # well formed, not held
    "/paper/2509.11076/nothing-here",
    "/paper/%00/citation-record",
    "/nowhere",
])
def test_unknown_or_malformed_ids_get_the_404_page(seeds, client, path):
    response = client.get(path)
    assert response.status_code == 404
    if path.endswith(".json"):          # asked for JSON, answered in JSON (issue 31, item 12)
        assert response.json()["error"]["code"] == "not_found"
    else:
        assert b"Not found" in response.content
    assert b"Traceback" not in response.content


@pytest.mark.parametrize("path, target", [
    ("/paper/2509.11076v2", "/paper/2509.11076"),
    ("/paper/arXiv:2509.11076", "/paper/2509.11076"),
    ("/paper/arxiv:2509.11076v1/citation-record", "/paper/2509.11076/citation-record"),
    ("/paper/2509.11076v1/citation-record.json", "/paper/2509.11076/citation-record.json"),
    ("/paper/arXiv:2509.11076/integrity?as_of=2026-08-08T11:07:00Z",
     "/paper/2509.11076/integrity?as_of=2026-08-08T11:07:00Z"),
])
def test_a_paper_named_with_its_prefix_or_a_version_redirects_to_its_own_address(seeds, client, path, target):
    response = client.get(path)
    assert response.status_code == 301 and response["Location"] == target
    assert client.get(path, follow=True).status_code == 200


def test_record_json_is_the_canonical_bytes_with_an_etag(seeds, client):
    response = client.get("/paper/2509.23722/citation-record.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    record = json.loads(response.content)
    assert response["ETag"] == f'W/"{record["context_digest"]}"'
    assert record["paper"]["arxiv_id"] == "2509.23722"
    assert len(record["outbound"]) == 68 and len(record["inbound"]) == 4


def test_record_json_answers_304_to_its_etag(seeds, client):
    etag = client.get("/paper/2509.23722/citation-record.json")["ETag"]
    again = client.get("/paper/2509.23722/citation-record.json", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    # A strong spelling of the same tag, or one of several tags, matches too.
    assert client.get("/paper/2509.23722/citation-record.json",
                      HTTP_IF_NONE_MATCH=f'"x", {etag.removeprefix("W/")}').status_code == 304
    other = client.get("/paper/2509.23722/citation-record.json", HTTP_IF_NONE_MATCH='W/"sha256:00"')
    assert other.status_code == 200


def test_record_json_refuses_writes(seeds, client):
    assert client.post("/paper/2509.23722/citation-record.json").status_code == 405


def test_record_page_reads_as_a_record(seeds, client):
    page = client.get("/paper/2509.23722/citation-record").content.decode()
    assert "As of " in page and "this Paper Citation Record lists 68 of 68 outbound references" in page
    assert "Verified by identifier" in page        # inbound, by arxiv_id
    assert "Unresolved" in page
    assert "Adaptis: Reducing pipeline bubbles" in page
    assert 'href="/paper/2509.23722/citation-record.json"' in page
    assert "<caption>" in page and 'scope="col"' in page
    assert "No event found in the named queried sources" in page
    assert "Not checked: no canonical work linked." in page


def test_paper_page_links_to_its_record(seeds, client):
    page = client.get("/paper/2509.11076").content.decode()
    assert "SmartSwap" in page and "cs.DC" in page and "v2" in page
    assert 'href="/paper/2509.11076/citation-record"' in page


def test_integrity_page_recomputes_every_digest(seeds, client):
    page = client.get("/paper/2509.23722/integrity").content.decode()
    assert "All 73 digests hold." in page        # 68 outbound + 4 inbound + the context digest
    assert "python3 - record.json" in page
    assert "http://testserver/paper/2509.23722/citation-record.json" in page


def test_evidence_page_explains_every_state_and_lane(client, db):
    page = client.get("/evidence").content.decode()
    for term in ("verified_exact", "verified_fuzzy", "metadata_mismatch", "malformed_identifier", "parse_uncertain",
                 "unresolved", "reference_resolution", "standing_notices", "inbound_itemization",
                 "external_citation_measurements", "retraction_watch", "crossref", "canonical_work_link_unavailable"):
        assert term in page


def test_the_schema_served_validates_the_seed(client, db):
    import jsonschema

    schema = client.get("/evidence/record-v1.schema.json").json()
    jsonschema.validate(json.loads(SEED_004.read_bytes()), schema)


def test_home_lists_the_papers_with_records(seeds, client):
    page = client.get("/").content.decode()
    assert "/paper/2509.11076/citation-record" in page and "/paper/2509.23722/citation-record" in page
