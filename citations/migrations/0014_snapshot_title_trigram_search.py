"""Search by title and author words as an index read on PostgreSQL.

The search box and /api/v1/papers/?search= ask `UPPER(title) LIKE UPPER('%word%')` of each paper's
current snapshot: without an index, a scan of every snapshot for every search. Trigram GIN indexes
on the upper-cased columns serve exactly that predicate (pg_trgm is a trusted extension: a database
owner may create it). SQLite has no such index; its stores are the small ones.
"""
from django.db import migrations

INDEXES = {
    "paper_snapshot_title_trgm": "title",
    "paper_snapshot_authors_trgm": "authors",
}


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for name, column in INDEXES.items():
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name} ON paper_snapshots USING gin "
                              f"(UPPER({column}::text) gin_trgm_ops)")


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):

    dependencies = [
        ('citations', '0013_abstract_database_default'),
    ]

    operations = [migrations.RunPython(create, drop)]
