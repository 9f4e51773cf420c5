from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from citations.record_import import RecordRefused, import_record

SEEDS = Path(__file__).resolve().parents[2] / "fixtures" / "seeds"
DEMO_CURATOR = "curator"
DEMO_PASSWORD = "pith-demo-curator"   # printed on start; a demo database only


class Command(BaseCommand):
    help = "Load the demo data: the two reference records (idempotent)."

    def handle(self, *args, **options):
        for path in sorted(SEEDS.glob("*.txt")):
            try:
                summary = import_record(data=path.read_bytes())
            except RecordRefused as error:
                raise CommandError(f"{path.name}: {error}") from None
            state = "loaded" if summary.changed else "already loaded"
            self.stdout.write(f"demo record arXiv:{summary.arxiv_id} ({path.name}): {state}")
        self._curator()
        self.stdout.write("Records: http://127.0.0.1:8000/paper/2509.11076/citation-record and "
                          "http://127.0.0.1:8000/paper/2509.23722/citation-record")
        self.stdout.write(f"Curator login: http://127.0.0.1:8000/admin/ as {DEMO_CURATOR} / {DEMO_PASSWORD} "
                          "(demo only; start with 'Curation queues')")

    def _curator(self):
        from django.contrib.auth.models import User

        from curation.groups import curators_group

        user, created = User.objects.get_or_create(username=DEMO_CURATOR, defaults={"is_staff": True})
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        user.groups.add(curators_group())
