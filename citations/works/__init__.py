"""The works store: canonical works beyond arXiv, read from the bulk files operators download.

`records.py` is what every source reader yields (a WorkRecord, or a rejection naming why);
`crossref.py`, `openalex.py` and `dblp.py` read their sources' files as streams; `importer.py`
writes them as works with their identifiers, idempotently, in batches (COPY on PostgreSQL): each
batch decided by `batch_plan.py`, stored by `batch_store.py`, by a writer of `writers.py`.
"""
