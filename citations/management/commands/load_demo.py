from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from citations.demo import UNARXIVE, demo_data_dir, load_real_papers
from citations.record_import import RecordRefused, import_record

SEEDS = Path(__file__).resolve().parents[2] / "fixtures" / "seeds"
DEMO_CURATOR = "curator"
DEMO_PASSWORD = "pith-demo-curator"     # printed on start; a demo database only
DEMO_OPERATOR = "operator"
DEMO_OPERATOR_PASSWORD = "pith-demo-operator"


class Command(BaseCommand):
    help = ("Load the demo data (idempotent): the two seed records, then real papers from ../shared/data with their "
            "raw reference strings, works and standing notices, resolved; and a curator and an operator login.")

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000", help="Where the demo is served (printed).")
        parser.add_argument("--seeds-only", action="store_true", help="Only the two seed records.")

    def handle(self, *args, url="http://127.0.0.1:8000", seeds_only=False, **options):
        url = url.rstrip("/")
        for path in sorted(SEEDS.glob("*.txt")):
            try:
                summary = import_record(data=path.read_bytes())
            except RecordRefused as error:
                raise CommandError(f"{path.name}: {error}") from None
            state = "loaded" if summary.changed else "already loaded"
            self.stdout.write(f"demo record arXiv:{summary.arxiv_id} ({path.name}): {state}")
        data = demo_data_dir()
        if seeds_only:
            pass
        elif (data / UNARXIVE).is_dir():
            self.stdout.write(f"real papers from {data}:")
            load_real_papers(data, self.stdout.write)
        else:
            self.stdout.write(f"{data / UNARXIVE} is not on this machine: the seed records only "
                              "(set PITH_DEMO_DATA_DIR to the shared data sets)")
        self._users()
        self.stdout.write(f"Home: {url}/  (search by arXiv id, title, author or DOI)")
        self.stdout.write(f"Records: {url}/paper/2509.11076/citation-record and {url}/paper/2509.23722/citation-record")
        self.stdout.write(f"Curator login: {url}/admin/ as {DEMO_CURATOR} / {DEMO_PASSWORD} "
                          "(demo only; start with 'Curation queues')")
        self.stdout.write(f"Operator login: {url}/admin/ as {DEMO_OPERATOR} / {DEMO_OPERATOR_PASSWORD} "
                          f"(demo only; jobs and syncs, and {url}/api/v1/jobs/)")

    def _users(self):
        from django.contrib.auth.models import Permission, User

        from curation.groups import curators_group

        curator = self._user(DEMO_CURATOR, DEMO_PASSWORD)
        curator.groups.add(curators_group())
        operator = self._user(DEMO_OPERATOR, DEMO_OPERATOR_PASSWORD)
        operator.user_permissions.add(*Permission.objects.filter(
            content_type__app_label="citations", codename__in=[
                "view_job", "add_job", "view_jobchunk", "view_standingsourcesync", "view_paper",
                "view_paperreference", "view_citedwork", "view_scholarlyworkevent"]))

    @staticmethod
    def _user(name: str, password: str):
        from django.contrib.auth.models import User

        user, created = User.objects.get_or_create(username=name, defaults={"is_staff": True})
        if created:
            user.set_password(password)
            user.save()
        return user
