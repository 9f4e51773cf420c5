"""Reading a v1 record back into the observations it was built from.

`import_record()` refuses a file, naming the problem and writing nothing, when
it is not JSON, not of the v1 shape, has a digest that does not match, repeats
an observation id, or contradicts what the store already holds. It writes in
one transaction and, before committing, rebuilds the record from the store as
of the record's time: unless the result is the same record (for a capped record,
the same itemized observations), the transaction is rolled back and the file
refused. So a record that was imported is one this store reproduces, and
importing it again changes nothing.

The file is read and checked by citations/sources/record_checks.py and its observations written
by citations/sources/record_observations.py; this module runs the two and the verification.
"""
import json
from datetime import timedelta

from django.db import DatabaseError, transaction

from citations.models.generations import records_changed
from citations.records.build import RecordUnavailable, build_record
from citations.records.timestamps import parse_z
from citations.sources.record_checks import RecordRefused, check_record, parse_record
from citations.sources.record_observations import ImportSummary, ObservationWriter

# The build time lies somewhere in the minute that as_of names.
BUILD_MINUTE = timedelta(minutes=1) - timedelta(microseconds=1)


def import_record(*, data: bytes) -> ImportSummary:
    """Import one record file's bytes; raise RecordRefused and write nothing if it cannot be imported."""
    record = parse_record(data)
    check_record(record)
    try:
        with transaction.atomic():
            summary = ObservationWriter(record).run()
            _verify_reproduced(record, summary)
            if summary.changed:
                records_changed()       # its papers' snapshots show in other records too
    except RecordUnavailable as error:
        raise RecordRefused(str(error)) from None
    except DatabaseError as error:
        # The checks above should leave nothing for a constraint to catch; if one does,
        # the transaction is already rolled back and the file is refused all the same.
        raise RecordRefused(f"the database refused a value: {str(error).splitlines()[0][:300]}") from None
    return summary


# --- verification ------------------------------------------------------------------------------------

# What a capped record cannot let us reproduce: the references it counts but does not itemize.
_CAPPED_PATHS = ("thesis", "reference_resolution.total_outbound_references", "coverage[2].denominator")


def _verify_reproduced(record: dict, summary: ImportSummary) -> None:
    as_of = parse_z(record["as_of"])
    rebuilt = build_record(arxiv_id=record["paper"]["arxiv_id"], as_of=as_of + BUILD_MINUTE).record
    # The context digest follows from the rest; name the displayed fact that differs instead.
    ignore = ("context_digest", *(_CAPPED_PATHS if summary.capped else ()))
    difference = first_difference(record, rebuilt, ignore=ignore)
    if difference is not None:
        path, theirs, ours = difference
        raise RecordRefused(
            f"the store cannot reproduce this record as of {record['as_of']}: at {path} the file has "
            f"{_short(theirs)} but the stored observations give {_short(ours)}")


def first_difference(a, b, *, ignore=(), path="") -> tuple[str, object, object] | None:
    """The first JSON path at which two values differ, with both values; None when equal."""
    if path in ignore:
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            sub = f"{path}.{key}" if path else key
            if key not in a or key not in b:
                return sub, a.get(key, "<absent>"), b.get(key, "<absent>")
            found = first_difference(a[key], b[key], ignore=ignore, path=sub)
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for index, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, ignore=ignore, path=f"{path}[{index}]")
            if found:
                return found
        if len(a) != len(b):
            return f"{path} (length)", len(a), len(b)
        return None
    if a != b or type(a) is not type(b):
        return path, a, b
    return None


def _short(value) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 120 else text[:117] + "..."


__all__ = ["ImportSummary", "RecordRefused", "first_difference", "import_record"]
