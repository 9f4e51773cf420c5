"""What a record shows beside its observations, in the log: the cited work's statement, the standing
notice's receipts and events, the paper's snapshot and its citation measurements. Each is held by the
verifier against its leaf, so a back-dated import or a fact changed behind Pith's back is caught."""
import io
import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone

from citations.input_files import lines_of
from citations.models import CitationMeasurement, LeafKind, LogLeaf, ScholarlyWorkEvent, WorkRevision
from citations.models.transparency import note_written
from citations.records.timestamps import render_z
from citations.sources.citation_counts import import_citation_counts
from citations.standing.checks import check_works
from citations.standing.sync import sync_standing_source
from citations.transparency.audit import check_log
from citations.transparency.sequencer import publish_checkpoint
from citations.works.importer import import_works
from tests.standing.test_checks import CITED_DOI, HEADER, rw_row
from tests.transparency.test_tamper import behind_piths_back
from tests.transparency.test_verifier import past_minute, run, save_record
from tests.works.test_work_revisions import NOTICE, PAPER, cite, crossref_lines


@pytest.fixture
def cites_a_retracted_work(db, signing_key, monkeypatch):
    """arXiv:2601.00001 cites a work first known by a retraction notice's DOI, and a held paper Retraction
    Watch lists as retracted; checked and measured ten minutes ago, logged now."""
    write_facts(monkeypatch)
    publish_checkpoint()


def write_facts(monkeypatch) -> None:
    from tests.factories import make_paper

    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now - timedelta(minutes=10))
    make_paper("2107.00001", title="Construction of mental health education model", doi=CITED_DOI)
    make_paper("2601.00001", title="Sleep at scale")
    earlier = timezone.now() - timedelta(days=30)
    import_works(crossref_lines(NOTICE), source="crossref", observed_at=earlier)
    cite("2601.00001", "A. Okafor. Sleep study. doi:10.1000/paper.1",
         "H. Zhang. Construction of mental health education model. Adv. Multimedia 2021. arXiv:2107.00001")
    sync_standing_source(source="retraction_watch", data=(HEADER + rw_row(50438, CITED_DOI)).encode())
    check_works()
    import_citation_counts(lines_of(json.dumps({"arxiv_id": "2601.00001", "source": "semantic_scholar", "count": 7,
                                                "observed_at": "2026-06-01T00:00:00Z"}).encode()))
    monkeypatch.undo()



def test_every_fact_a_record_shows_is_proved_from_the_log(client, cites_a_retracted_work, tmp_path):
    record = save_record(client, "2601.00001", tmp_path, past_minute())
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 0, out
    proofs = json.loads((tmp_path / "2601.00001.json.proofs.json").read_bytes())
    kinds = {json.loads(p["entry"])["kind"] for o in proofs["observations"] if (p := o["work"])}
    assert kinds == {"work"}
    standing = [s for o in proofs["observations"] for s in o["standing"]]
    assert [json.loads(s["receipt"]["entry"])["source"] for s in standing] == ["retraction_watch"] * 2
    events = [json.loads(e["entry"]) for s in standing for e in s["events"]]
    assert [(e["event_type"], e["subject_doi"]) for e in events] == [("retraction", CITED_DOI)]
    assert json.loads(proofs["paper"]["snapshot"]["entry"])["title"] == "Sleep at scale"
    assert [json.loads(m["entry"])["count"] for m in proofs["paper"]["measurements"]] == [7]
    assert json.loads(proofs["other_papers"]["2107.00001"]["entry"])["title"].startswith("Construction of")
    assert check_log() == []


def test_what_was_written_before_the_log_enters_it_by_backfill_and_then_verifies(
        client, db, signing_key, monkeypatch, settings, tmp_path):
    settings.LOG_OBSERVATIONS = False
    write_facts(monkeypatch)
    settings.LOG_OBSERVATIONS = True
    assert publish_checkpoint().size == 0
    call_command("publish_checkpoint", "--backfill", stdout=io.StringIO())
    logged = set(LogLeaf.objects.values_list("kind", flat=True))
    assert logged == {"reference", "link", "work", "snapshot", "standing_event", "receipt", "measurement",
                      "work_identifier"}
    assert check_log() == []
    code, out = run(save_record(client, "2601.00001", tmp_path, past_minute()), "--keys", tmp_path / "keys.json")
    assert code == 0, out


def test_a_back_dated_works_import_is_caught_by_the_verifier(client, cites_a_retracted_work, tmp_path):
    as_of = past_minute()                            # the fixture's checkpoint is the first after it
    # import_works --observed-at a time before the record's: the work's title, written now, dated then.
    import_works(crossref_lines(PAPER), source="crossref", observed_at=timezone.now() - timedelta(minutes=5))
    publish_checkpoint()
    revision = WorkRevision.objects.get()
    record = save_record(client, "2601.00001", tmp_path, as_of)
    shown = [o["citation"]["cited_work"] for o in json.loads(record.read_bytes())["outbound"]]
    assert PAPER["title"][0] in [w["title"] for w in shown]            # the record as of then shows it...
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 1 and out.count("written later than dated") == 1, out   # ...the log says it came later
    assert f"(cited work {revision.work_id}): logged only at" in out


@pytest.mark.postgresql
def test_a_work_statement_changed_behind_piths_back_is_named(client, cites_a_retracted_work, tmp_path):
    as_of = past_minute()
    work = LogLeaf.objects.filter(kind=LeafKind.WORK).values_list("observation", flat=True)
    behind_piths_back("UPDATE cited_works SET venue = 'Forged Journal' WHERE id = ANY(%s::uuid[])", [list(work)])
    assert {f.kind for f in check_log()} == {"work"}
    code, out = run(save_record(client, "2601.00001", tmp_path, as_of), "--keys", tmp_path / "keys.json")
    assert code == 1 and "the record shows 'Forged Journal'" in out, out


@pytest.mark.postgresql
def test_a_standing_event_changed_behind_piths_back_is_named_by_the_log_and_the_verifier(
        client, cites_a_retracted_work, tmp_path):
    as_of = past_minute()
    event = ScholarlyWorkEvent.objects.get()
    logged_at = LogLeaf.objects.get(kind=LeafKind.STANDING_EVENT, observation=str(event.pk)).logged_at
    # The retraction made a correction, as an operator with database access could.
    behind_piths_back("UPDATE scholarly_work_events SET event_type = 'correction' WHERE id = %s", [event.pk])

    [finding] = check_log()
    assert (finding.kind, finding.observation) == ("standing_event", str(event.pk))
    assert "event_type 'retraction' -> 'correction'" in finding.problem
    assert f"the row changed after it was logged at {logged_at.strftime('%Y-%m-%dT%H:%M')}" in finding.problem

    record = save_record(client, "2601.00001", tmp_path, as_of)
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 1, out
    # The record names no event by id: its events are held whole against those its receipts found as logged.
    assert "(standing): the events shown are not those its receipts found as logged" in out
    assert "'event_type': 'correction'" in out and "'event_type': 'retraction'" in out


def test_a_back_dated_measurement_is_caught_by_the_verifier(client, cites_a_retracted_work, tmp_path):
    as_of = past_minute()
    dated = timezone.now() - timedelta(minutes=5)                   # before the record's as_of
    before = save_record(client, "2601.00001", tmp_path, as_of).read_bytes()
    # Through the importer, a count dated in the past shows only from its import on: the past stands.
    import_citation_counts(lines_of(json.dumps({"arxiv_id": "2601.00001", "source": "openalex", "count": 40,
                                                "observed_at": dated.strftime("%Y-%m-%dT%H:%M:%SZ")}).encode()))
    publish_checkpoint()
    assert save_record(client, "2601.00001", tmp_path, as_of).read_bytes() == before
    # Written past the importer (a row put in by hand, dated in the past and shown at once): the log
    # took it only now, and the verifier says so.
    paper_id = CitationMeasurement.objects.filter(source="semantic_scholar").values_list("paper_id", flat=True)[0]
    with transaction.atomic():
        forged = CitationMeasurement.objects.create(paper_id=paper_id, source="crossref", observed_at=dated, count=99)
        note_written(LeafKind.MEASUREMENT, [forged.pk])
    publish_checkpoint()
    record = save_record(client, "2601.00001", tmp_path, as_of)
    assert "crossref" in [m["source"] for m in json.loads(record.read_bytes())["external_citation_measurements"]]
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 1 and out.count("written later than dated") == 1, out
    assert f"paper (crossref measurement of {render_z(dated)}): logged only at" in out


@pytest.mark.postgresql
def test_a_snapshot_changed_behind_piths_back_is_named_by_the_log_and_the_verifier(
        client, cites_a_retracted_work, tmp_path):
    as_of = past_minute()
    behind_piths_back("UPDATE paper_snapshots SET title = 'A forged title' WHERE paper_id = "
                      "(SELECT id FROM papers WHERE arxiv_id = %s)", ["2107.00001"])
    [finding] = check_log()
    assert finding.kind == "snapshot" and "title 'Construction of mental health education model' -> " \
        "'A forged title'" in finding.problem
    code, out = run(save_record(client, "2601.00001", tmp_path, as_of), "--keys", tmp_path / "keys.json")
    assert code == 1 and "paper 2107.00001 (metadata snapshot): the log's entry says title " in out, out
