"""The ingest_pdf and ingest_source commands: one file of a paper version, or a directory of them.

One file runs here, recorded as a job (a refusal too, with its reason). A directory is a job of one
file a chunk: on the embedded default it runs here; with a broker the workers run it and this
command follows its progress (or returns at once with --no-wait).
"""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from citations.jobs.task_records import command_job
from citations.management.progress import run_chunked_job
from citations.models import Job, JobState
from citations.sources.paper_files import (
    FileRefused,
    ingest_paper_file,
    latest_version,
    plan_files,
    target_of,
)
from citations.tasks import ingest_file_chunk

SHOWN_REFUSALS = 20


class FileIngestCommand(BaseCommand):
    kind = ""               # citations.sources.paper_files.PDF or SOURCE
    noun = ""               # what the files are, for people
    pattern = ""            # the --dir default

    def add_arguments(self, parser):
        parser.add_argument("target", nargs="?", metavar="ARXIV_ID[vN]",
                            help="The paper version (the newest its metadata names, without vN).")
        parser.add_argument("file", nargs="?", metavar="FILE")
        parser.add_argument("--dir", metavar="DIR", help=f"Every {self.noun} in DIR named after its paper "
                                                         f"(2509.11076v2{self.pattern[1:]}), one job chunk each.")
        parser.add_argument("--pattern", default=self.pattern, help=f"File names to take in --dir (default {self.pattern}).")
        parser.add_argument("--no-wait", action="store_true", help="With workers: enqueue and return at once.")
        parser.add_argument("--no-resolve", action="store_true", help="Store the list; leave its resolution for later.")

    def handle(self, *args, target=None, file=None, dir=None, pattern=None, no_wait=False, no_resolve=False, **options):
        if dir:
            if target or file:
                raise CommandError("give either ARXIV_ID FILE or --dir DIR, not both")
            return self._directory(Path(dir), pattern or self.pattern, no_wait=no_wait)
        if not (target and file):
            raise CommandError(f"give ARXIV_ID[vN] FILE (a {self.noun}), or --dir DIR")
        self._one(target, Path(file), resolve=not no_resolve)

    def _one(self, target: str, path: Path, *, resolve: bool) -> None:
        try:
            arxiv_id, version = target_of(target)
            version = version or latest_version(arxiv_id)
        except (ValueError, FileRefused) as error:
            raise CommandError(str(error)) from None
        arguments = {"kind": self.kind, "arxiv_id": arxiv_id, "version": version, "path": str(path.resolve()),
                     "started_by": "command line"}
        try:
            with command_job(f"citations.ingest_{self.kind}", arguments) as job:
                outcome = ingest_paper_file(kind=self.kind, arxiv_id=arxiv_id, version=version, path=path,
                                            resolve=resolve)
                job.counts = outcome.counts()
                if outcome.outcome == "refused":
                    raise FileRefused(outcome.reason)
        except FileRefused as error:
            raise CommandError(f"arXiv:{arxiv_id}v{version}: {path.name} refused, nothing stored (job #{job.pk}): "
                               f"{error}") from None
        for note in outcome.notes:
            self.stdout.write(f"  note: {note}")
        verb = "stored" if outcome.outcome == "created" else "unchanged: the same list is already stored"
        self.stdout.write(f"job #{job.pk}: {outcome.target}: {outcome.references:,} references from "
                          f"{outcome.source}, {verb}{' and resolved' if outcome.outcome == 'created' and resolve else ''}")

    def _directory(self, folder: Path, pattern: str, *, no_wait: bool) -> None:
        if not folder.is_dir():
            raise CommandError(f"{folder}: not a directory")
        paths = [path for path in folder.glob(pattern) if path.is_file()]
        if not paths:
            raise CommandError(f"{folder}: no file matches {pattern}")
        job, skipped = plan_files(kind=self.kind, paths=paths)
        for line in skipped[:SHOWN_REFUSALS]:
            self.stdout.write(f"  skipped {line}")
        if len(skipped) > SHOWN_REFUSALS:
            self.stdout.write(f"  ... and {len(skipped) - SHOWN_REFUSALS:,} more skipped")
        self.stdout.write(f"job #{job.pk}: {job.total_chunks:,} {self.noun}s, one chunk each")
        if not run_chunked_job(self, job, ingest_file_chunk, description=f"reading {self.noun}s", unit="file",
                               no_wait=no_wait):
            return
        self._summary(Job.objects.get(pk=job.pk), skipped=len(skipped))

    def _summary(self, job: Job, *, skipped: int) -> None:
        counts = job.counts
        self.stdout.write(f"job #{job.pk} {job.state}: {counts.get('files', 0):,} files: {counts.get('created', 0):,} "
                          f"lists stored, {counts.get('unchanged', 0):,} unchanged, {counts.get('refused', 0):,} "
                          f"refused; {counts.get('references', 0):,} references")
        refusals = counts.get("refusals", {})
        for reason in sorted(refusals)[:SHOWN_REFUSALS]:
            self.stdout.write(f"  refused {reason}")
        if len(refusals) > SHOWN_REFUSALS:
            self.stdout.write(f"  ... and {len(refusals) - SHOWN_REFUSALS:,} more refused (all in job #{job.pk})")
        if job.state == JobState.FAILED:
            raise CommandError(f"job #{job.pk} failed: {job.error}")
        if refusals or skipped:
            raise CommandError(f"{len(refusals) + skipped:,} files refused or skipped (above); the others were stored")
