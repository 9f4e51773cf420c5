from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.conftest import SEED_000, SEED_004


def export(capfdbinary, *args) -> bytes:
    call_command("export_record", *args)
    return capfdbinary.readouterr().out


def test_export_prints_the_seed_bytes_exactly(seeds, capfdbinary):
    assert export(capfdbinary, "2509.11076", "--as-of", "2026-08-08T11:07:00Z") == SEED_000.read_bytes()
    assert export(capfdbinary, "2509.23722", "--as-of", "2026-08-07T10:28:00Z") == SEED_004.read_bytes()


@pytest.mark.parametrize("args, message", [
    (["2509.1107"], "not an arXiv id"),
    (["2599.99999"], "not an arXiv id"),
    (["2501.00001"], "not held"),
    (["2509.11076", "--as-of", "yesterday"], "not an ISO 8601 time"),
    (["2509.11076", "--as-of", "2026-08-08T11:07:00"], "no time zone"),
    (["2509.11076", "--as-of", "2999-01-01T00:00:00Z"], "in the future"),
    (["2509.11076", "--as-of", "2020-01-01T00:00:00Z"], "no metadata snapshot"),
])
def test_export_refuses_clearly(seeds, args, message):
    with pytest.raises(CommandError, match=message):
        call_command("export_record", *args, stdout=StringIO())
