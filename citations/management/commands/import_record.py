import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from citations.sources.record_import import RecordRefused, import_record


class Command(BaseCommand):
    help = ("Read v1 citation record files back into stored observations. Each file is imported whole "
            "or not at all; importing a file twice changes nothing.")

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help="A record file, or - for standard input.")

    def handle(self, *args, files, **options):
        refused = 0
        for name in files:
            try:
                data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
            except OSError as error:
                raise CommandError(f"{name}: cannot read: {error.strerror}") from None
            try:
                summary = import_record(data=data)
            except RecordRefused as error:
                self.stderr.write(f"{name}: refused, nothing written: {error}")
                refused += 1
                continue
            if summary.changed:
                made = ", ".join(f"{count} {kind.replace('_', ' ')}" for kind, count in sorted(summary.created.items()))
                self.stdout.write(f"{name}: arXiv:{summary.arxiv_id} as of {summary.as_of} imported ({made})")
            else:
                self.stdout.write(f"{name}: arXiv:{summary.arxiv_id} as of {summary.as_of} already held; nothing changed")
            if summary.capped:
                self.stdout.write(f"{name}: the record is capped; only its itemized observations could be imported")
        if refused:
            raise CommandError(f"{refused} of {len(files)} file(s) refused")
