from argparse import ArgumentTypeError

from django.core.management.base import BaseCommand, CommandError

from citations.jobs.dispatch import requeue_job, sweep_jobs
from citations.jobs.task_records import summarised
from citations.models import Job, JobState


class Command(BaseCommand):
    help = ("List background jobs (newest first), or show one with its chunks; --requeue ID sends a failed or "
            "stuck job again, --sweep sends every job the broker refused, lost, or whose worker died.")

    def add_arguments(self, parser):
        parser.add_argument("job", nargs="?", type=int, metavar="JOB_ID")
        parser.add_argument("--requeue", type=int, metavar="JOB_ID", help="Queue a failed or stuck job again.")
        parser.add_argument("--sweep", action="store_true",
                            help="Send again what is due (what Celery beat does every minute).")
        parser.add_argument("--state", choices=JobState.values)
        parser.add_argument("--limit", type=_count, default=20, help="How many jobs to list (1 to 10,000).")

    def handle(self, *args, job=None, state=None, limit=20, requeue=None, sweep=False, **options):
        if requeue is not None:
            return self._requeue(requeue)
        if sweep:
            counts = sweep_jobs()
            self.stdout.write("sweep: " + (", ".join(f"{n} {what.replace('_', ' ')}" for what, n in sorted(counts.items()))
                                           or "nothing due"))
            return
        if job is not None:
            return self._show(job)
        jobs = Job.objects.order_by("-id")
        if state:
            jobs = jobs.filter(state=state)
        rows = list(jobs[:limit])
        if not rows:
            self.stdout.write("no jobs")
        for row in rows:
            finished = f"{row.finished_at:%Y-%m-%d %H:%M:%S}" if row.finished_at else "—"
            self.stdout.write(f"#{row.pk:<6} {row.kind:34} {row.state:10} {row.done_chunks}/{row.total_chunks} "
                              f"({row.progress:.0%})  started {row.started_at:%Y-%m-%d %H:%M:%S}  finished {finished}"
                              if row.started_at else
                              f"#{row.pk:<6} {row.kind:34} {row.state:10} {row.done_chunks}/{row.total_chunks} "
                              f"(not started)")
            if row.error:
                self.stdout.write(f"        error: {row.error[:200]}")

    def _show(self, job_id):
        job = Job.objects.filter(pk=job_id).first()
        if job is None:
            raise CommandError(f"no job #{job_id}")
        self.stdout.write(f"job #{job.pk} {job.kind}: {job.state}, {job.done_chunks}/{job.total_chunks} chunks "
                          f"({job.progress:.0%})")
        self.stdout.write(f"  arguments: {summarised(job.arguments)}")
        self.stdout.write(f"  created {job.created_at:%Y-%m-%d %H:%M:%S}, started {job.started_at or '—'}, "
                          f"finished {job.finished_at or '—'}")
        self.stdout.write(f"  counts: {job.counts}")
        if job.error:
            self.stdout.write(f"  error: {job.error}")
        for chunk in job.chunks.order_by("index"):
            self.stdout.write(f"  chunk {chunk.index}: {'done' if chunk.done else 'pending'}, attempts {chunk.attempts}, "
                              f"{chunk.counts.get('references', '?')} references")

    def _requeue(self, job_id):
        try:
            job = requeue_job(job_id=job_id)
        except Job.DoesNotExist:
            raise CommandError(f"no job #{job_id}") from None
        except ValueError as error:
            raise CommandError(str(error)) from None
        sent = "sent to the workers" if job.dispatched_at or job.state != JobState.QUEUED else \
            "recorded; the broker did not answer, the sweep will send it"
        self.stdout.write(f"job #{job.pk} {job.kind}: {job.state}, {sent}")


def _count(text: str) -> int:
    # A slice with a negative bound is refused by the ORM with a traceback: say so as a usage error.
    try:
        value = int(text)
    except ValueError:
        raise ArgumentTypeError(f"{text!r} is not a number") from None
    if not 1 <= value <= 10_000:
        raise ArgumentTypeError(f"{value} is not between 1 and 10,000")
    return value
