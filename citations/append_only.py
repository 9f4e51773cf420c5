"""PostgreSQL triggers that keep every observation table append-only, TRUNCATE included.

Rows are added, never changed or deleted: a revision is a new row, so a record built as of a
time prints the same bytes forever. Three row-level exceptions, each the narrowest the code
needs, are spelled out in their own functions below. Rows are deleted only by an operator's
audited purge (citations/purge.py): in a transaction that has written its audit entry first,
with the transaction's id, which the trigger looks for; no session setting opens that door. The
test runner may TRUNCATE a test database: one whose name begins with "test" and that its owner
marked with `ALTER DATABASE ... SET pith.test_database = 'on'` (the database's own setting, read
from the catalog: a session's SET cannot give it; a session may SET it 'off' to act as production).
SQLite has no such triggers; the code paths are the same there, the database just does not
stand guard. docs/operations.md says which database role Pith should run as.
"""

APPEND_ONLY_TABLES = [
    "papers", "paper_snapshots", "paper_versions", "reference_extractions", "paper_references",
    "paper_reference_links", "cited_works", "scholarly_work_events", "retraction_status_cache",
    "retraction_status_cache_events", "standing_source_syncs", "external_citation_measurements",
    "curation_overrides", "observation_purges", "work_identifiers", "work_revisions",
    "log_leaves", "log_checkpoints",         # the transparency log: leaves and checkpoints once published
]

# Updates that are allowed, by table: the function that decides.
UPDATE_RULES = {
    # A sync is recorded as it starts and finished once: a running row may become succeeded or
    # failed; a finished one never changes.
    "standing_source_syncs": """
        IF OLD.status = 'running' AND NEW.source = OLD.source AND NEW.started_at = OLD.started_at THEN
            RETURN NEW;
        END IF;""",
    # Everything read from v1 records for one version and source is one set, as old as its oldest
    # reference: a later record holding older references moves the set's time back, nothing else.
    "reference_extractions": """
        IF OLD.origin = 'record_import' AND NEW.observed_at < OLD.observed_at
           AND (NEW.paper_version_id, NEW.source, NEW.origin, NEW.content_digest)
               IS NOT DISTINCT FROM (OLD.paper_version_id, OLD.source, OLD.origin, OLD.content_digest) THEN
            RETURN NEW;
        END IF;""",
    # A work read from a record that named a paper by arXiv id only is adopted by the held paper
    # once it arrives: its paper is filled, nothing else.
    "cited_works": """
        IF OLD.paper_id IS NULL AND NEW.paper_id IS NOT NULL
           AND (NEW.doi, NEW.arxiv_id, NEW.title, NEW.year, NEW.venue, NEW.metadata_source, NEW.snapshot_observed_at)
               IS NOT DISTINCT FROM
               (OLD.doi, OLD.arxiv_id, OLD.title, OLD.year, OLD.venue, OLD.metadata_source, OLD.snapshot_observed_at) THEN
            RETURN NEW;
        END IF;""",
}

REFUSE = """
        RAISE EXCEPTION USING ERRCODE = 'raise_exception',
            MESSAGE = TG_TABLE_NAME || ' is append-only: rows are added, never changed or deleted (' || TG_OP || ')';"""

GENERIC = """
CREATE OR REPLACE FUNCTION pith_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' AND EXISTS (SELECT 1 FROM observation_purges WHERE transaction_id = txid_current()) THEN
        RETURN OLD;
    END IF;
    IF TG_OP = 'TRUNCATE' AND current_database() LIKE 'test%'
       AND COALESCE(current_setting('pith.test_database', true), '') <> 'off'
       AND EXISTS (SELECT 1 FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase
                   WHERE d.datname = current_database() AND s.setrole = 0
                     AND 'pith.test_database=on' = ANY (s.setconfig)) THEN
        RETURN NULL;
    END IF;""" + REFUSE + """
END $$ LANGUAGE plpgsql"""
# Before migration 0024: a session setting let a transaction delete (pith.purge) or truncate (pith.test_database).
SESSION_SETTING_GENERIC = """
CREATE OR REPLACE FUNCTION pith_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP <> 'UPDATE' AND current_setting('pith.purge', true) = 'on' THEN
        IF TG_LEVEL = 'ROW' THEN RETURN OLD; END IF;
        RETURN NULL;
    END IF;
    IF TG_OP = 'TRUNCATE' AND current_setting('pith.test_database', true) = 'on' THEN
        RETURN NULL;
    END IF;""" + REFUSE + """
END $$ LANGUAGE plpgsql"""


def replace_guard(schema_editor, *, function: str = GENERIC) -> None:
    """The generic trigger function again (the triggers that call it stay)."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(function, params=None)     # None: the '%' are SQL's, not placeholders


def _update_function(table: str) -> str:
    return f"""
CREATE OR REPLACE FUNCTION pith_append_only_{table}() RETURNS trigger AS $$
BEGIN{UPDATE_RULES[table]}{REFUSE}
END $$ LANGUAGE plpgsql"""


def install(schema_editor, tables: list[str]) -> None:
    """Create (or replace) the functions, and the triggers on these tables (a migration names the
    tables that exist at its point in history, so it never depends on this module's later list)."""
    if schema_editor.connection.vendor != "postgresql":
        return
    execute = lambda sql: schema_editor.execute(sql, params=None)   # noqa: E731 - '%' is PL/pgSQL's here
    execute(GENERIC)
    for table in UPDATE_RULES:
        execute(_update_function(table))
    for table in tables:
        update_function = f"pith_append_only_{table}" if table in UPDATE_RULES else "pith_append_only"
        execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        execute(f"DROP TRIGGER IF EXISTS {table}_append_only_update ON {table}")
        execute(f"DROP TRIGGER IF EXISTS {table}_append_only_truncate ON {table}")
        execute(f"CREATE TRIGGER {table}_append_only BEFORE DELETE ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION pith_append_only()")
        execute(f"CREATE TRIGGER {table}_append_only_update BEFORE UPDATE ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION {update_function}()")
        execute(f"CREATE TRIGGER {table}_append_only_truncate BEFORE TRUNCATE ON {table} "
                f"FOR EACH STATEMENT EXECUTE FUNCTION pith_append_only()")


def uninstall(schema_editor, tables: list[str]) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in tables:
        for suffix in ("", "_update", "_truncate"):
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only{suffix} ON {table}")
    # Only these tables' own functions: another table's trigger (a migration before this one) still calls its.
    for table in set(UPDATE_RULES) & set(tables):
        schema_editor.execute(f"DROP FUNCTION IF EXISTS pith_append_only_{table}()")
    # Back to what curation's migration 0002 had: three tables guarded against UPDATE and DELETE.
    for table in {"curation_overrides", "paper_references", "paper_reference_links"} & set(tables):
        schema_editor.execute(f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                              f"FOR EACH ROW EXECUTE FUNCTION pith_append_only()")
