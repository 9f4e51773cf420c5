"""Tamper evidence: an observation changed in PostgreSQL behind Pith's back (as an operator with database
access could, triggers disabled) is named, with the time since when, by the log's own check and by the
offline verifier."""
import contextlib
import io

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from citations.models import LogLeaf, PaperReference, PaperReferenceLink
from citations.transparency.audit import check_log
from citations.transparency.sequencer import publish_checkpoint
from tests.factories import make_paper, make_references
from tests.transparency.test_verifier import past_minute, run, save_record


def behind_piths_back(sql: str, params) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")      # no trigger fires
        cursor.execute(sql, params)
        cursor.execute("SET LOCAL session_replication_role = DEFAULT")


@pytest.mark.postgresql
def test_a_changed_observation_is_named_with_since_when_by_the_log_and_the_verifier(client, db, signing_key,
                                                                                     tmp_path):
    paper = make_paper("2603.00001")
    make_references(paper, 4)
    publish_checkpoint()
    as_of = past_minute()
    assert check_log() == []
    link = PaperReferenceLink.objects.order_by("id")[1]
    reference = PaperReference.objects.get(pk=link.reference_id)
    logged_at = LogLeaf.objects.get(kind="link", observation=str(link.pk)).logged_at

    behind_piths_back("UPDATE paper_reference_links SET resolver_source = 'forged' WHERE id = %s", [link.pk])
    behind_piths_back("UPDATE paper_references SET raw_text = 'forged' WHERE id = %s", [reference.pk])

    findings = {(f.kind, f.observation): str(f) for f in check_log()}
    assert set(findings) == {("link", str(link.pk)), ("reference", str(reference.pk))}
    since = logged_at.strftime("%Y-%m-%dT%H:%M")
    assert "resolver_source None -> 'forged'" in findings["link", str(link.pk)]
    assert f"the row changed after it was logged at {since}" in findings["link", str(link.pk)]
    assert "a column records do not show" in findings["reference", str(reference.pk)]
    with pytest.raises(CommandError, match="2 disagreements"), contextlib.redirect_stdout(io.StringIO()):
        call_command("check_log", stdout=io.StringIO())

    # A reader who fetches the record now, signed and all, is told the same of what it shows.
    record = save_record(client, "2603.00001", tmp_path, as_of)
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 1, out
    assert (f"observation {reference.pk} (resolution): the log's entry says resolver_source None, the record "
            f"shows 'forged' (logged at {since}") in out


@pytest.mark.postgresql
def test_an_audited_purge_is_no_tampering_but_a_delete_behind_piths_back_is(db, signing_key):
    from django.contrib.auth.models import User

    from citations.purge import purge_references

    make_references(make_paper("2603.00001"), 2)
    make_references(make_paper("2603.00002"), 2)
    publish_checkpoint()
    operator = User.objects.create_user("op", is_staff=True)
    purge_references(arxiv_id="2603.00001", reason="a takedown request, checked", operator=operator)
    assert check_log() == []
    link = PaperReferenceLink.objects.order_by("id").last()
    behind_piths_back("DELETE FROM paper_reference_links WHERE id = %s", [link.pk])
    [finding] = check_log()
    assert finding.observation == str(link.pk) and "the row is gone (logged at" in finding.problem
