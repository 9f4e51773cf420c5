# Identifiers compare as bytes on PostgreSQL: DOIs, arXiv ids, source ids, volumes and first pages
# take the "C" collation, whose comparison is memcmp, where the database's default collation calls
# strcoll for every comparison an index insert or lookup makes. An identifier is a string of bytes
# (DOIs are stored lower case), so equality is unchanged. Text comparisons were 12% of PostgreSQL's
# time writing imported works (bench/works.py: 21.5 against 23.0 µs a work, with C.UTF-8 as the
# default; a language's collation, such as en_US.UTF-8, costs more).
#
# Done in SQL on PostgreSQL only, not as Django's db_collation: SQLite has no collation named "C"
# (its default, BINARY, already compares bytes). The model state does not know of it, so an
# AlterField of these columns would drop it: tests/works/test_fast_paths.py checks it is there.
# The indexes on these columns are rebuilt, the two tables locked meanwhile: 2.5 s on a store of a
# million works (bench/works.py's), so about half a minute for ten million.
from django.db import migrations

COLUMNS = {
    "cited_works": (("doi", "varchar(255)"), ("arxiv_id", "varchar(40)"), ("volume", "varchar(32)"),
                    ("first_page", "varchar(32)")),
    "work_identifiers": (("kind", "varchar(16)"), ("value", "varchar(255)")),
}


def _collate(collation):
    def alter(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for table, columns in COLUMNS.items():
            schema_editor.execute(f"ALTER TABLE {table} " + ", ".join(
                f'ALTER COLUMN {column} TYPE {kind} COLLATE "{collation}"' for column, kind in columns))
    return alter


class Migration(migrations.Migration):

    dependencies = [
        ('citations', '0021_lean_work_writes'),
    ]

    operations = [
        migrations.RunPython(_collate("C"), _collate("default")),
    ]
