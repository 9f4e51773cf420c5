"""make demo: a newcomer sees real papers with their reference strings, resolved, and both logins."""
import io
import json
import sys
from contextlib import redirect_stdout

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.db import transaction
from django.test import override_settings

from citations.demo import UNARXIVE, demo_data_dir
from citations.models import CurrentResolution, Override, PaperReference
from citations.parsing.reader import READER_NAME
from citations.records.build import build_record
from tests.conftest import SEED_000, SEED_004
from tests.records.test_build import seed_time


@pytest.fixture(scope="module")
def demo_keys(tmp_path_factory):
    """The development key the demo makes, in a directory of this module's: no later test finds it."""
    where = tmp_path_factory.mktemp("demo-keys")
    with override_settings(SIGNING_KEY_FILE=where / "signing-key.pem", SIGNING_PUBLIC_KEYS_FILE=where / "keys.json",
                           LOG_DIR=where / "log"):
        yield where


@pytest.fixture(scope="module")
def loaded_demo(django_db_setup, django_db_blocker, demo_keys):
    """The demo loaded once for this module (about 15 s), in a transaction rolled back after its last
    test. Each test still runs in a transaction of its own nested in it (a savepoint pytest-django
    rolls back), so every test starts from the demo just loaded, whatever the one before it wrote."""
    if not (demo_data_dir() / UNARXIVE).is_dir():
        pytest.skip(f"{demo_data_dir()} does not hold the shared data sets")
    outer = transaction.atomic()
    with django_db_blocker.unblock():
        outer.__enter__()
        try:
            with redirect_stdout(io.StringIO()) as out:
                call_command("load_demo", "--url", "http://127.0.0.1:8102")
        except BaseException:
            outer.__exit__(*sys.exc_info())
            raise
    try:
        yield out.getvalue()
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture
def demo_output(loaded_demo, db):
    """What load_demo printed; the store holds the demo."""
    return loaded_demo


def test_the_demo_holds_real_reference_strings_resolved(demo_output):
    assert PaperReference.objects.exclude(raw_text="").count() >= 1786
    assert CurrentResolution.objects.filter(state="verified_exact").count() >= 30
    # ref 65 of 2509.23722 prints arXiv:2304.11277 in its title: no longer "Unresolved" once resolved
    record = build_record(arxiv_id="2509.23722").record
    assert record["reference_resolution"]["state_counts"]["verified_exact"] >= 20


def test_the_demo_references_are_read_by_the_trained_parser_with_formulas_shown_as_such(demo_output):
    from_unarxive = PaperReference.objects.filter(extraction__source="latex")
    assert from_unarxive.count() == 1786 and not from_unarxive.exclude(parser=READER_NAME).exists()
    assert not from_unarxive.filter(raw_text__contains="{{formula:").exists()
    assert from_unarxive.filter(title__contains="⟨formula⟩").exists()


def test_the_seed_records_stay_as_they_were_at_their_own_time(demo_output):
    for seed in (SEED_000, SEED_004):
        arxiv_id = json.loads(seed.read_bytes())["paper"]["arxiv_id"]
        assert build_record(arxiv_id=arxiv_id, as_of=seed_time(seed)).body == seed.read_bytes()


def test_the_demo_prints_its_own_port_and_both_logins(demo_output):
    assert "http://127.0.0.1:8102/paper/2509.11076/citation-record" in demo_output
    assert ":8000" not in demo_output
    assert authenticate(username="curator", password="pith-demo-curator").has_perm("citations.add_override")
    operator = authenticate(username="operator", password="pith-demo-operator")
    assert operator.is_staff and operator.has_perm("citations.view_job")
    assert not operator.has_perm("citations.add_override")


def test_loading_the_demo_twice_changes_nothing(demo_output, capsys):
    counts = lambda: (PaperReference.objects.count(), CurrentResolution.objects.count(),  # noqa: E731
                      Override.objects.count())
    before = counts()
    call_command("load_demo")
    assert counts() == before
    assert "already loaded" in capsys.readouterr().out


def test_the_demo_shows_a_curated_field_with_its_audit_entry(demo_output, client):
    record = build_record(arxiv_id="2509.11076").record
    megatron = next(o for o in record["outbound"] if o["citation"]["reference_index"] == 54)
    assert (megatron["citation"]["cited_work"]["year"], megatron["citation"]["cited_work"]["metadata_source"]) == (
        2019, "curation")
    assert "1 entry" in client.get("/curation/overrides/?paper=2509.11076").content.decode()
