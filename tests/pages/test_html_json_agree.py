"""The HTML record page and the canonical JSON never disagree about a record.

Every element of /paper/<id>/citation-record that shows a value of the record carries
`data-field`, the value's path in the JSON as citations/records/history.py names it (`thesis`,
`coverage[standing_notices].denominator`, in an observation's row `resolution.status`,
`standing_notice.events[crossref:R1].event_type`); rows are `<tr id="obs-<observation_id>">`.
What the element says is its text, or its `<time datetime>` (times are shown to the minute), or its
`data-value` where the page says it in words ("Verified by identifier" for `verified_exact`): then
the words must be the ones the page uses for that value. Each shown value must equal the JSON's, and
every field listed in `shown_fields()` must be shown, so a value the page drops or invents fails.
"""
import json
from datetime import date
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from citations.current.resolutions import links_written
from citations.models import (
    CitedWork,
    Paper,
    PaperReference,
    PaperReferenceLink,
    ReceiptEvent,
    RetractionStatusReceipt,
    ScholarlyWorkEvent,
)
from citations.models.generations import records_changed
from citations.models.resolution import LINKING_STATES
from citations.records.history import _leaves
from citations.records.presentation import NOTICE_SHORT, SOURCE_NAMES, STATE_LABELS
from curation.groups import curators_group
from curation.services import apply_override, revision_of
from tests.conftest import SEED_000, SEED_004

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Shown:
    """One element carrying data-field: its path, data-value, text, <time datetime> and titles inside it."""

    def __init__(self, field, value, row):
        self.field, self.value, self.row = field, value, row
        self.text, self.times, self.titles = [], [], []

    @property
    def words(self) -> str:
        return " ".join("".join(self.text).split())


class RecordPage(HTMLParser):
    """The data-field elements of a record page, by observation row (None: the record itself)."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, Shown | None, str | None]] = []    # (tag, element, row)
        self.shown: list[Shown] = []
        self.links: dict[str | None, list[str]] = {}
        self.feed(html)
        self.close()

    def _row(self):
        return self.stack[-1][2] if self.stack else None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        row = attrs["id"][4:] if tag == "tr" and (attrs.get("id") or "").startswith("obs-") else self._row()
        for _, open_element, _ in self.stack:
            if open_element is not None:
                if tag == "time":
                    open_element.times.append(attrs.get("datetime"))
                if attrs.get("title"):
                    open_element.titles.append(attrs["title"])
        # A split's or join's mark links its audit entry too, but marks no value of the JSON.
        if tag == "a" and attrs.get("href") and "data-correction" not in attrs:
            self.links.setdefault(row, []).append(attrs["href"])
        element = None
        if "data-field" in attrs:
            element = Shown(attrs["data-field"], attrs.get("data-value"), row)
            if attrs.get("title"):
                element.titles.append(attrs["title"])
            self.shown.append(element)
        if tag not in VOID:
            self.stack.append((tag, element, row))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        while self.stack:
            open_tag, _, _ = self.stack.pop()
            if open_tag == tag:
                break

    def handle_data(self, data):
        for _, element, _ in self.stack:
            if element is not None:
                element.text.append(data)


def _text(value) -> str:
    return "" if value is None else str(value)


def _plain(text: str) -> str:
    return " ".join(text.replace("_", " ").lower().split())


def check_shown(element: Shown, expected, context: dict) -> None:
    """The element states `expected`, in the page's own words for it."""
    where = f"{element.field} in {'row ' + element.row if element.row else 'the record'}"
    from citations.records.presentation import day_text, minute_text

    if element.value is not None:
        said = element.value
    elif element.times:
        said = element.times[0]
    elif expected is None:
        return                                  # a placeholder ("—", "never", "(no title parsed)")
    elif element.field == "standing_notice.reason":
        said = next((reason for reason, words in NOTICE_SHORT.items() if words == element.words), element.words)
    else:
        said = element.words.removeprefix("arXiv:") if element.field.endswith("arxiv_id") else element.words
    assert said == _text(expected), f"{where}: the page says {said!r}, the JSON {expected!r}"

    # Where the value is stated in words, the words must be the page's for that value.
    words = element.words
    if element.value is None and element.times:
        assert all(t == _text(expected) for t in element.times), where
        assert minute_text(expected) in words, f"{where}: {words!r} does not show {minute_text(expected)}"
    elif element.value is None or expected is None:
        return
    elif element.field.endswith("resolution.status"):
        assert STATE_LABELS[expected] in words, f"{where}: {words!r}"
    elif element.field.endswith(".source"):
        assert SOURCE_NAMES.get(expected, expected) in words, f"{where}: {words!r}"
    elif element.field.endswith("occurred_on"):
        assert day_text(expected) in words, f"{where}: {words!r}"
    elif element.field.endswith("].state"):           # a coverage lane: measured unless it says not
        assert ("not measured" in words) == (expected != "measured"), f"{where}: {words!r}"
    elif element.field == "standing_notice.state":
        observation = context["observation"]
        if expected == "measured":
            newest = max(r["observed_at"] for r in observation["standing_notice"]["source_receipts"])
            assert minute_text(newest) in words, f"{where}: {words!r}"
            assert ("No event found" in words) == (not observation["standing_notice"]["events"]), where
        else:
            assert NOTICE_SHORT[observation["standing_notice"]["reason"]] in words, f"{where}: {words!r}"
    else:
        assert _plain(str(expected)) in _plain(words) or any(str(expected) in t for t in element.titles), \
            f"{where}: {words!r} does not say {expected!r}"


def shown_fields(record: dict, observation: dict | None, direction: str | None) -> set[str]:
    """The fields the page must show: of the record, or of one observation."""
    if observation is None:
        fields = {"schema", "as_of", "paper.title", "paper.arxiv_id", "thesis", "refusal", "context_digest",
                  "reference_resolution.displayed", "reference_resolution.total_outbound_references"}
        fields |= {f"reference_resolution.state_counts.{s}" for s in record["reference_resolution"]["state_counts"]}
        for lane in record["coverage"]:
            name = lane["lane"]
            fields |= {f"coverage[{name}].{k}" for k in ("lane", "state", "records_observed", "denominator", "source")}
            if lane["source_observed_at"] is not None:
                fields.add(f"coverage[{name}].source_observed_at")
        for s in record["standing_sources"]:
            fields |= {f"standing_sources[{s['source']}].source", f"standing_sources[{s['source']}].observed_at"}
        for m in record["external_citation_measurements"]:
            fields |= {f"external_citation_measurements[{m['source']}].{k}" for k in ("count", "source", "observed_at")}
        return fields
    citation, notice = observation["citation"], observation["standing_notice"]
    fields = {"observation_id", "observation_digest", "citation.reference_index", "citation.cited_work.title",
              "citation.cited_work.year", "citation.source_observed_at", "resolution.status",
              "resolution.observed_at", "standing_notice.state"}
    if observation["resolution"]["resolver_source"] is not None:
        fields.add("resolution.resolver_source")
    if citation["cited_work"]["doi"] is not None:
        fields.add("citation.cited_work.doi")
    if direction == "inbound":
        fields |= {"citation.citing_paper.arxiv_id", "citation.citing_paper.version"}
    elif citation["cited_paper"] is not None:
        fields.add("citation.cited_paper.arxiv_id")
        if citation["cited_paper"]["title"] and observation["resolution"]["status"] in LINKING_STATES:
            fields.add("citation.cited_paper.title")
    if notice["state"] != "measured":
        fields.add("standing_notice.reason")
    for receipt in notice["source_receipts"]:
        fields.add(f"standing_notice.source_receipts[{receipt['source']}].source")
    for event in notice["events"]:
        at = f"standing_notice.events[{event['source']}:{event['source_record_id']}]"
        fields |= {f"{at}.event_type", f"{at}.source"}
        fields |= {f"{at}.{k}" for k in ("occurred_on", "notice_doi") if event[k] is not None}
    return fields


def json_and_page(client, arxiv_id: str, query: str = ""):
    """The record's JSON and page responses, asked for within one minute: a live record is as of the
    minute it is asked for, so a pair asked across a minute's turn is asked for again."""
    for _ in range(3):
        json_response = client.get(f"/paper/{arxiv_id}/citation-record.json{query}")
        page = client.get(f"/paper/{arxiv_id}/citation-record{query}")
        again = client.get(f"/paper/{arxiv_id}/citation-record.json{query}")
        if json_response.status_code != 200 or json_response.json()["as_of"] == again.json()["as_of"]:
            break
    return json_response, page


def assert_page_agrees_with_json(client, arxiv_id: str, query: str = "") -> dict:
    json_response, page = json_and_page(client, arxiv_id, query)
    assert json_response.status_code == page.status_code == 200
    record = json_response.json()
    html = page.content.decode()
    assert json_response["ETag"].replace('"', "&quot;") in html      # the page names the JSON's ETag
    compare(record, html)
    return record


def compare(record: dict, html: str) -> None:
    """Every data-field of the page against the JSON, and every field the page must show present."""
    parsed = RecordPage(html)

    observations = {o["observation_id"]: (direction, o) for direction in ("outbound", "inbound")
                    for o in record[direction]}
    record_values = dict(_leaves({k: v for k, v in record.items() if k not in ("outbound", "inbound")}))
    values = {None: record_values} | {oid: dict(_leaves(o)) for oid, (_, o) in observations.items()}

    seen: dict[str | None, set[str]] = {}
    for element in parsed.shown:
        assert element.row in values, f"a row for observation {element.row}, which the JSON does not have"
        assert element.field in values[element.row], f"{element.field}: no such field in the JSON"
        context = {"observation": observations[element.row][1] if element.row else None}
        check_shown(element, values[element.row][element.field], context)
        seen.setdefault(element.row, set()).add(element.field)

    missing = shown_fields(record, None, None) - seen.get(None, set())
    assert not missing, f"the record page does not show {sorted(missing)}"
    for oid, (direction, observation) in observations.items():
        missing = shown_fields(record, observation, direction) - seen.get(oid, set())
        assert not missing, f"row {oid} does not show {sorted(missing)}"
        # A curated value is marked, and links its audit entry, exactly when the JSON says so.
        curated = (observation["citation"]["cited_work"]["metadata_source"] == "curation"
                   or observation["standing_notice"]["reason"] == "not_a_scholarly_work")
        audit_links = [href for href in parsed.links.get(oid, []) if href.startswith("/curation/overrides/")]
        assert bool(audit_links) == curated, f"row {oid}: audit links {audit_links}, curated {curated}"
    assert len([row for row in seen if row]) == len(observations)


@pytest.mark.parametrize("arxiv_id", ["2509.11076", "2509.23722"])
def test_the_seed_record_pages_agree_with_their_json(seeds, client, arxiv_id):
    record = assert_page_agrees_with_json(client, arxiv_id)
    assert record["outbound"]


@pytest.mark.parametrize("seed", [SEED_000, SEED_004], ids=["000", "004"])
def test_the_seeds_as_of_their_own_time_agree_too(seeds, client, seed):
    exported = json.loads(seed.read_bytes())
    record = assert_page_agrees_with_json(client, exported["paper"]["arxiv_id"], f"?as_of={exported['as_of']}")
    assert record == exported


@pytest.fixture
def curated_and_resolved(seeds):
    """Seed 000 with a curator's title on reference 5, and reference 54 resolved to a work that
    Crossref says was retracted (so the row shows a link, a DOI, a checked notice and its event)."""
    now = timezone.now()
    curator = User.objects.create_user("ada", password="pw-ada-123456", is_staff=True)
    curator.groups.add(curators_group())
    access_date = PaperReference.objects.get(extraction__paper_version__paper__arxiv_id="2509.11076",
                                             reference_index=5)
    apply_override(reference_id=access_date.pk, field="title", value="NVIDIA Megatron-LM",
                   reason="The URL names the software", curator=curator, expected_revision=revision_of(access_date.pk))
    megatron = PaperReference.objects.get(extraction__paper_version__paper__arxiv_id="2509.11076",
                                          reference_index=54)
    work = CitedWork.objects.create(doi="10.5555/megatron", title="Megatron-LM: Training Multi-Billion Parameter "
                                    "Language Models Using Model Parallelism", year=2019, venue="arXiv",
                                    metadata_source="crossref", snapshot_observed_at=now)
    link = PaperReferenceLink.objects.create(reference=megatron, state="verified_exact", resolver_source="doi",
                                             cited_paper=Paper.objects.get(arxiv_id="1909.08053"), cited_work=work,
                                             observed_at=now)
    links_written([link.pk])
    event = ScholarlyWorkEvent.objects.create(source="crossref", source_record_id="R1", event_type="retraction",
                                              subject_doi=work.doi, notice_doi="10.5555/megatron.retraction",
                                              occurred_on=date(2025, 3, 1), observed_at=now)
    receipt = RetractionStatusReceipt.objects.create(work=work, source="crossref", observed_at=now)
    ReceiptEvent.objects.create(receipt=receipt, event=event)
    records_changed(arxiv_ids=["2509.11076"])
    return access_date, megatron


def test_a_curated_and_resolved_record_page_agrees_with_its_json(curated_and_resolved, client):
    access_date, megatron = curated_and_resolved
    record = assert_page_agrees_with_json(client, "2509.11076")
    by_id = {o["observation_id"]: o for o in record["outbound"]}
    curated, resolved = by_id[str(access_date.pk)], by_id[str(megatron.pk)]
    assert curated["citation"]["cited_work"]["metadata_source"] == "curation"
    assert resolved["resolution"]["status"] == "verified_exact"
    assert [e["event_type"] for e in resolved["standing_notice"]["events"]] == ["retraction"]


@pytest.mark.parametrize("change", [
    ('data-value="verified_exact">Verified by identifier', 'data-value="verified_exact">Unresolved'),  # another state's words
    ('data-field="thesis">As of', 'data-field="thesis">Until'),          # another value
    ('data-field="citation.cited_work.year"', 'data-x="year"'),          # a field no longer marked
    ('data-field="resolution.observed_at"><time datetime="2026', 'data-field="resolution.observed_at"><time datetime="2025'),
], ids=["state", "thesis", "unmarked", "time"])
def test_a_page_that_drops_or_changes_a_value_fails_the_comparison(seeds, client, change):
    json_response, page = json_and_page(client, "2509.23722")
    record, html = json_response.json(), page.content.decode()
    compare(record, html)
    assert change[0] in html
    with pytest.raises(AssertionError):
        compare(record, html.replace(change[0], change[1], 1))
