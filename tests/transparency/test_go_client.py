"""A client nobody here wrote: Go's golang.org/x/mod/sumdb/note and sumdb/tlog check a checkpoint's
signature, the tiles against its root, and a record's inclusion proofs, of its observations and of every fact
shown beside them (tests/transparency/go/main.go)."""
import shutil
import subprocess
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from citations.models import LeafKind, Override, note_written
from citations.transparency.sequencer import publish_checkpoint
from pith_verify.note import verifier_key
from tests.conftest import require_service
from tests.factories import make_paper, make_references, with_works_and_standing

GO_PROGRAM = Path(__file__).resolve().parent / "go" / "main.go"
GOPATH = Path("/usr/share/gocode")      # Debian's golang-golang-x-mod-dev


@pytest.mark.go
def test_go_sumdb_verifies_the_checkpoint_tiles_and_inclusion_proofs(client, db, signing_key, curator, tmp_path):
    if not shutil.which("go") or not (GOPATH / "src/golang.org/x/mod/sumdb/tlog").is_dir():
        require_service("Go with golang.org/x/mod (apt-get install golang-go golang-golang-x-mod-dev)")
    paper = make_paper("2603.00001")
    references = make_references(paper, 120)
    with_works_and_standing(references)                 # a work, a receipt and an event per observation
    curated = Override.objects.create(reference=references[0], field="title", action="set", value_text="As printed",
                                      reason="as printed", curator=curator,
                                      created_at=timezone.now() - timedelta(minutes=10))
    note_written(LeafKind.OVERRIDE, [curated.pk])        # a curator's title: its entry's leaf too
    make_references(make_paper("2603.00002"), 300)      # more than a tile: level 1 and partial tiles
    publish_checkpoint()
    as_of = timezone.now().strftime("%Y-%m-%dT%H:%MZ")
    proofs = tmp_path / "proofs.json"
    proofs.write_bytes(client.get(f"/paper/2603.00001/citation-record.proofs.json?as_of={as_of}").content)
    checkpoint = tmp_path / "checkpoint"
    checkpoint.write_bytes(client.get("/log/checkpoint").content)
    result = subprocess.run(
        ["go", "run", str(GO_PROGRAM), verifier_key(signing_key.name, signing_key.public), str(checkpoint),
         str(settings.LOG_DIR), str(proofs)],
        env={"PATH": "/usr/bin:/bin", "GOPATH": str(GOPATH), "GO111MODULE": "off",
             "GOCACHE": str(tmp_path / "gocache"), "HOME": str(tmp_path)},
        capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok note: checkpoint of 1204 signed by localhost/pith-log" in result.stdout
    assert "ok tiles" in result.stdout and "ok inclusion: 502 leaves checked" in result.stdout
