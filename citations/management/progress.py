"""Progress bars for commands: shown on a terminal, silent in scripts and logs."""
import sys
import time
from contextlib import contextmanager

from django.core.management.base import CommandError
from tqdm import tqdm

from citations.jobs.planning import enqueue_job, runs_eagerly
from citations.models import JobState


@contextmanager
def byte_progress(position, total: int, description: str):
    """A bar over the bytes of an input file; yields a function to call now and then."""
    with tqdm(total=total, unit="B", unit_scale=True, desc=description, disable=not sys.stderr.isatty(),
              file=sys.stderr) as bar:
        def update():
            bar.update(position() - bar.n)
        yield update


def report_lines(command, report, *, noun: str) -> None:
    """Print an IngestReport: created, unchanged, and every rejection reason with a line number."""
    made = ", ".join(f"{count:,} {kind.replace('_', ' ')}" for kind, count in sorted(report.created.items())) or "nothing new"
    command.stdout.write(f"{report.lines:,} {noun} read: {made}; {report.unchanged:,} unchanged; "
                         f"{sum(report.rejected.values()):,} rejected")
    for reason, count in report.rejected.most_common():
        command.stdout.write(f"  rejected {count:,}: {reason} (first at line {report.examples[reason]:,})")
    for reason, count in report.values_rejected.most_common():
        command.stdout.write(f"  value rejected {count:,}: {reason} (first at line {report.value_examples[reason]:,})")


def fail_if_rejected(report, *, done: str) -> None:
    """After the report: a CommandError (exit status 1) when any line was rejected, so a script
    sees that the file was not taken whole; `done` says what became of the others ("imported")."""
    rejected = sum(report.rejected.values())
    if rejected:
        raise CommandError(f"{rejected:,} of {report.lines:,} lines rejected; the other lines were {done}")


def follow_job(job, *, description: str) -> None:
    """Wait for a job the workers run, with a bar over its chunks, until it succeeds or fails."""
    with tqdm(total=job.total_chunks, desc=description, unit="chunk", disable=not sys.stderr.isatty(),
              file=sys.stderr) as bar:
        while True:
            job.refresh_from_db()
            bar.total = job.total_chunks
            bar.update(job.done_chunks - bar.n)
            if job.state in (JobState.SUCCEEDED, JobState.FAILED):
                return
            time.sleep(1)


def run_chunked_job(command, job, task, *, description: str, unit: str = "chunk", no_wait: bool = False) -> bool:
    """A planned chunked job run to its end: here, chunk by chunk, on the embedded default; else sent
    to the workers and followed (or left to them with no_wait: False is returned then)."""
    if runs_eagerly():
        chunks = list(job.chunks.order_by("index").values_list("id", flat=True))
        for chunk_id in tqdm(chunks, desc=description, unit=unit, disable=not command.stderr.isatty()):
            task.apply(args=[chunk_id], throw=True)
        return True
    enqueue_job(job)
    if job.chunks.filter(done=False, dispatched_at=None).exists():
        raise CommandError(f"job #{job.pk} is recorded, but the broker did not take it; the sweep sends it "
                           f"when the broker answers (follow it with: python manage.py jobs {job.pk})")
    if no_wait:
        command.stdout.write(f"enqueued; follow it with: python manage.py jobs {job.pk}")
        return False
    follow_job(job, description=description)
    return True
