"""The two seed records as rows: imported once per session, written again into each test's transaction.

Importing the seeds (`citations.sources.record_import.import_record` on citations/fixtures/seeds/) is
slow for a fixture: the importer checks both files against the schema, writes row by row through the
ORM and, before committing, rebuilds each record from the store to prove it reproduces the file.
The rows it leaves behind are always the same. So the session imports them once, in a transaction
it rolls back, and keeps what the import wrote (`SeedRows.capture`); each test that asks for the
seeds gets those rows written again in its own transaction (`SeedRows.load`), a few multi-row
INSERTs (docs/performance.md has the figures).

Why this design, and not one seeded database shared by the seeds tests:
a shared state would need the seeds tests run together inside one outer transaction, the other
tests kept out of it (they must see an empty store), and the tests that commit (transactional_db,
live_server, the browser and Celery worker tests, which empty the tables with TRUNCATE afterwards)
kept from ever running inside it; it would tie the outcome of a test to the order the suite runs
in, and fight pytest-django's own per-test transaction. Rows written again per test keep every test
as it was: its own transaction, rolled back at the end, in any order, alone or with -k.

What is kept is exact, whatever the column types: every row is read back as SQL literals written by
the database itself (`quote()` on SQLite, `quote_nullable()` on PostgreSQL: the type's own text
form, exact for times, JSON, arrays and floats), and written again with explicit primary keys, in
the order the import left them (rowid on SQLite, ctid on PostgreSQL) and tables in foreign-key
order. Every table the import changed is kept, whatever writes it: the observation tables, the
materialised read models (citations/current/) and the title index. The record generation counters
are rows too, but not empty ones: migrations bump two of them and the import bumps counters chosen
at random (citations/models/generations.py), so what is kept there is the increments, added to whatever
counters the test starts with, as the import's own upsert adds them. The import writes nothing else
that outlives a test: caches are emptied around every test by the `fresh_cache` fixture, and the
capture checks that it queued no on-commit callback. On PostgreSQL the append-only triggers allow
INSERT, and each sequence is set to the last id written (setval), so rows the test adds afterwards
take the next ids, as after an import into an empty store; on SQLite an explicit id moves
AUTOINCREMENT's counter by itself. Integer ids are those of the capture's import (no test names
one); the UUIDs of references and works are the records' own.

The rows are only a copy of an import into an empty store. When a test has written to the store
before asking for the seeds (a fixture listed before `seeds`), an import would merge with those
rows, so the seeds are imported then, the slow way, as before (`SeedRows.load` returns False).
tests/records/test_fast_seeds.py checks that the copy and a fresh import give the same records,
byte for byte, and the same rows.
"""
from dataclasses import dataclass, field

from django.apps import apps
from django.db import connection, transaction

from citations.models import RecordGeneration

CHUNK = 200          # rows a statement: well within SQLite's and PostgreSQL's limits on a statement's size
GENERATIONS = RecordGeneration._meta.db_table


def store_tables() -> list[str]:
    """The tables of the store: citations' and curation's models, many-to-many tables included
    (the record generation counters aside: they are counters, not what the store holds)."""
    tables = set()
    for label in ("citations", "curation"):
        for model in apps.get_app_config(label).get_models(include_auto_created=True):
            if model._meta.managed and not model._meta.proxy:
                tables.add(model._meta.db_table)
    return sorted(tables - {GENERATIONS})


def _quote(column: str) -> str:
    name = connection.ops.quote_name(column)
    return f"quote({name})" if connection.vendor == "sqlite" else f"quote_nullable({name})"


def _physical_order() -> str:
    return "rowid" if connection.vendor == "sqlite" else "ctid"


def _literal_rows(cursor, table: str, columns: list[str]) -> list[str]:
    """Every row of the table as '(literal, literal, ...)', in the order the rows were written."""
    cursor.execute(f"SELECT {', '.join(_quote(c) for c in columns)} FROM {connection.ops.quote_name(table)} "
                   f"ORDER BY {_physical_order()}")
    return [f"({', '.join(row)})" for row in cursor.fetchall()]


def _columns(cursor, table: str) -> list[str]:
    return [column.name for column in connection.introspection.get_table_description(cursor, table)]


def _foreign_key_order(cursor, tables: list[str]) -> list[str]:
    """The tables, each after the tables it refers to."""
    wanted = set(tables)
    refers = {t: {target for _, target in connection.introspection.get_relations(cursor, t).values()}
              & wanted - {t} for t in tables}
    ordered: list[str] = []
    while refers:
        ready = sorted(t for t, targets in refers.items() if not targets - set(ordered))
        if not ready:
            raise RuntimeError(f"foreign keys in a cycle among {sorted(refers)}")
        ordered += ready
        for t in ready:
            del refers[t]
    return ordered


@dataclass
class TableRows:
    table: str
    statements: list[str]          # INSERTs of every row, CHUNK rows each
    rows: int
    sequence: str | None = None    # PostgreSQL: the sequence of an integer primary key...
    last_id: int | None = None     # ...and the largest id written


def _generations(cursor) -> dict[str, int]:
    cursor.execute(f"SELECT key, value FROM {GENERATIONS}")
    return dict(cursor.fetchall())


def _bumps(before: dict[str, int], after: dict[str, int]) -> TableRows:
    """The counters' increments, added as citations.models.generations._bump adds its own."""
    increments = {key: value - before.get(key, 0) for key, value in sorted(after.items())}
    if any(step < 0 for step in increments.values()) or set(before) - set(after):
        raise RuntimeError(f"importing the seeds did more than bump record generations: {before} -> {after}")
    if any("'" in key for key in increments):
        raise RuntimeError(f"unexpected generation keys {sorted(increments)}")
    values = ", ".join(f"('{key}', {step})" for key, step in increments.items() if step)
    statements = [f"INSERT INTO {GENERATIONS} (key, value) VALUES {values} "
                  f"ON CONFLICT (key) DO UPDATE SET value = {GENERATIONS}.value + excluded.value"] if values else []
    return TableRows(table=GENERATIONS, statements=statements, rows=len(increments))


@dataclass
class SeedRows:
    tables: list[TableRows] = field(default_factory=list)     # the counters, then the rest in foreign-key order
    checked: list[str] = field(default_factory=list)          # must be empty for the copy to apply
    summaries: list = field(default_factory=list)              # what import_record() returned

    @classmethod
    def capture(cls, import_seeds) -> "SeedRows":
        """Run import_seeds() in a transaction rolled back afterwards, keeping the rows it left behind.
        The store must be empty (as every test starts)."""
        seeds = cls(checked=store_tables())
        with transaction.atomic(), connection.cursor() as cursor:
            names = connection.introspection.table_names(cursor)
            columns = {t: _columns(cursor, t) for t in names}
            before = {t: _literal_rows(cursor, t, columns[t]) for t in names}
            store = set(seeds.checked)
            if any(before[t] for t in store):
                raise RuntimeError(f"the store is not empty: {[t for t in store if before[t]]}")
            generations = _generations(cursor)
            callbacks = len(connection.run_on_commit)
            seeds.summaries = import_seeds()
            if len(connection.run_on_commit) != callbacks:
                raise RuntimeError("importing the seeds queued on-commit callbacks: a copy of their rows "
                                   "would not reproduce them")
            changed = [t for t in names if _literal_rows(cursor, t, columns[t]) != before[t]]
            if set(changed) - store - {GENERATIONS}:
                raise RuntimeError(f"importing the seeds changed tables outside the store: {set(changed) - store}")
            if GENERATIONS in changed:
                changed.remove(GENERATIONS)
                seeds.tables.append(_bumps(generations, _generations(cursor)))
            for table in _foreign_key_order(cursor, changed):
                rows = _literal_rows(cursor, table, columns[table])
                quoted = ", ".join(connection.ops.quote_name(c) for c in columns[table])
                statements = [f"INSERT INTO {connection.ops.quote_name(table)} ({quoted}) VALUES "
                              + ", ".join(rows[start:start + CHUNK]) for start in range(0, len(rows), CHUNK)]
                kept = TableRows(table=table, statements=statements, rows=len(rows))
                if connection.vendor == "postgresql":
                    for sequence in connection.introspection.get_sequences(cursor, table):
                        column = connection.ops.quote_name(sequence["column"])
                        cursor.execute(f"SELECT MAX({column}) FROM {connection.ops.quote_name(table)}")
                        kept.sequence, kept.last_id = sequence["name"], cursor.fetchone()[0]
                seeds.tables.append(kept)
            transaction.set_rollback(True)
        return seeds

    def store_is_empty(self, cursor) -> bool:
        probes = " UNION ALL ".join(f"SELECT 1 FROM {connection.ops.quote_name(t)}" for t in self.checked)
        cursor.execute(f"SELECT EXISTS ({probes})")
        return not cursor.fetchone()[0]

    def load(self) -> bool:
        """Write the rows into the current transaction (in a test that commits, one transaction of
        their own); False, and nothing written, unless the store is empty."""
        with transaction.atomic(), connection.cursor() as cursor:
            if not self.store_is_empty(cursor):
                return False
            for kept in self.tables:
                for statement in kept.statements:
                    cursor.execute(statement)
                if kept.sequence is not None and kept.last_id is not None:
                    cursor.execute("SELECT setval(%s, %s)", [kept.sequence, kept.last_id])
        return True
