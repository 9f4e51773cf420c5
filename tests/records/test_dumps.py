"""Bulk dumps: every current record in gzipped JSON Lines parts, with a manifest a consumer can check."""
import gzip
import hashlib
import json

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from citations.models import Job, Paper, PaperReference
from citations.records.build import build_record
from citations.records.dumps import plan_dump, published_dumps, run_dump_chunk
from citations.records.timestamps import parse_z
from curation.groups import curators_group
from curation.services import apply_override, revision_of
from tests.factories import make_paper, make_references
from tests.records.test_build import verify_with_shared_tool


@pytest.fixture(autouse=True)
def dumps_dir(settings, tmp_path):
    settings.DUMPS_DIR = tmp_path / "dumps"
    return settings.DUMPS_DIR


def held(count: int) -> list[Paper]:
    papers = [make_paper(f"2603.{n:05d}") for n in range(1, count + 1)]
    for paper in papers:
        make_references(paper, 3)
    return papers


def lines_of(path) -> list[bytes]:
    return gzip.decompress(path.read_bytes()).splitlines()


@pytest.mark.django_db
def test_a_dump_holds_every_record_as_its_canonical_bytes_with_a_manifest_that_checks(dumps_dir):
    held(5)
    Paper.objects.create(arxiv_id="2603.99999")           # held, but no metadata snapshot: no record
    call_command("dump_records", "--part-papers", "2")

    [dump] = published_dumps()
    manifest = dump.manifest()
    assert manifest["schema"] == "pith.record-dump.v1" and manifest["records"] == 5
    assert [p["records"] for p in manifest["parts"]] == [2, 2, 1]   # the last part: one without a snapshot
    cutoff = parse_z(manifest["as_of"])
    lines = []
    for part in manifest["parts"]:
        path = dump.path / part["file"]
        assert part["sha256"] == "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()
        assert part["bytes"] == path.stat().st_size
        lines += lines_of(path)
    ids = [json.loads(line)["paper"]["arxiv_id"] for line in lines]
    assert ids == [f"2603.{n:05d}" for n in range(1, 6)]
    # Each line is the record as the site serves it as of the dump's cutoff, byte for byte.
    assert lines[0] == build_record(arxiv_id="2603.00001", as_of=cutoff).body
    verify_with_shared_tool(lines[3])

    digests = gzip.decompress((dump.path / "context-digests.tsv.gz").read_bytes()).decode().splitlines()
    assert digests[0] == "arxiv_id\tcontext_digest\tpart\tline\tsignature"
    first = digests[1].split("\t")
    # No signing key configured: no signature, and no manifest.json.sig.
    assert first == ["2603.00001", json.loads(lines[0])["context_digest"], "part-00000.jsonl.gz", "1", ""]
    assert not (dump.path / "manifest.json.sig").exists()
    assert len(digests) == 1 + 5
    assert not list(dumps_dir.glob(".building-*"))        # nothing half-built is left beside it


@pytest.mark.django_db
def test_a_dump_is_a_snapshot_as_of_its_start_and_a_rerun_part_writes_the_same_bytes(dumps_dir):
    [paper] = held(1)
    job = plan_dump()
    curator = User.objects.create_user("ada", is_staff=True)
    curator.groups.add(curators_group())
    reference = PaperReference.objects.order_by("reference_index").first()
    apply_override(reference_id=reference.pk, field="title", value="Set after the dump started",
                   reason="read from the PDF", curator=curator, expected_revision=revision_of(reference.pk))

    part = job.chunks.get(index=0)
    run_dump_chunk(part.pk)
    written = (dumps_dir / f".building-{job.pk}" / "part-00000.jsonl.gz").read_bytes()
    part.__class__.objects.filter(pk=part.pk).update(done=False)     # as if its worker died before marking it
    job.__class__.objects.filter(pk=job.pk).update(done_chunks=0, counts={})
    run_dump_chunk(part.pk)
    assert (dumps_dir / f".building-{job.pk}" / "part-00000.jsonl.gz").read_bytes() == written
    manifest_chunk = job.chunks.get(index=1)
    run_dump_chunk(manifest_chunk.pk)
    assert run_dump_chunk(manifest_chunk.pk) == {"skipped": "already done"}

    [dump] = published_dumps()
    [line] = lines_of(dump.path / "part-00000.jsonl.gz")
    assert b"Set after the dump started" not in line
    assert b"Set after the dump started" in build_record(arxiv_id=paper.arxiv_id).body
    job.refresh_from_db()
    assert job.state == "succeeded" and job.done_chunks == job.total_chunks == 2
    assert job.counts == {"records": 1, "unavailable": 0, "parts": 1, "published": 1}


@pytest.mark.django_db
def test_an_empty_store_publishes_an_empty_dump_and_old_dumps_are_pruned(settings):
    settings.DUMPS_KEEP = 2
    for _ in range(3):
        call_command("dump_records")
    dumps = published_dumps()
    assert len(dumps) == 2
    assert dumps[0].manifest()["records"] == 0 and dumps[0].manifest()["parts"] == []
    assert dumps[0].name.endswith(f"-{Job.objects.order_by('-id').first().pk}")


@pytest.mark.django_db
def test_dumps_are_listed_by_the_api_and_their_files_served(client):
    held(2)
    api = client.get("/api/v1/dumps/latest/")
    assert api.status_code == 404 and "no dump" in api.json()["error"]["message"]
    call_command("dump_records")

    listing = client.get("/api/v1/dumps/").json()["results"]
    assert [d["records"] for d in listing] == [2]
    manifest = client.get("/api/v1/dumps/latest/").json()
    assert json.loads(b"".join(client.get(listing[0]["manifest"]).streaming_content))["records"] == 2
    part = manifest["parts"][0]
    response = client.get(part["address"])
    body = b"".join(response.streaming_content)
    assert response.status_code == 200 and response["Content-Type"] == "application/gzip"
    assert "sha256:" + hashlib.sha256(body).hexdigest() == part["sha256"]
    assert "immutable" in response["Cache-Control"]
    assert client.get(manifest["context_digests"]["address"]).status_code == 200
    assert "/api/v1/dumps/" in client.get("/api/v1/").content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("address", [
    "/dumps/../manifest.json", "/dumps/records-20261204T0500Z-1/manifest.json",
    "/dumps/.building-1/part-00000.jsonl.gz", "/dumps/%2e%2e/%2e%2e", "/api/v1/dumps/records-x/",
])
def test_nothing_outside_a_published_dump_is_served(client, address, dumps_dir):
    held(1)
    job = plan_dump()
    run_dump_chunk(job.chunks.get(index=0).pk)            # a part exists in the build directory, unpublished
    response = client.get(address)
    assert response.status_code == 404


@pytest.mark.celery_worker
@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_two_workers_write_the_parts_and_the_last_publishes_the_dump(dumps_dir):
    from tests.celery_worker import client_call, redis_url, running_worker, wait_until, worker_log

    broker = redis_url()
    held(7)
    with running_worker(broker, concurrency=2, env={"PITH_DUMPS_DIR": str(dumps_dir)}) as worker:
        out = client_call(broker, "import django; django.setup()\n"
                                  "from django.core.management import call_command\n"
                                  "call_command('dump_records', '--part-papers', '2', '--no-wait')",
                          timeout=60)
        job = Job.objects.get(kind="dump_records")
        assert f"job #{job.pk}" in out
        assert wait_until(lambda: Job.objects.get(pk=job.pk).state == "succeeded", timeout=90), worker_log(worker)
    [dump] = published_dumps()
    manifest = dump.manifest()
    assert manifest["records"] == 7 and len(manifest["parts"]) == 4
    assert sum(len(lines_of(dump.path / p["file"])) for p in manifest["parts"]) == 7
    job.refresh_from_db()
    assert job.done_chunks == job.total_chunks == 5 and job.counts["records"] == 7
