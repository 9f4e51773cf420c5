from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from citations.models import VALUE_FIELDS, OverrideField, PaperReference
from curation.services import OverrideRefused, apply_override, revision_of


class Command(BaseCommand):
    help = ("Override a reference's title or year (or mark it not a scholarly work, or link it), with the same "
            "validation and audit entry as the admin. For scripted batch corrections.")

    def add_arguments(self, parser):
        parser.add_argument("reference", metavar="REFERENCE_OBSERVATION_ID")
        parser.add_argument("--field", required=True, choices=list(VALUE_FIELDS))
        parser.add_argument("--value", help="The new title, year, reference number or link (DOI, arXiv id or work id).")
        parser.add_argument("--reason", required=True)
        parser.add_argument("--curator", required=True, metavar="USERNAME")

    def handle(self, *args, reference, field, value=None, reason, curator, **options):
        try:
            user = get_user_model().objects.get(username=curator)
        except get_user_model().DoesNotExist:
            raise CommandError(f"no user {curator!r}") from None
        try:
            held = PaperReference.objects.filter(pk=reference).first()
        except ValidationError:
            held = None
        if held is None:
            raise CommandError(f"no reference observation {reference}")
        if field not in (OverrideField.NOT_A_WORK, OverrideField.CHECKED) and value is None:
            raise CommandError(f"--value is required for --field {field}")
        try:
            entry = apply_override(reference_id=held.pk, field=field,
                                   value=True if field in (OverrideField.NOT_A_WORK, OverrideField.CHECKED) else value, reason=reason,
                                   curator=user, expected_revision=revision_of(held.pk))
        except OverrideRefused as error:
            raise CommandError(" ".join(error.messages)) from None
        self.stdout.write(f"audit entry #{entry.pk}: {entry} (was {entry.shown_previous!r})")
