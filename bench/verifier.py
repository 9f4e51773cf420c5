"""Benchmark: what verifying a record offline costs a client (python -m pith_verify).

    python bench/verifier.py [--references 250] [--runs 20]

Builds, in a temporary SQLite database and log directory, the record of one paper of --references
references, each linked to a work of its own that a standing source checked and found an event on
(tests.factories.with_works_and_standing: every itemized observation then carries a work statement and
a receipt, the most proofs a record holds), publishes a checkpoint, downloads the record, its signature,
its proofs and the keys as a client does, and runs the verifier on them --runs times. Prints the CPU
time of a verification (best and median: what verifying costs, not how busy the machine is) and the
wall time. Goal (docs/verification.md): a 250-reference record verified in under 50 ms of CPU.
"""
import argparse
import contextlib
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
GOAL_MS = 50


def build_record(where: Path, references: int) -> Path:
    """The record and what a client downloads beside it, in files under `where`; returns the record's path."""
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.utils import timezone

    from citations.signing import create_signing_key
    from citations.transparency.sequencer import publish_checkpoint
    from tests.factories import make_paper, make_references, with_works_and_standing

    setup_test_environment()            # the test client's host, as in the suite
    call_command("migrate", verbosity=0)
    create_signing_key(now=timezone.now())
    with_works_and_standing(make_references(make_paper("2603.00005"), references))
    publish_checkpoint()
    client, record = Client(), where / "2603.00005.json"
    as_of = timezone.now().strftime("%Y-%m-%dT%H:%MZ")
    record.write_bytes(client.get(f"/paper/2603.00005/citation-record.json?as_of={as_of}").content)
    as_of = json.loads(record.read_bytes())["as_of"]
    (where / "2603.00005.json.sig").write_bytes(
        client.get(f"/paper/2603.00005/citation-record.json.sig?as_of={as_of}").content)
    (where / "2603.00005.json.proofs.json").write_bytes(
        client.get(f"/paper/2603.00005/citation-record.proofs.json?as_of={as_of}").content)
    (where / "keys.json").write_bytes(client.get("/.well-known/pith-keys.json").content)
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--references", type=int, default=250)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        var = Path(scratch) / "var"
        var.mkdir()
        for name in ("DATABASE_URL", "CELERY_BROKER_URL"):
            os.environ.pop(name, None)
        os.environ.update({"DJANGO_SETTINGS_MODULE": "pith.settings", "PITH_VAR_DIR": str(var)})
        import django

        django.setup()
        from pith_verify.__main__ import main as verify

        record = build_record(Path(scratch), args.references)
        document, size = json.loads(record.read_bytes()), record.stat().st_size
        itemized = len(document["outbound"]) + len(document["inbound"])
        cpu, wall = [], []
        for _ in range(args.runs):
            out = io.StringIO()
            started, started_wall = time.process_time(), time.perf_counter()
            with contextlib.redirect_stdout(out):
                code = verify([str(record), "--keys", str(Path(scratch) / "keys.json")])
            cpu.append((time.process_time() - started) * 1000)
            wall.append((time.perf_counter() - started_wall) * 1000)
            if code != 0:
                sys.exit(f"the verifier refused the record:\n{out.getvalue()}")
    print(f"record of {args.references} references: {itemized} itemized observations, {size:,} bytes")
    print(f"verify, CPU:  best {min(cpu):.1f} ms, median {statistics.median(cpu):.1f} ms over {args.runs} runs "
          f"(goal: under {GOAL_MS} ms)")
    print(f"verify, wall: best {min(wall):.1f} ms, median {statistics.median(wall):.1f} ms")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
