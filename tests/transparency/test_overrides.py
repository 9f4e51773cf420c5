"""Curators' overrides and work identifiers in the log: a curated title, year, reference number or "not a
scholarly work" a record shows is held by the verifier against its entry's leaf, and so is a DOI joined to
a work later; an entry changed behind Pith's back or inserted by hand, dated in the past, is caught."""
import json
from datetime import UTC, datetime, timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from citations.models import CitedWork, LeafKind, LogLeaf, Override, PaperReferenceLink, WorkIdentifier, note_written
from citations.resolution.links import write_links
from citations.transparency.audit import check_log
from citations.transparency.sequencer import publish_checkpoint
from curation.services import apply_override, revision_of
from tests.factories import make_paper, make_references, with_works_and_standing
from tests.transparency.test_tamper import behind_piths_back
from tests.transparency.test_verifier import past_minute, run, save_record

CURATED_TITLE = "The title as printed, not as read"


def curate(reference, field: str, value, curator) -> Override:
    return apply_override(reference_id=reference.pk, field=field, value=value, reason="as printed",
                          curator=curator, expected_revision=revision_of(reference.pk))


@pytest.fixture
def curated(db, signing_key, curator, monkeypatch):
    """arXiv:2604.00001's first two references linked to works; a curator corrected the first's title and
    year, the second's number, and marked the third not a scholarly work, ten minutes ago; logged now."""
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now - timedelta(minutes=10))
    references = make_references(make_paper("2604.00001"), 4)
    with_works_and_standing(references[:2])
    entries = [curate(references[0], "title", CURATED_TITLE, curator), curate(references[0], "year", 1999, curator),
               curate(references[1], "index", 7, curator), curate(references[2], "not_a_work", None, curator)]
    monkeypatch.undo()
    publish_checkpoint()
    return references, entries


def test_a_curated_title_year_number_and_not_a_work_verify_against_their_entries(client, curated, tmp_path):
    references, entries = curated
    record = save_record(client, "2604.00001", tmp_path, past_minute())
    shown = {o["observation_id"]: o for o in json.loads(record.read_bytes())["outbound"]}
    work = shown[str(references[0].pk)]["citation"]["cited_work"]
    assert (work["title"], work["year"], work["metadata_source"]) == (CURATED_TITLE, 1999, "curation")
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 0, out
    proofs = json.loads((tmp_path / "2604.00001.json.proofs.json").read_bytes())
    given = {o["observation_id"]: sorted(json.loads(p["entry"])["field"] for p in o["overrides"])
             for o in proofs["observations"]}
    assert given == {str(references[0].pk): ["title", "year"], str(references[1].pk): ["index"],
                     str(references[2].pk): ["not_a_work"], str(references[3].pk): []}
    assert {leaf.observation for leaf in LogLeaf.objects.filter(kind=LeafKind.OVERRIDE)} == {str(e.pk) for e in entries}
    assert check_log() == []


def test_a_curated_title_without_its_entry_in_the_proofs_is_named(client, curated, tmp_path):
    references, _ = curated
    record = save_record(client, "2604.00001", tmp_path, past_minute())
    proofs_file = tmp_path / "2604.00001.json.proofs.json"
    proofs = json.loads(proofs_file.read_bytes())
    for o in proofs["observations"]:
        o["overrides"] = []
    proofs_file.write_text(json.dumps(proofs))
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 1
    assert f"observation {references[0].pk}: shows a curator's title or year, and the proofs give no" in out
    assert "shows a curator's \"not a scholarly work\", and the proofs give no entry for it" in out
    # The number shown is then held against the reference's own leaf, which says another.
    assert f"observation {references[1].pk} (reference): the log's entry says reference_index 2" in out


def test_an_override_inserted_by_hand_dated_in_the_past_is_caught(client, curated, curator, tmp_path):
    references, _ = curated
    as_of = past_minute()
    # Written now, dated long before, as a writer would note it: a record as of that minute shows it...
    forged = Override.objects.create(reference=references[3], field="title", action="set", value_text="Forged",
                                     reason="by hand", curator=curator, created_at=timezone.now() - timedelta(days=1))
    note_written(LeafKind.OVERRIDE, [forged.pk])
    publish_checkpoint()
    record = save_record(client, "2604.00001", tmp_path, as_of)
    shown = {o["observation_id"]: o for o in json.loads(record.read_bytes())["outbound"]}
    assert shown[str(references[3].pk)]["citation"]["cited_work"]["title"] == "Forged"
    # ...but the log says it came after the checkpoint that follows the record's as_of.
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 1 and out.count("written later than dated") == 1, out
    assert f"observation {references[3].pk} (curator's title entry {forged.pk}): logged only at" in out


@pytest.mark.postgresql
def test_an_override_changed_behind_piths_back_is_named_by_the_log_and_the_verifier(client, curated, tmp_path):
    _, entries = curated
    title = entries[0]
    logged_at = LogLeaf.objects.get(kind=LeafKind.OVERRIDE, observation=str(title.pk)).logged_at
    with transaction.atomic():
        behind_piths_back("UPDATE curation_overrides SET value_text = 'Forged' WHERE id = %s", [title.pk])

    findings = {(f.kind, f.observation): str(f) for f in check_log()}
    assert set(findings) == {("override", str(title.pk))}
    since = logged_at.strftime("%Y-%m-%dT%H:%M")
    assert f"value_text {CURATED_TITLE!r} -> 'Forged'" in findings["override", str(title.pk)]
    assert f"the row changed after it was logged at {since}" in findings["override", str(title.pk)]

    record = save_record(client, "2604.00001", tmp_path, past_minute())
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 1, out
    assert (f"(curator's title entry {title.pk}): the log's entry says value_text {CURATED_TITLE!r}, the record "
            f"shows 'Forged' (logged at {since}") in out


@pytest.fixture
def joined_doi(db, signing_key):
    """A reference linked to a work known by its arXiv DOI, to which the works store joined its published
    version's DOI later: the record shows that DOI, from the identifier."""
    at = datetime(2026, 8, 2, tzinfo=UTC)
    reference = make_references(make_paper("2604.00002"), 1)[0]
    work = CitedWork.objects.create(doi="10.48550/arxiv.2401.00001", arxiv_id="2401.00001", title="Work number 0",
                                    year=2024, metadata_source="arxiv", snapshot_observed_at=at)
    note_written(LeafKind.WORK, [str(work.pk)])
    with transaction.atomic():
        write_links([PaperReferenceLink(reference=reference, state="verified_exact", resolver_source="arxiv",
                                        cited_work=work, observed_at=at)])
    identifier = WorkIdentifier.objects.create(kind="doi", value="10.1000/published", work=work, source="crossref",
                                               observed_at=at)
    note_written(LeafKind.WORK_IDENTIFIER, [f"doi:{identifier.value}"])       # as the works importer names it
    publish_checkpoint()
    return identifier


def test_a_doi_joined_later_verifies_against_its_identifier(client, joined_doi, tmp_path):
    record = save_record(client, "2604.00002", tmp_path, past_minute())
    assert json.loads(record.read_bytes())["outbound"][0]["citation"]["cited_work"]["doi"] == "10.1000/published"
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 0, out
    proofs = json.loads((tmp_path / "2604.00002.json.proofs.json").read_bytes())
    assert json.loads(proofs["observations"][0]["identifier"]["entry"])["id"] == str(joined_doi.pk)


@pytest.mark.postgresql
def test_an_identifier_changed_behind_piths_back_is_named_by_the_log_and_the_verifier(client, joined_doi, tmp_path):
    with transaction.atomic():
        behind_piths_back("UPDATE work_identifiers SET value = '10.1000/forged' WHERE id = %s", [joined_doi.pk])
    findings = {(f.kind, f.observation): str(f) for f in check_log()}
    assert set(findings) == {("work_identifier", str(joined_doi.pk))}
    assert "value '10.1000/published' -> '10.1000/forged'" in findings["work_identifier", str(joined_doi.pk)]
    record = save_record(client, "2604.00002", tmp_path, past_minute())
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 1, out
    assert "the log's entry says value '10.1000/published', the record shows '10.1000/forged'" in out


def test_every_entry_a_curator_writes_is_logged_withdrawals_splits_and_carried_copies_too(db, signing_key, curator):
    from curation.segmentation import split_reference
    from curation.services import withdraw_override

    reference, other = make_references(make_paper("2604.00003"), 2)
    title = curate(reference, "title", CURATED_TITLE, curator)
    withdraw_override(override_id=title.pk, reason="misread", curator=curator,
                      expected_revision=revision_of(reference.pk))
    curate(other, "year", 1999, curator)
    split_reference(reference_id=reference.pk, before="Work number", reason="two in one", curator=curator,
                    expected_revision=revision_of(reference.pk))      # carries the other's year onto the new list
    publish_checkpoint()
    written = {str(pk) for pk in Override.objects.values_list("pk", flat=True)}
    assert len(written) == 5                                          # set, withdraw, set, split, carried copy
    assert {leaf.observation for leaf in LogLeaf.objects.filter(kind=LeafKind.OVERRIDE)} == written
    assert check_log() == []


@pytest.mark.postgresql
def test_an_audited_purge_of_curated_references_is_no_tampering(db, signing_key, curator):
    from citations.purge import purge_references

    reference = make_references(make_paper("2604.00004"), 2)[0]
    curate(reference, "title", CURATED_TITLE, curator)
    publish_checkpoint()
    purge_references(arxiv_id="2604.00004", reason="a takedown request, checked", operator=curator)
    assert not Override.objects.exists()
    assert check_log() == []


def test_entries_written_before_the_log_enter_it_by_backfill_and_then_verify(client, db, signing_key, curator,
                                                                             monkeypatch, settings, tmp_path):
    import io

    from django.core.management import call_command

    settings.LOG_OBSERVATIONS = False
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now - timedelta(minutes=10))
    reference = make_references(make_paper("2604.00005"), 2)[0]
    entry = curate(reference, "title", CURATED_TITLE, curator)
    monkeypatch.undo()
    settings.LOG_OBSERVATIONS = True
    call_command("publish_checkpoint", "--backfill", stdout=io.StringIO())
    assert LogLeaf.objects.filter(kind=LeafKind.OVERRIDE, observation=str(entry.pk)).exists()
    record = save_record(client, "2604.00005", tmp_path, past_minute())
    code, out = run(record, "--keys", tmp_path / "keys.json")
    assert code == 0, out
