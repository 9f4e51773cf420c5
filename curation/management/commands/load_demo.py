"""The demo: citations' demo data (citations/demo.py), then what curation adds to it: a curator and an
operator login, and one curated field. A command of the top layer, as it loads every layer."""
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from citations.demo import SEEDS, UNARXIVE, demo_data_dir, ensure_development_key, load_real_papers
from citations.models import Override, PaperReference
from citations.sources.record_import import RecordRefused, import_record
from curation.groups import curators_group
from curation.services import apply_override, revision_of

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
        ensure_development_key(self.stdout.write)
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
        curator = self._users()
        self._curated_example(curator)
        call_command("publish_checkpoint", stdout=self.stdout)     # the log, as Celery beat would each minute
        self.stdout.write(f"Home: {url}/  (search by arXiv id, title, author or DOI)")
        self.stdout.write(f"Records: {url}/paper/2509.11076/citation-record and {url}/paper/2509.23722/citation-record")
        self.stdout.write(f"Curator login: {url}/admin/ as {DEMO_CURATOR} / {DEMO_PASSWORD} "
                          "(demo only; start with 'Curation queues')")
        self.stdout.write(f"Operator login: {url}/admin/ as {DEMO_OPERATOR} / {DEMO_OPERATOR_PASSWORD} "
                          f"(demo only; jobs and syncs, and {url}/api/v1/jobs/)")

    def _users(self):
        curator = self._user(DEMO_CURATOR, DEMO_PASSWORD)
        curator.groups.add(curators_group())
        operator = self._user(DEMO_OPERATOR, DEMO_OPERATOR_PASSWORD)
        operator.user_permissions.add(*Permission.objects.filter(
            content_type__app_label="citations", codename__in=[
                "view_job", "add_job", "view_jobchunk", "view_standingsourcesync", "view_paper",
                "view_paperreference", "view_citedwork", "view_scholarlyworkevent"]))
        return curator

    def _curated_example(self, curator):
        """One correction made as curators make them, so the record page shows a curated field and the
        audit list an entry: the seed's Megatron-LM reference [54], whose year 1909 the parser took from
        its arXiv id 1909.08053. The seed record as of its own time is unchanged (the entry is newer)."""
        reference = PaperReference.objects.filter(extraction__paper_version__paper__arxiv_id="2509.11076",
                                                  reference_index=54, year=1909).first()
        if reference is None or Override.objects.filter(reference=reference, field="year").exists():
            return
        entry = apply_override(reference_id=reference.pk, field="year", value="2019", curator=curator,
                               reason="1909 was read from its arXiv id 1909.08053; Megatron-LM appeared in 2019",
                               expected_revision=revision_of(reference.pk))
        self.stdout.write(f"curated example: year of arXiv:2509.11076 [54] set to 2019 (audit entry #{entry.pk})")

    @staticmethod
    def _user(name: str, password: str):
        user, created = User.objects.get_or_create(username=name, defaults={"is_staff": True})
        if created:
            user.set_password(password)
            user.save()
        return user
