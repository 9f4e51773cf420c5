"""The `seeds` fixture writes a copy of the rows an import of the seeds leaves (tests/seed_rows.py):
the copy must be the import, record for record and row for row."""
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from citations.models import RecordGeneration
from citations.models.generations import JOBS, LISTS
from citations.records.build import build_record
from citations.sources.record_import import import_record
from tests.conftest import SEED_000, SEED_004, import_seeds
from tests.records.test_build import seed_time
from tests.seed_rows import store_tables

SEEDS = {"2509.11076": SEED_000, "2509.23722": SEED_004}


def store_now(as_of) -> dict:
    """Each seed paper's record as of its own time and as of a later one, and the rows of every store table."""
    bodies = {(arxiv_id, at): build_record(arxiv_id=arxiv_id, as_of=at).body
              for arxiv_id, seed in SEEDS.items() for at in (seed_time(seed), as_of)}
    with connection.cursor() as cursor:
        counts = {}
        for table in store_tables():
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    # The generation counters: a list's is the sum of its shards, the import bumping one at random.
    generations = {}
    for key, value in RecordGeneration.objects.values_list("key", "value"):
        shards = next((prefix for prefix in (LISTS, JOBS) if key.startswith(prefix)), key)
        generations[shards] = generations.get(shards, 0) + value
    return {"bodies": bodies, "counts": counts, "generations": generations}


def test_the_seed_rows_are_what_a_fresh_import_writes(seed_rows, db):
    as_of = timezone.now() + timedelta(minutes=5)
    with transaction.atomic():
        import_seeds()
        imported = store_now(as_of)
        transaction.set_rollback(True)
    assert imported["counts"]["paper_references"] > 0 and imported["generations"]["*"] > 0

    assert seed_rows.load() is True
    copied = store_now(as_of)
    assert copied["counts"] == imported["counts"]
    assert copied["generations"] == imported["generations"]
    for key, body in imported["bodies"].items():
        assert copied["bodies"][key] == body, key
    for arxiv_id, seed in SEEDS.items():
        assert copied["bodies"][arxiv_id, seed_time(seed)] == seed.read_bytes()
    # The copy is a store the importer finds nothing to add to.
    assert not any(import_record(data=seed.read_bytes()).changed for seed in SEEDS.values())


def test_the_seed_rows_are_not_written_over_a_store_that_is_not_empty(seed_rows, db):
    from citations.models import Paper

    Paper.objects.create(arxiv_id="2301.00001")
    assert seed_rows.load() is False
    assert list(Paper.objects.values_list("arxiv_id", flat=True)) == ["2301.00001"]


def test_rows_added_after_the_seeds_take_new_ids(seeds):
    from citations.models import Paper

    held = set(Paper.objects.values_list("pk", flat=True))
    paper = Paper.objects.create(arxiv_id="2301.00001")
    assert paper.pk not in held and paper.pk > max(held)
