from django.core.management.base import BaseCommand, CommandError

from citations.jobs.dispatch import dispatch_task
from citations.jobs.planning import runs_eagerly
from citations.jobs.task_records import command_job
from citations.standing.checks import check_works
from citations.standing.sync import SOURCES, source_input, sync_standing_source

SHOWN_REASONS = 20


class Command(BaseCommand):
    help = ("Synchronise a standing source from a file: retraction_watch (its CSV), crossref (REST work JSON, "
            "one response, a list, or JSON lines) or openalex (works JSON lines, gzip or not: the snapshot or an "
            "is_retracted:true export, read as a stream; a retracted work is a retraction). Idempotent; the run "
            "and its time are recorded, a failed run changes nothing: an empty, truncated or unreadable file, or "
            "one with no row that could be read, fails. A revised row is kept as a new revision. Then checks every "
            "canonical work against it.")

    def add_arguments(self, parser):
        parser.add_argument("source", choices=sorted(SOURCES))
        parser.add_argument("file", metavar="FILE")
        parser.add_argument("--no-check", action="store_true", help="Do not run the one-hop checks afterwards.")

    def handle(self, *args, source, file, no_check=False, **options):
        # A job like the workers' syncs: listed by `manage.py jobs`, the admin and /api/v1/jobs/, failures too.
        with command_job("citations.sync_standing_source", {"source": source, "path": str(file),
                                                            "started_by": "command line"}) as job:
            self._sync(job, source, file, no_check)

    def _sync(self, job, source, file, no_check):
        try:
            given = source_input(source, file)
        except OSError as error:
            raise CommandError(f"{file}: cannot read: {error.strerror}") from None
        report = sync_standing_source(source=source, input_name=str(file), **given)
        job.counts = {"sync": report.sync_id, "status": report.status, "counts": dict(report.counts)}
        if report.status != "succeeded":
            raise CommandError(f"sync #{report.sync_id} of {source} failed, nothing changed: {report.error}")
        counts = report.counts
        works = f"{counts['works']:,} works read, " if "works" in counts else ""
        self.stdout.write(f"sync #{report.sync_id} of {source} succeeded as of {report.observed_at:%Y-%m-%d %H:%M:%S} "
                          f"UTC: {works}{counts['events']:,} events ({counts['new']:,} new, "
                          f"{counts['revised']:,} revised, {counts['unchanged']:,} unchanged), "
                          f"{sum(report.rejected.values()):,} rows rejected")
        if counts.get("flags_cleared"):
            self.stdout.write(f"  {counts['flags_cleared']:,} works an earlier sync found retracted are no longer marked "
                              "so: each is a new revision of its record (a reinstatement)")
        if counts["not_restated"]:
            self.stdout.write(f"  {counts['not_restated']:,} works read without the event an earlier sync found "
                              "(no longer retracted there): those events stay, as for a row a file drops")
        for kind in sorted(k for k in counts if k.startswith("type:")):
            self.stdout.write(f"  {kind[5:]:24} {counts[kind]:>8,}")
        for reason, count in report.rejected.most_common(SHOWN_REASONS):
            self.stdout.write(f"  rejected {count:,}: {reason} (first at {report.examples[reason]})")
        if len(report.rejected) > SHOWN_REASONS:
            # Reasons quote the cell: a junk file could have as many reasons as rows.
            self.stdout.write(f"  and {len(report.rejected) - SHOWN_REASONS:,} other reasons")
        if no_check:
            return
        if runs_eagerly():
            with command_job("citations.check_standing", {"sources": [source], "started_by": "command line"}) as check:
                written = check_works(sources=[source])
                check.counts = written
            self.stdout.write(f"one-hop checks: {written.get(source, 0):,} receipts written")
        else:
            # A durable job: with the broker down it stays queued and the sweep sends it later.
            job = dispatch_task("citations.check_standing", kwargs={"sources": [source]})   # sent once committed
            job.refresh_from_db()
            sent = "enqueued" if job.dispatched_at else "queued, not yet sent: the broker did not take it (the sweep retries)"
            self.stdout.write(f"one-hop checks: job {job.pk} {sent}")
