from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import timezone

from citations.signing import create_signing_key


class Command(BaseCommand):
    help = ("Make a new Ed25519 signing key: the private key is written to PITH_SIGNING_KEY (mode 0600), "
            "the public key listed in PITH_SIGNING_PUBLIC_KEYS (served at /.well-known/pith-keys.json). "
            "A key already there is rotated: listed as valid until now, so its signatures still verify.")

    def handle(self, *args, **options):
        entry = create_signing_key(now=timezone.now())
        self.stdout.write(f"signing key {entry['key_id']} ({entry['name']}) written to {settings.SIGNING_KEY_FILE}\n"
                          f"public key listed in {settings.SIGNING_PUBLIC_KEYS_FILE}\n"
                          f"note verifier key: {entry['note_verifier_key']}")
