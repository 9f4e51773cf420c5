"""Reading and checking a v1 record file before anything is written: `parse_record()` (bytes to a
JSON object) and `check_record()` (the v1 schema, stored values in range, the digests, and what
the record says of itself), each refusing with RecordRefused, naming the problem."""
import json
from datetime import datetime
from functools import cache
from pathlib import Path

import jsonschema

from citations.arxiv_ids import is_canonical_arxiv_id
from citations.records.build import REFUSAL, SCHEMA
from citations.records.canonical import context_digest, observation_digest
from citations.records.timestamps import OFFSET_RENDERING, parse_offset, parse_z
from citations.validation import OutOfRange, checked_date, checked_time

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "records" / "schema" / "record-v1.schema.json"


class RecordRefused(ValueError):
    """The file cannot be imported; the message names the problem."""


@cache
def record_schema() -> dict:
    """The JSON Schema of the v1 record (also served at /evidence/record-v1.schema.json)."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def parse_record(data: bytes) -> dict:
    """Bytes to a JSON object, refusing what is not UTF-8 JSON or repeats a key."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordRefused(f"not UTF-8: byte {error.start} cannot be decoded") from None
    if not text.strip():
        raise RecordRefused("the file is empty")
    try:
        record = json.loads(text, object_pairs_hook=_no_repeated_keys)
    except _RepeatedKey as error:
        raise RecordRefused(f"not a record: key {error.args[0]!r} appears twice in one object") from None
    except json.JSONDecodeError as error:
        raise RecordRefused(f"not JSON (truncated or malformed): {error.msg} at line {error.lineno} "
                            f"column {error.colno}") from None
    except RecursionError:
        raise RecordRefused("not a record: nested too deeply") from None
    except ValueError:
        # Python's decoder refuses integers of more than 4,300 digits (sys.get_int_max_str_digits).
        raise RecordRefused("not a record: a number has too many digits to be read") from None
    if not isinstance(record, dict):
        raise RecordRefused(f"not a record: the top level is a JSON {type(record).__name__}, not an object")
    _refuse_unencodable(record)
    return record


def _refuse_unencodable(value) -> None:
    # JSON can spell a lone surrogate (\ud800) that no UTF-8 text, and so no digest, can hold.
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise RecordRefused("not a record: a string holds a lone UTF-16 surrogate") from None


class _RepeatedKey(ValueError):
    pass


def _no_repeated_keys(pairs):
    result = {}
    for key, value in pairs:
        if key in result:
            raise _RepeatedKey(key)
        result[key] = value
    return result


def check_record(record: dict) -> None:
    """Shape, digests and self-consistency that need no database; raise RecordRefused on the first problem."""
    if record.get("schema") != SCHEMA:
        raise RecordRefused(f"wrong schema: {record.get('schema')!r}, this importer reads {SCHEMA!r}")
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(record_schema()).iter_errors(record))
    if error is not None:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path) or "the record"
        raise RecordRefused(f"not a v1 record: at {where.lstrip('.')}: {error.message[:300]}")
    _check_values(record)
    if record["refusal"] != REFUSAL:
        raise RecordRefused("the refusal sentence differs from the v1 contract")
    arxiv_id = record["paper"]["arxiv_id"]
    if not is_canonical_arxiv_id(arxiv_id):
        raise RecordRefused(f"paper.arxiv_id {arxiv_id!r} is not an arXiv id in canonical form")

    seen: dict[str, str] = {}
    for direction in ("outbound", "inbound"):
        for index, observation in enumerate(record[direction]):
            where = f"{direction}[{index}]"
            oid = observation["observation_id"]
            if oid in seen:
                raise RecordRefused(f"observation {oid} appears twice ({seen[oid]} and {where})")
            seen[oid] = where
            if observation_digest(observation) != observation["observation_digest"]:
                raise RecordRefused(f"{where} (observation {oid}): observation_digest does not match its content")
            _check_observation(observation, where, direction, arxiv_id)
    if context_digest(record) != record["context_digest"]:
        raise RecordRefused("context_digest does not match the record")


# The schema gives the shape of times and numbers; these are the values that can also be stored.
_TIME_KEYS = frozenset({"as_of", "submitted_at", "last_updated", "snapshot_observed_at", "observed_at",
                        "source_observed_at"})
_DATE_KEYS = frozenset({"occurred_on"})
_VERSION_KEYS = frozenset({"version", "latest_version"})     # PositiveSmallIntegerField
MAX_VERSION = 32_767
MAX_NUMBER = 2_147_483_647                                     # every other number fits an integer column


def _check_values(record: dict) -> None:
    """Times that are real times within TIME_RANGE (citations/validation.py), and numbers that fit their
    columns: a month 13, a 30 February, year 0000 or a number past any column would otherwise fail
    (or, on SQLite, overflow) mid-import instead of being refused."""
    stack = [(record, "")]
    while stack:
        value, where = stack.pop()
        if isinstance(value, dict):
            stack.extend((item, f"{where}.{key}" if where else key) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, f"{where}[{index}]") for index, item in enumerate(value))
        elif isinstance(value, bool):
            continue
        elif isinstance(value, int):
            key = where.rsplit(".", 1)[-1]
            limit = MAX_VERSION if key in _VERSION_KEYS else MAX_NUMBER
            if not -MAX_NUMBER - 1 <= value <= limit:
                raise RecordRefused(f"at {where}: {_number(value)} is larger than any value Pith stores there "
                                    f"(at most {limit:,})")
        elif isinstance(value, str):
            key = where.rsplit(".", 1)[-1]
            if key in _TIME_KEYS:
                _check_time(value, where)
            elif key in _DATE_KEYS:
                _check_date(value, where)


def _check_time(text: str, where: str) -> None:
    try:
        value = parse_offset(text) if OFFSET_RENDERING.match(text) else parse_z(text)
    except ValueError:
        raise RecordRefused(f"at {where}: {text[:40]!r} is not a real time") from None
    try:
        checked_time(value, what=where)
    except OutOfRange as error:
        raise RecordRefused(str(error)) from None


def _check_date(text: str, where: str) -> None:
    try:
        value = datetime.fromisoformat(text).date()
    except ValueError:
        raise RecordRefused(f"at {where}: {text[:40]!r} is not a real date") from None
    try:
        checked_date(value, what=where)
    except OutOfRange as error:
        raise RecordRefused(str(error)) from None


def _number(value: int) -> str:
    digits = str(abs(value))
    return f"{value:,}" if len(digits) <= 30 else f"a number of {len(digits):,} digits"


def _check_observation(observation: dict, where: str, direction: str, arxiv_id: str) -> None:
    citation = observation["citation"]
    citing, cited, work = citation["citing_paper"], citation["cited_paper"], citation["cited_work"]
    for role, block in (("citing_paper", citing), ("cited_paper", cited)):
        if block is not None and not is_canonical_arxiv_id(block["arxiv_id"]):
            raise RecordRefused(f"{where}: {role}.arxiv_id {block['arxiv_id']!r} is not a canonical arXiv id")
    if citing["version"] is None:
        raise RecordRefused(f"{where}: citing_paper.version is missing")
    if direction == "outbound" and citing["arxiv_id"] != arxiv_id:
        raise RecordRefused(f"{where}: an outbound observation is cited by arXiv:{citing['arxiv_id']}, "
                            f"not by arXiv:{arxiv_id}")
    if direction == "inbound" and (cited or {}).get("arxiv_id") != arxiv_id:
        raise RecordRefused(f"{where}: an inbound observation does not cite arXiv:{arxiv_id}")
    if work["pith_arxiv_id"] != (cited or {}).get("arxiv_id"):
        raise RecordRefused(f"{where}: cited_work.pith_arxiv_id and cited_paper name different papers")
    if work["work_id"] is None:
        # Without a canonical work, the record's cited_work is the reference's own parse;
        # canonical fields there could not have come from this store.
        stray = [k for k in ("arxiv_id", "doi", "venue", "metadata_source") if work[k] is not None]
        if stray or work["snapshot_observed_at"] != citation["source_observed_at"]:
            raise RecordRefused(f"{where}: cited_work has canonical fields ({', '.join(stray) or 'snapshot time'}) "
                                f"but no work_id")
    notice = observation["standing_notice"]
    for event in notice["events"]:
        if event["source"] not in {r["source"] for r in notice["source_receipts"]}:
            raise RecordRefused(f"{where}: an event from {event['source']!r} has no receipt from that source")

