"""Migration 0019: title keys stored as text become their fingerprints, each in its owner's table, and
the keys a store held before are all found after it."""
from datetime import UTC, datetime

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from citations.parsing.text import key_fingerprint, title_blocking_keys

BEFORE, AFTER = ("citations", "0018_work_revisions"), ("citations", "0019_title_key_fingerprints")
TITLE = "SmartSwap: Swap-Based Memory Optimization"


@pytest.fixture
def migrated_back(transactional_db):
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    yield executor.loader.project_state([BEFORE]).apps
    call_command("migrate", verbosity=0)


def test_text_keys_become_fingerprints_in_their_owners_tables_and_back(migrated_back):
    apps = migrated_back
    at = datetime(2026, 1, 1, tzinfo=UTC)
    paper = apps.get_model("citations", "Paper").objects.create(arxiv_id="2601.00001", first_seen_at=at)
    work = apps.get_model("citations", "CitedWork").objects.create(title=TITLE, snapshot_observed_at=at)
    TitleKey = apps.get_model("citations", "TitleKey")
    keys = sorted(title_blocking_keys(TITLE))
    TitleKey.objects.bulk_create([TitleKey(key=key, paper=paper) for key in keys]
                                 + [TitleKey(key=key, work=work) for key in keys])

    executor = MigrationExecutor(connection)
    executor.migrate([AFTER])
    apps = executor.loader.project_state([AFTER]).apps
    wanted = {key_fingerprint(key) for key in keys}
    assert set(apps.get_model("citations", "PaperTitleKey").objects.filter(paper_id=paper.pk)
               .values_list("key", flat=True)) == wanted
    assert set(apps.get_model("citations", "WorkTitleKey").objects.filter(work_id=work.pk)
               .values_list("key", flat=True)) == wanted

    # Back: the text keys are made again from the work's title (the paper here has no snapshot).
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    apps = executor.loader.project_state([BEFORE]).apps
    assert set(apps.get_model("citations", "TitleKey").objects.filter(work_id=work.pk)
               .values_list("key", flat=True)) == set(keys)
