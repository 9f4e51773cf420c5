import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from citations.jobs.task_records import command_job
from citations.sources.record_import import RecordRefused, import_record


class Command(BaseCommand):
    help = ("Read v1 citation record files back into stored observations. Each file is imported whole "
            "or not at all; importing a file twice changes nothing.")

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help="A record file, or - for standard input.")

    def handle(self, *args, files, **options):
        arguments = {"files": [name if name == "-" else str(Path(name).resolve()) for name in files],
                     "started_by": "command line"}
        with command_job("import_record", arguments) as job:
            job.counts = {"files": len(files), "imported": 0, "unchanged": 0, "refused": 0}
            for name in files:
                job.counts[self._one(name)] += 1
        if job.counts["refused"]:
            raise CommandError(f"{job.counts['refused']} of {len(files)} file(s) refused")

    def _one(self, name: str) -> str:
        """Import one file; says what became of it: imported, unchanged or refused."""
        try:
            data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
        except OSError as error:
            raise CommandError(f"{name}: cannot read: {error.strerror}") from None
        try:
            summary = import_record(data=data)
        except RecordRefused as error:
            self.stderr.write(f"{name}: refused, nothing written: {error}")
            return "refused"
        if summary.changed:
            made = ", ".join(f"{count} {kind.replace('_', ' ')}" for kind, count in sorted(summary.created.items()))
            self.stdout.write(f"{name}: arXiv:{summary.arxiv_id} as of {summary.as_of} imported ({made})")
        else:
            self.stdout.write(f"{name}: arXiv:{summary.arxiv_id} as of {summary.as_of} already held; nothing changed")
        if summary.capped:
            self.stdout.write(f"{name}: the record is capped; only its itemized observations could be imported")
        return "imported" if summary.changed else "unchanged"
