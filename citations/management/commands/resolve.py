from citations.jobs.planning import plan_resolution
from citations.management.paper_jobs import PaperJobCommand
from citations.tasks import resolve_chunk


class Command(PaperJobCommand):
    help = ("Resolve references: of every paper (--all) or of named papers (--paper). With a broker configured "
            "the work is enqueued for Celery workers; on the embedded default it runs here. Prints the states found.")
    plan = staticmethod(plan_resolution)
    chunk_task = resolve_chunk
    description = "resolving"

    def summary(self, counts: dict) -> str:
        return (f"{counts.get('papers', 0):,} papers, {counts.get('references', 0):,} references, "
                f"{counts.get('written', 0):,} new resolutions, {counts.get('unchanged', 0):,} unchanged")
