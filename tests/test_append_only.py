"""Observations are only ever added: PostgreSQL refuses UPDATE, DELETE and TRUNCATE on every observation
table, and an operator's audited purge is the one way out."""
import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction

from citations.append_only import APPEND_ONLY_TABLES
from citations.models import (
    ListReading,
    ObservationPurge,
    Override,
    PaperReference,
    PaperReferenceLink,
    ReferenceExtraction,
)
from citations.purge import PurgeRefused, purge_references


def refused(sql: str) -> str:
    with pytest.raises(DatabaseError) as error, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)
    return str(error.value)


@pytest.mark.postgresql
@pytest.mark.parametrize("table", APPEND_ONLY_TABLES)
def test_every_observation_table_refuses_update_delete_and_truncate(seeds, table):
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {table}")
        rows = cursor.fetchone()[0]
    if rows:        # row triggers fire only on rows; the seeds fill all but a few tables
        assert "append-only" in refused(f"UPDATE {table} SET id = id")
        assert "append-only" in refused(f"DELETE FROM {table}")
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")   # the seeds' deferred checks, before a TRUNCATE
        cursor.execute("SET LOCAL pith.test_database = 'off'")    # as in production
        assert "append-only" in refused(f"TRUNCATE {table} CASCADE")


@pytest.mark.postgresql
def test_truncating_papers_with_cascade_is_refused_and_nothing_is_lost(seeds):
    held = PaperReference.objects.count()
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET LOCAL pith.test_database = 'off'")
        assert "append-only" in refused("TRUNCATE papers CASCADE")
    assert PaperReference.objects.count() == held


@pytest.mark.postgresql
def test_a_finished_sync_is_never_changed_but_a_running_one_may_finish(seeds):
    assert "append-only" in refused("UPDATE standing_source_syncs SET error = 'x' WHERE status = 'succeeded'")


@pytest.fixture
def operator(db):
    return User.objects.create_user("ops", is_staff=True)


def test_a_purge_removes_a_papers_reference_lists_and_keeps_an_audit_entry(seeds, operator):
    paper_refs = PaperReference.objects.filter(extraction__paper_version__paper__arxiv_id="2509.11076")
    count = paper_refs.count()
    others = PaperReference.objects.count() - count
    entry = purge_references(arxiv_id="2509.11076", reason="takedown request from the authors", operator=operator)
    assert not paper_refs.exists() and PaperReference.objects.count() == others
    assert entry.counts["paper_references"] == count and entry.counts["paper_reference_links"] >= count
    assert ObservationPurge.objects.get().reason == "takedown request from the authors"
    assert not ReferenceExtraction.objects.filter(paper_version__paper__arxiv_id="2509.11076").exists()


def test_a_purge_also_removes_the_curation_entries_of_those_references(seeds, operator):
    from curation.groups import curators_group
    from curation.services import apply_override, withdraw_override

    curator = User.objects.create_user("ada", is_staff=True)
    curator.groups.add(curators_group())
    reference = PaperReference.objects.get(extraction__paper_version__paper__arxiv_id="2509.11076",
                                           reference_index=5)
    entry = apply_override(reference_id=reference.pk, field="title", value="A title", reason="checked",
                           curator=curator, expected_revision=0)
    withdraw_override(override_id=entry.pk, reason="checked again", curator=curator, expected_revision=entry.pk)
    purged = purge_references(arxiv_id="2509.11076", reason="takedown request from the authors", operator=operator)
    assert purged.counts["curation_overrides"] == 2 and not Override.objects.exists()


def test_a_purge_removes_the_lists_the_current_parser_has_read(db, operator):
    from citations.sources.rereading import reread_papers
    from tests.factories import make_paper, make_references

    papers = [make_paper(arxiv_id) for arxiv_id in ("2602.00001", "2602.00002")]
    for paper in papers:
        make_references(paper, 2)                   # read by a parser named "test"
    reread_papers(paper_ids=[paper.pk for paper in papers])     # each list written again and noted as read
    assert ListReading.objects.count() == 2
    purge_references(arxiv_id="2602.00001", reason="takedown request from the authors", operator=operator)
    assert not ReferenceExtraction.objects.filter(paper_version__paper=papers[0]).exists()
    assert list(ListReading.objects.values_list("extraction__paper_version__paper", flat=True)) == [papers[1].pk]


def test_a_purge_needs_a_reason_and_a_staff_operator(seeds, operator):
    with pytest.raises(PurgeRefused, match="say why"):
        purge_references(arxiv_id="2509.11076", reason="", operator=operator)
    with pytest.raises(PurgeRefused, match="staff"):
        purge_references(arxiv_id="2509.11076", reason="takedown request from the authors",
                         operator=User.objects.create_user("someone"))
    assert PaperReferenceLink.objects.exists() and not ObservationPurge.objects.exists()


def test_the_purge_command_asks_for_yes_first(seeds, operator):
    with pytest.raises(CommandError, match="--yes"):
        call_command("purge_references", "2509.11076", "--reason", "takedown request", "--operator", "ops")
    assert not ObservationPurge.objects.exists()
    call_command("purge_references", "2509.11076", "--reason", "takedown request", "--operator", "ops", "--yes")
    assert ObservationPurge.objects.count() == 1


@pytest.mark.postgresql
def test_no_session_setting_lets_a_session_delete_observations(seeds):
    """Only a transaction that has written a purge's audit entry may delete (citations/purge.py)."""
    held = PaperReference.objects.count()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL pith.purge = 'on'")                 # the old way in, unaudited
        assert "append-only" in refused("DELETE FROM paper_reference_links")
        cursor.execute("SET LOCAL pith.test_database = 'on'")
        assert "append-only" in refused("DELETE FROM paper_references")
    assert PaperReference.objects.count() == held and not ObservationPurge.objects.exists()


@pytest.mark.postgresql
def test_a_session_cannot_make_its_database_a_test_database(seeds):
    """TRUNCATE is let through only in a database its owner marked as a test database (here, until
    this transaction takes the mark off), never by a session's own setting."""
    name = connection.ops.quote_name(connection.settings_dict["NAME"])
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(f"ALTER DATABASE {name} RESET pith.test_database")    # rolled back with the test
        cursor.execute("SET LOCAL pith.test_database = 'on'")
        assert "append-only" in refused("TRUNCATE papers CASCADE")


@pytest.mark.postgresql
def test_the_purge_writes_its_audit_entry_with_its_transaction_before_it_deletes(seeds, operator):
    entry = purge_references(arxiv_id="2509.11076", reason="takedown request #12", operator=operator)
    assert entry.transaction_id is not None
    assert entry.counts["reference_extractions"] >= 1 and entry.counts["paper_references"] > 0
    assert not PaperReference.objects.filter(extraction__paper_version__paper__arxiv_id="2509.11076").exists()


@pytest.mark.postgresql
def test_check_deploy_warns_when_pith_runs_as_a_superuser(db):
    from django.core.checks import run_checks

    with connection.cursor() as cursor:
        cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
        superuser = cursor.fetchone()[0]
    warned = {message.id for message in run_checks(include_deployment_checks=True)}
    assert ("pith.W001" in warned) == superuser
