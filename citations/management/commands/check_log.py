from django.core.management.base import BaseCommand, CommandError

from citations.transparency.audit import check_log


class Command(BaseCommand):
    help = ("Check the transparency log against the observation store: every logged row still as logged, "
            "every leaf in the tiles, the tiles under the newest checkpoint. Names each row changed and since when.")

    def handle(self, *args, **options):
        findings = check_log()
        for finding in findings:
            self.stdout.write(str(finding))
        if findings:
            raise CommandError(f"{len(findings)} disagreements between the store and its log")
        self.stdout.write("the store agrees with its log")
