"""Management commands under bad arguments: a sentence (CommandError), never a traceback."""
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from citations.models import Override


@pytest.mark.parametrize("limit", ["-1", "0", "abc", str(10 ** 30)])
def test_jobs_refuses_a_limit_that_is_not_a_positive_count(db, limit):
    with pytest.raises(CommandError, match="--limit"):
        call_command("jobs", "--limit", limit)


def test_jobs_lists_with_a_limit(db, capsys):
    call_command("jobs", "--limit", "5")
    assert "no jobs" in capsys.readouterr().out


def test_override_refuses_a_reason_over_the_cap(reference, curator):
    with pytest.raises(CommandError, match="A reason is at most 2,000 characters"):
        call_command("override", str(reference.pk), "--field", "year", "--value", "2019", "--reason", "x" * 100_000,
                     "--curator", "ada")
    assert not Override.objects.exists()


def test_override_refuses_marking_not_a_work_twice(reference, curator):
    call_command("override", str(reference.pk), "--field", "not_a_work", "--reason", "A manual", "--curator", "ada")
    with pytest.raises(CommandError, match="already marked not a scholarly work"):
        call_command("override", str(reference.pk), "--field", "not_a_work", "--reason", "Again", "--curator", "ada")
    assert Override.objects.count() == 1


@pytest.mark.parametrize("reference_id", ["not-a-uuid", "0" * 5000, "00000000-0000-0000-0000-000000000000"])
def test_override_refuses_a_bad_reference_id(db, curator, reference_id):
    with pytest.raises(CommandError, match="no reference observation"):
        call_command("override", reference_id, "--field", "year", "--value", "2019", "--reason", "checked",
                     "--curator", "ada")
