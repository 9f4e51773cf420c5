"""Bulk dumps: every current record, as JSON Lines in gzip parts, with a manifest of context digests.

A dump is a consistent snapshot: every record in it is built `as_of` one cutoff (the minute the
dump was planned), so a record written while the dump runs does not half-appear, and a part
rebuilt after a lost worker comes out byte for byte the same. That is what makes the job safe to
run on many workers at once: each chunk writes one part (papers in arXiv id order), the last
chunk to finish writes the manifest and publishes the dump by renaming its directory.

Layout under settings.DUMPS_DIR (shared storage when workers run on several machines):

    .building-<job>/                 parts being written (never served)
    records-<cutoff>-<job>/          a published dump:
        manifest.json                schema, cutoff, counts, each part's file, size, sha256, id range
        manifest.json.sig            the manifest's detached Ed25519 signature (when a key is configured)
        context-digests.tsv.gz       arxiv_id, context_digest, part, line, signature: one row per record
        part-00000.jsonl.gz ...      one record a line, its canonical bytes (verify_record.py checks one)

A reader checks a download against manifest.json (sha256 per part) and each record against its
context_digest, without trusting the transport; with a signing key configured, each line's bytes
(without the newline) against its signature and the manifest against manifest.json.sig, with the
keys of /.well-known/pith-keys.json (docs/verification.md). The newest DUMPS_KEEP dumps are kept.
"""
import gzip
import hashlib
import json
import os
import re
import shutil
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from citations.jobs.dispatch import send_chunks
from citations.models import Job, JobChunk, Paper
from citations.records.build import RecordUnavailable, build_record
from citations.records.timestamps import parse_z, render_z, truncate_to_minute
from citations.signing import sign, signature_document

KIND = "dump_records"
SCHEMA = "pith.record-dump.v1"
DEFAULT_PART_PAPERS = 5000
MANIFEST = "manifest.json"
MANIFEST_SIGNATURE = "manifest.json.sig"
DIGESTS = "context-digests.tsv.gz"
DUMP_NAME = re.compile(r"^records-(\d{8}T\d{4}Z)-(\d+)$")
FILE_NAME = re.compile(r"^(manifest\.json(\.sig)?|context-digests\.tsv\.gz|part-\d{5}\.jsonl\.gz)$")


def dumps_dir() -> Path:
    return Path(settings.DUMPS_DIR)


def dump_name(cutoff: datetime, job_id: int) -> str:
    return f"records-{cutoff:%Y%m%dT%H%MZ}-{job_id}"


def plan_dump(*, part_papers: int = DEFAULT_PART_PAPERS) -> Job:
    """A dump job: one chunk per part of up to part_papers papers, and a last chunk for the manifest."""
    if part_papers < 1:
        raise ValueError("a part holds at least one paper")
    cutoff = truncate_to_minute(timezone.now())
    ids = list(Paper.objects.order_by("arxiv_id").values_list("arxiv_id", flat=True))
    parts = [ids[i:i + part_papers] for i in range(0, len(ids), part_papers)]
    with transaction.atomic():
        job = Job.objects.create(kind=KIND, arguments={"as_of": render_z(cutoff), "part_papers": part_papers,
                                                       "papers": len(ids), "parts": len(parts)},
                                 total_chunks=len(parts) + 1)
        JobChunk.objects.bulk_create([JobChunk(job=job, index=n, payload={"part": n, "first": p[0], "last": p[-1]})
                                      for n, p in enumerate(parts)])
        if not parts:
            _add_manifest_chunk(job)
    return job


def run_dump_chunk(chunk_id: int) -> dict:
    """Write one part, or publish the dump; a chunk already done is skipped, a rerun writes the same bytes.

    The manifest chunk exists only once every part is done: the part that completes last adds it
    in the transaction that marks itself done, so no worker waits on another and a crash between
    the two cannot strand the job (the sweep sends the new chunk if its message is lost).
    """
    chunk = JobChunk.objects.select_related("job").get(pk=chunk_id)
    job = chunk.job
    cutoff = parse_z(job.arguments["as_of"])
    building = dumps_dir() / f".building-{job.pk}"
    if chunk.payload.get("manifest"):
        with transaction.atomic():
            # Locked: two deliveries of this chunk cannot publish at once.
            if not JobChunk.objects.select_for_update().filter(pk=chunk.pk, done=False).exists():
                return {"skipped": "already done"}
            chunk.claim()
            counts = _publish(job, cutoff, building)
            chunk.complete(counts)
        return counts
    if not chunk.claim():
        return {"skipped": "already done"}
    counts = _write_part(chunk.payload, cutoff, building)
    with transaction.atomic():
        if chunk.complete(counts) and not job.chunks.filter(done=False).exists():
            _add_manifest_chunk(job)
    return counts


def _add_manifest_chunk(job: Job) -> None:
    manifest, _ = JobChunk.objects.get_or_create(job=job, index=job.total_chunks - 1,
                                                 defaults={"payload": {"manifest": True}})
    transaction.on_commit(lambda: send_chunks(job_id=job.pk, chunk_ids=[manifest.pk]))


def _write_part(payload: dict, cutoff: datetime, building: Path) -> dict:
    building.mkdir(parents=True, exist_ok=True)
    name = f"part-{payload['part']:05d}.jsonl.gz"
    ids = (Paper.objects.filter(arxiv_id__gte=payload["first"], arxiv_id__lte=payload["last"])
           .order_by("arxiv_id").values_list("arxiv_id", flat=True))
    digests, unavailable = [], 0
    temporary = building / f"{name}.tmp"
    # mtime=0 and no file name in the gzip header: the same records give the same bytes.
    with open(temporary, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as out:
        for arxiv_id in ids.iterator(chunk_size=1000):
            try:
                built = build_record(arxiv_id=arxiv_id, as_of=cutoff)
            except RecordUnavailable:
                unavailable += 1            # no metadata snapshot by the cutoff: no record to dump
                continue
            out.write(built.body + b"\n")
            signature = sign(built.body)
            digests.append((arxiv_id, built.record["context_digest"], signature.encoded if signature else ""))
    os.replace(temporary, building / name)
    index = {"file": name, "records": len(digests), "digests": digests}
    _write_atomically(building / f"part-{payload['part']:05d}.index.json", json.dumps(index).encode())
    return {"records": len(digests), "unavailable": unavailable, "parts": 1}


def _publish(job: Job, cutoff: datetime, building: Path) -> dict:
    published = dumps_dir() / dump_name(cutoff, job.pk)
    if published.exists():                  # published, then the worker died before marking it done
        return {"published": 1}
    building.mkdir(parents=True, exist_ok=True)
    indexes = sorted(building.glob("part-*.index.json"))
    parts = []
    with open(building / DIGESTS, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as out:
        out.write(b"arxiv_id\tcontext_digest\tpart\tline\tsignature\n")
        for index_file in indexes:
            index = json.loads(index_file.read_text())
            part_path = building / index["file"]
            digests = index["digests"]
            parts.append({"file": index["file"], "records": index["records"], "bytes": part_path.stat().st_size,
                          "sha256": _sha256(part_path),
                          "first_arxiv_id": digests[0][0] if digests else None,
                          "last_arxiv_id": digests[-1][0] if digests else None})
            out.write("".join(f"{arxiv_id}\t{digest}\t{index['file']}\t{line}\t{signature}\n"
                              for line, (arxiv_id, digest, signature) in enumerate(digests, start=1)).encode())
    manifest = {
        "schema": SCHEMA,
        "record_schema": "pith.paper-citation-record.v1",
        "as_of": render_z(cutoff),
        "job": job.pk,
        "records": sum(p["records"] for p in parts),
        "parts": parts,
        "context_digests": {"file": DIGESTS, "sha256": _sha256(building / DIGESTS),
                            "columns": ["arxiv_id", "context_digest", "part", "line", "signature"]},
        "published_at": render_z(timezone.now()),
    }
    manifest_bytes = json.dumps(manifest, indent=2, sort_keys=True).encode() + b"\n"
    _write_atomically(building / MANIFEST, manifest_bytes)
    signature = sign(manifest_bytes)
    if signature is not None:
        _write_atomically(building / MANIFEST_SIGNATURE,
                          json.dumps(signature_document(manifest_bytes, signature), sort_keys=True).encode() + b"\n")
    for index_file in indexes:
        index_file.unlink()
    os.replace(building, published)         # the publication: one rename, never a half dump
    _prune()
    return {"published": 1}


def _prune() -> None:
    for old in published_dumps()[settings.DUMPS_KEEP:]:
        shutil.rmtree(old.path, ignore_errors=True)


@dataclass(frozen=True)
class PublishedDump:
    name: str
    path: Path

    def manifest(self) -> dict:
        return json.loads((self.path / MANIFEST).read_text())


def published_dumps() -> list[PublishedDump]:
    """Published dumps, newest first (a directory without its manifest is not one)."""
    root = dumps_dir()
    if not root.is_dir():
        return []
    found = [PublishedDump(p.name, p) for p in root.iterdir()
             if DUMP_NAME.match(p.name) and (p / MANIFEST).is_file()]
    return sorted(found, key=lambda d: (DUMP_NAME.match(d.name)[1], int(DUMP_NAME.match(d.name)[2])), reverse=True)


def dump_file(name: str, file: str) -> Path | None:
    """The path of one file of a published dump; None for anything else (no traversal, no build dirs)."""
    if not DUMP_NAME.match(name) or not FILE_NAME.match(file):
        return None
    path = dumps_dir() / name / file
    return path if path.is_file() and (dumps_dir() / name / MANIFEST).is_file() else None


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return "sha256:" + digest.hexdigest()


def _write_atomically(path: Path, data: bytes) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)

