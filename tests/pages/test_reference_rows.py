"""What a reader sees of each reference (issue #31, items 1-8): its own words, the identifiers it prints,
every reference past the record's cap, the standing line, plain words, splits and joins marked, the
paper's other addresses, and the references as BibTeX and CSL-JSON."""
import json
import re
from datetime import timedelta

import pytest
from pybtex.database import parse_string

from citations.models import PaperReference, PaperReferenceLink
from citations.records.build import build_record
from citations.records.rows import NOTHING_READ, printed_identifiers
from citations.resolution.links import write_links
from citations.sources.reference_lists import ReferenceList, ingest_reference_list
from curation.segmentation import join_with_next, split_reference
from curation.services import revision_of
from tests.factories import make_paper, make_references
from tests.pages.test_html_json_agree import compare, curated_and_resolved  # noqa: F401 (a fixture)

SEED = "2509.11076"
LONG = "2601.00002"
CITING = "2601.00001"
ZERO = ("Samyam Rajbhandari, Jeff Rasley, Olatunji Ruwase, and Yuxiong He. ZeRO: Memory optimizations toward "
        "training trillion parameter models. In SC20, pages 1–16, 2020.")
MEGATRON = ("Mohammad Shoeybi, Mostofa Patwary, Raul Puri, Patrick LeGresley, Jared Casper, and Bryan Catanzaro. "
            "Megatron-LM: Training multi-billion parameter language models using model parallelism. "
            "arXiv:1909.08053, 2019.")
GPIPE = "Yanping Huang and Zhifeng Chen. GPipe: Efficient training of giant neural networks. doi:10.5555/gpipe.2019"


def rows_of(html: str) -> list[str]:
    return re.findall(r'<tr id="obs-.*?</tr>', html, flags=re.DOTALL)


@pytest.fixture
def long_list(db):
    """A paper whose list of 130 references runs past the record's cap of 100: 10 of them verified."""
    cited = make_paper("2401.00001")
    paper = make_paper(LONG, title="A paper with a long reference list")
    references = make_references(paper, 130)
    write_links(PaperReferenceLink(reference=r, state="verified_exact", resolver_source="arxiv_id", cited_paper=cited,
                                   observed_at=r.observed_at + timedelta(seconds=1)) for r in references[120:])
    return paper


@pytest.fixture
def extracted(db):
    make_paper("1909.08053", title="Megatron-LM: Training Multi-Billion Parameter Language Models Using Model "
                                   "Parallelism")
    make_paper(CITING)
    _, ids = ingest_reference_list(ReferenceList(CITING, 1, "pdf_text", (
        (1, f"{ZERO} {MEGATRON}"), (2, "Yanping Huang and Zhifeng Chen."), (3, GPIPE))))
    return [PaperReference.objects.get(pk=pk) for pk in ids]


# 1. A row says what the reference is --------------------------------------------------------------


def test_no_row_says_none_or_no_title_parsed(seeds, client):
    html = client.get(f"/paper/{SEED}/citation-record").content.decode()
    rows = rows_of(html)
    assert len(rows) == 62
    assert "(no title parsed)" not in html and ">None<" not in html
    # Seed 000 holds no printed text: a row without a title says what is known of it.
    assert sum("No title or text was recorded; what is known: " in row for row in rows) > 0


def test_a_row_without_a_title_shows_its_printed_text(extracted, client):
    assert extracted[1].title is None                       # the parser reads no title in it
    html = client.get(f"/paper/{CITING}/citation-record").content.decode()
    assert "Yanping Huang and Zhifeng Chen.</span>" in html and NOTHING_READ not in html


# 2. Printed identifiers --------------------------------------------------------------------------------


def test_identifiers_the_reference_prints_are_linked_even_when_unresolved(extracted, client):
    html = client.get(f"/paper/{CITING}/citation-record").content.decode()
    assert '<a href="https://arxiv.org/abs/1909.08053" data-printed-id="1909.08053">arXiv:1909.08053</a>' in html
    assert '<a href="https://doi.org/10.5555/gpipe.2019" data-printed-id="10.5555/gpipe.2019">' in html
    # The JSON is not changed by it: the printed identifiers are the HTML page's (docs/record-v1.md).
    assert "data-printed-id" not in client.get(f"/paper/{CITING}/citation-record.json").content.decode()


def test_an_identifier_that_cannot_exist_is_shown_unlinked():
    ids = printed_identifiers({"identifiers": [{"kind": "arxiv", "value": "4655353", "valid": False,
                                                "problem": "not an arXiv identifier"}]})
    assert [(i.kind, i.value, i.url) for i in ids] == [("arXiv", "4655353", None)]


# 3. Past the cap ---------------------------------------------------------------------------------------


def test_every_reference_past_the_cap_is_on_a_page_and_the_json_keeps_its_cap(long_list, client):
    first = client.get(f"/paper/{LONG}/citation-record").content.decode()
    second = client.get(f"/paper/{LONG}/citation-record", {"page": 2}).content.decode()
    assert len(rows_of(first)) == 100 and len(rows_of(second)) == 30
    indexes = {int(i) for html in (first, second)
               for i in re.findall(r'data-field="citation.reference_index" data-value="(\d+)"', html)}
    assert indexes == set(range(1, 131))
    assert "/api/v1/observations/?citing_paper=2601.00002" in first and 'href="?page=2#outbound"' in first
    assert "References 101 to 130 of the 130 (page 2 of 2)" in second
    assert len(client.get(f"/paper/{LONG}/citation-record.json").json()["outbound"]) == 100


def test_the_references_of_one_state_past_the_cap(long_list, client):
    html = client.get(f"/paper/{LONG}/citation-record", {"state": "verified_exact"}).content.decode()
    assert len(rows_of(html)) == 10 and "Verified by identifier (10)" in html and "Unresolved (120)" in html
    assert client.get(f"/paper/{LONG}/citation-record", {"state": "nonsense"}).status_code == 400
    assert client.get(f"/paper/{LONG}/citation-record", {"page": 3}).status_code == 400


@pytest.mark.parametrize("count", [101, 230])
def test_a_page_past_the_cap_costs_the_same_statements_for_any_length(db, client, count,
                                                                     django_assert_max_num_queries):
    paper = make_paper(LONG)
    make_references(paper, count)
    # The record's six, then the rows of the page, the list's state counts, the standing sources and
    # the rows' receipts (none here), and the throttle's and session's reads.
    with django_assert_max_num_queries(10):
        response = client.get(f"/paper/{LONG}/citation-record", {"page": 2})
    assert response.status_code == 200


def test_the_integrity_page_accounts_for_every_reference(long_list, client):
    html = client.get(f"/paper/{LONG}/integrity").content.decode()
    assert "Of the 130 references this paper lists, 0 were checked" in html
    assert "the other 30 are past the record's cap of 100" in html
    assert "/api/v1/observations/?citing_paper=2601.00002" in html
    assert ">Ref. 1</a>" in html and "outbound[0]" not in html


# 4. The standing line ----------------------------------------------------------------------------------


def test_the_standing_line_never_says_nothing_was_found_when_nothing_was_checked(seeds, client):
    integrity = client.get(f"/paper/{SEED}/integrity").content.decode()
    assert "found for the checked works" not in integrity
    assert "None of the cited works could be checked" in integrity
    record = client.get(f"/paper/{SEED}/citation-record").content.decode()
    assert "none of 62 checked · 62 could not be checked" in record
    assert "none of 62 checked" in client.get(f"/paper/{SEED}").content.decode()


def test_records_pages_and_lists_mark_a_paper_citing_a_retracted_work(curated_and_resolved, client):  # noqa: F811
    record = client.get(f"/paper/{SEED}/citation-record").content.decode()
    assert "1 retracted · 1 of 62 checked · 61 could not be checked" in record
    assert "1 retracted · 1 of 62 checked" in client.get(f"/paper/{SEED}").content.decode()
    for page in (client.get("/").content.decode(), client.get("/search", {"q": SEED}).content.decode()):
        assert "Cites 1 retracted work" in page and "1 retracted · 1 of 62 checked · 61 could not be checked" in page


def test_a_list_with_retractions_costs_three_statements(curated_and_resolved, client,  # noqa: F811
                                                         django_assert_num_queries):
    with django_assert_num_queries(3):
        client.get("/")


# 5. Plain words ----------------------------------------------------------------------------------------


def test_reader_pages_use_plain_words(seeds, client):
    seed_004 = client.get("/paper/2509.23722/citation-record").content.decode()
    assert "according to <span" in seed_004 and "arXiv reference lists" in seed_004
    visible = re.sub(r"<details.*?</details>", "", seed_004, flags=re.DOTALL)     # what the JSON says, one click away
    assert ">arxiv_reference<" not in visible
    assert "inbound Pith citation observations" not in visible
    assert "lists all 68 references of this paper and 4 citations of it from papers held here" in visible
    for path in ("/", f"/paper/{SEED}/history", f"/paper/{SEED}/history?from=2026-08-08T11:07:00Z"):
        assert "manage.py" not in client.get(path).content.decode()


# 6. Splits and joins -----------------------------------------------------------------------------------


def test_rows_a_split_or_join_made_are_marked_and_the_others_are_not(extracted, curator, client):
    split = split_reference(reference_id=extracted[0].pk, before="Mohammad Shoeybi", reason="Two run together",
                            curator=curator, expected_revision=revision_of(extracted[0].pk))
    html = client.get(f"/paper/{CITING}/citation-record").content.decode()
    marked = [row for row in rows_of(html) if "Made by a curator's split" in row]
    assert len(marked) == 2 and all(f'href="/curation/overrides/{split.pk}"' in row for row in marked)
    # A later join elsewhere in the list keeps the split's mark on the rows carried over.
    third = PaperReference.objects.get(extraction=split.result_list, reference_index=3)
    joined = join_with_next(reference_id=third.pk, reason="One cut in two", curator=curator,
                            expected_revision=revision_of(third.pk))
    rows = rows_of(client.get(f"/paper/{CITING}/citation-record").content.decode())
    assert ["split" if "curator's split" in r else "join" if "curator's join" in r else "" for r in rows] \
        == ["split", "split", "join"]
    assert f'href="/curation/overrides/{joined.pk}"' in rows[2]
    compare(client.get(f"/paper/{CITING}/citation-record.json").json(),
            client.get(f"/paper/{CITING}/citation-record").content.decode())


def test_an_audit_entry_leads_to_the_reference_after_a_later_split(extracted, curator, client):
    split = split_reference(reference_id=extracted[0].pk, before="Mohammad Shoeybi", reason="Two run together",
                            curator=curator, expected_revision=revision_of(extracted[0].pk))
    gpipe = PaperReference.objects.get(extraction=split.result_list, reference_index=4)
    # The original reference [3], written before the split, now lives as [4] under another id.
    response = client.get(f"/paper/{CITING}/reference/{extracted[2].pk}")
    assert response.status_code == 302 and response["Location"] == f"/paper/{CITING}/citation-record#obs-{gpipe.pk}"
    entry_page = client.get(f"/curation/overrides/{split.pk}").content.decode()
    assert f'href="/paper/{CITING}/reference/{extracted[0].pk}"' in entry_page
    assert client.get(f"/paper/{SEED}/reference/{extracted[0].pk}").status_code == 404   # another paper's


def test_a_reference_past_the_cap_is_found_on_its_page(long_list, client):
    reference = PaperReference.objects.get(extraction__paper_version__paper=long_list, reference_index=125)
    location = client.get(f"/paper/{LONG}/reference/{reference.pk}")["Location"]
    assert location == f"/paper/{LONG}/citation-record?page=2#obs-{reference.pk}"
    assert f'id="obs-{reference.pk}"' in client.get(location.split("#")[0]).content.decode()


# 8. BibTeX and CSL-JSON --------------------------------------------------------------------------------


def test_a_reference_list_as_bibtex_and_csl_json(extracted, client):
    response = client.get(f"/paper/{CITING}/references.bib")
    assert response["Content-Type"].startswith("application/x-bibtex")
    entries = parse_string(response.content.decode(), "bibtex").entries
    assert list(entries) == ["2601.00001-ref1", "2601.00001-ref2", "2601.00001-ref3"]
    first = entries["2601.00001-ref1"]
    assert first.fields["eprint"] == "1909.08053" and str(first.persons["author"][0]) == "Rajbhandari, Samyam"
    assert entries["2601.00001-ref3"].fields["doi"] == "10.5555/gpipe.2019"

    items = client.get(f"/paper/{CITING}/references.csl.json").json()
    assert [item["id"] for item in items] == list(entries)
    assert items[0]["author"][0] == {"family": "Rajbhandari", "given": "Samyam"}
    assert items[2]["DOI"] == "10.5555/gpipe.2019" and all(item.get("title") or item.get("note") for item in items)


def test_one_reference_past_the_cap_as_bibtex_and_csl_json(long_list, client):
    reference = PaperReference.objects.get(extraction__paper_version__paper=long_list, reference_index=125)
    bib = client.get(f"/paper/{LONG}/reference/{reference.pk}.bib").content.decode()
    assert list(parse_string(bib, "bibtex").entries) == ["2601.00002-ref125"]
    (item,) = json.loads(client.get(f"/paper/{LONG}/reference/{reference.pk}.csl.json").content)
    assert item["id"] == "2601.00002-ref125" and item["title"] == "Work number 124"
    record = build_record(arxiv_id=LONG)
    assert reference.pk not in {o["observation_id"] for o in record.record["outbound"]}
