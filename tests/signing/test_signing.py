"""Signed records and dumps: detached Ed25519 signatures over the exact bytes served, keys listed with their periods."""
import base64
import gzip
import hashlib
import io
import json
import stat

import pytest
from django.core.management import call_command
from django.utils import timezone

from citations.records.dumps import published_dumps
from citations.signing import create_signing_key, known_public_keys, signing_key
from pith_verify.note import PublicKey
from tests.factories import make_paper, make_references

RECORD = "/paper/2603.00001/citation-record.json"


@pytest.fixture
def paper(db):
    held = make_paper("2603.00001")
    make_references(held, 3)
    return held


def keys_by_id(client) -> dict[str, PublicKey]:
    document = client.get("/.well-known/pith-keys.json").json()
    return {k["key_id"]: PublicKey(k["name"], base64.b64decode(k["public_key"])) for k in document["keys"]}


def parse_header(value: str) -> tuple[str, bytes]:
    fields = dict(part.strip().split("=", 1) for part in value.split(";")[1:])
    return fields["keyid"].strip('"'), base64.b64decode(fields["sig"].strip('"'))


def test_a_served_record_carries_a_signature_of_its_exact_bytes(client, paper, signing_key):
    response = client.get(RECORD)
    key_id, signature = parse_header(response["Pith-Signature"])
    assert response["Pith-Signature"].startswith("ed25519;")
    assert keys_by_id(client)[key_id].verify(signature, response.content)
    # The .sig address serves the same signature, with the digest of the bytes it signs.
    document = client.get(RECORD + ".sig").json()
    assert document["key_id"] == key_id and base64.b64decode(document["signature"]) == signature
    assert document["signed_sha256"] == hashlib.sha256(response.content).hexdigest()
    # A second read comes from the cache and keeps the signature made with the body.
    assert client.get(RECORD)["Pith-Signature"] == response["Pith-Signature"]


def test_a_past_record_is_signed_as_served(client, paper, signing_key):
    as_of = "?as_of=" + timezone.now().strftime("%Y-%m-%dT%H:%MZ")
    response = client.get(RECORD + as_of)
    key_id, signature = parse_header(response["Pith-Signature"])
    assert keys_by_id(client)[key_id].verify(signature, response.content)
    assert client.get(RECORD + ".sig" + as_of).json()["signed_sha256"] == hashlib.sha256(response.content).hexdigest()


def test_without_a_key_nothing_is_signed_and_the_signature_address_says_so(client, paper):
    assert "Pith-Signature" not in client.get(RECORD)
    response = client.get(RECORD + ".sig")
    assert response.status_code == 503 and "no signing key" in response.json()["error"]["message"]
    assert client.get("/.well-known/pith-keys.json").json()["keys"] == []


def test_a_rotation_keeps_the_old_key_listed_so_its_signatures_still_verify(client, paper, signing_key):
    old_body = client.get(RECORD + "?as_of=" + timezone.now().strftime("%Y-%m-%dT%H:%MZ"))
    old_id, old_signature = parse_header(old_body["Pith-Signature"])
    create_signing_key(now=timezone.now())
    keys = client.get("/.well-known/pith-keys.json").json()["keys"]
    assert [k["valid_until"] is None for k in keys] == [False, True]
    assert keys[0]["valid_until"] == keys[1]["valid_from"] and keys[0]["key_id"] == old_id
    new = client.get(RECORD + "?as_of=" + timezone.now().strftime("%Y-%m-%dT%H:%MZ"))
    new_id, new_signature = parse_header(new["Pith-Signature"])
    listed = keys_by_id(client)
    assert new_id == keys[1]["key_id"] != old_id
    assert listed[old_id].verify(old_signature, old_body.content) and listed[new_id].verify(new_signature, new.content)


def test_no_response_holds_the_private_key(client, paper, signing_key, settings):
    pem = settings.SIGNING_KEY_FILE.read_bytes()
    private = base64.b64encode(signing_key.private.private_bytes_raw()).decode()
    for address in ("/.well-known/pith-keys.json", RECORD, RECORD + ".sig"):
        response = client.get(address)
        assert private not in response.content.decode() and pem not in response.content
    assert stat.S_IMODE(settings.SIGNING_KEY_FILE.stat().st_mode) == 0o600


def test_create_signing_key_writes_a_key_and_lists_it(settings, tmp_path, db):
    settings.SIGNING_KEY_FILE = tmp_path / "k.pem"
    settings.SIGNING_PUBLIC_KEYS_FILE = tmp_path / "keys.json"
    call_command("create_signing_key", stdout=io.StringIO())
    key = signing_key()
    assert [k.id for k in known_public_keys()] == [key.id] and len(key.id) == 8


def test_every_dump_line_and_the_manifest_are_signed(settings, tmp_path, paper, signing_key):
    settings.DUMPS_DIR = tmp_path / "dumps"
    call_command("dump_records")
    [dump] = published_dumps()
    key = known_public_keys()[0]
    manifest_bytes = (dump.path / "manifest.json").read_bytes()
    manifest_signature = json.loads((dump.path / "manifest.json.sig").read_bytes())
    assert key.verify(base64.b64decode(manifest_signature["signature"]), manifest_bytes)
    lines = gzip.decompress((dump.path / "part-00000.jsonl.gz").read_bytes()).splitlines()
    rows = gzip.decompress((dump.path / "context-digests.tsv.gz").read_bytes()).decode().splitlines()
    assert rows[0].split("\t")[-1] == "signature" and len(rows) == 1 + len(lines)
    for line, row in zip(lines, rows[1:], strict=True):
        assert key.verify(base64.b64decode(row.split("\t")[4]), line)
    assert dump.manifest()["context_digests"]["columns"][-1] == "signature"


def test_the_integrity_page_tells_a_reader_how_to_check_the_signature_and_the_log(client, paper):
    page = client.get("/paper/2603.00001/integrity").content.decode()
    assert "python -m pith_verify http://testserver/paper/2603.00001/citation-record.json" in page
    assert 'href="/paper/2603.00001/citation-record.proofs.json"' in page       # of the record shown
    past = client.get("/paper/2603.00001/integrity?as_of=2026-08-01T12:30:00Z").content.decode()
    assert 'href="/paper/2603.00001/citation-record.proofs.json?as_of=2026-08-01T12:30:00Z"' in past
    assert 'href="/paper/2603.00001/citation-record.json.sig"' in page


def test_check_deploy_warns_while_no_signing_key_is_configured(db, settings, tmp_path):
    from django.core.checks import run_checks

    def warned():
        return {message.id for message in run_checks(include_deployment_checks=True)}

    assert "pith.W003" in warned()
    settings.SIGNING_KEY_FILE, settings.SIGNING_PUBLIC_KEYS_FILE = tmp_path / "k.pem", tmp_path / "k.json"
    create_signing_key(now=timezone.now())
    assert "pith.W003" not in warned()
    settings.SIGNING_KEY_FILE.write_text("not a key")
    assert "pith.W004" in warned()
