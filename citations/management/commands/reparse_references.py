from citations.jobs.planning import plan_rereading
from citations.management.paper_jobs import PaperJobCommand
from citations.parsing.reader import READER_NAME
from citations.tasks import reread_chunk


class Command(PaperJobCommand):
    help = (f"Read every stored reference again with the current parser ({READER_NAME}): each list it reads "
            "differently is written again as a new dated list and resolved, so records as of earlier times stay "
            "as they were. Of every paper (--all) or of named papers (--paper); chunked, resumable, and safe to run "
            "again. With a broker configured the work is enqueued for Celery workers; on the embedded default it "
            "runs here.")
    plan = staticmethod(plan_rereading)
    chunk_task = reread_chunk
    description = "reading again"
    planned = f"read with {READER_NAME}"

    def summary(self, counts: dict) -> str:
        return (f"{counts.get('lists', 0):,} lists: {counts.get('reread', 0):,} written again, "
                f"{counts.get('unchanged', 0):,} read the same, {counts.get('current', 0):,} already read by "
                f"{READER_NAME}, {counts.get('no_text', 0):,} without text (read from records); "
                f"{counts.get('changed', 0):,} of {counts.get('references', 0):,} references read differently")
