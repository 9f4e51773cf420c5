"""The reader's pages: search, the papers list, the paper page, what the record page says in words."""
import json
import re
from datetime import UTC, datetime, timedelta

import pytest

from citations.models import CurrentResolution, ResolutionState
from citations.pages.search import PAGE_SIZE, parse_query
from tests.conftest import SEED_000
from tests.factories import T0, make_paper, make_references

SEARCH_BOX = '<form class="search" role="search" action="/search" method="get">'


def row_of(page: str, observation_id: str) -> str:
    start = page.index(f'<tr id="obs-{observation_id}">')
    return page[start:page.index("</tr>", start)]


def visible_text(page: str) -> str:
    """What a reader sees without a click: no <details>, no <script>, no attributes."""
    page = re.sub(r"<details>.*?</details>|<script>.*?</script>|<style>.*?</style>", "", page, flags=re.S)
    return re.sub(r"<[^>]*>", " ", page)


@pytest.fixture
def full_paper(db):
    """A paper whose snapshot holds everything arXiv's metadata gives, with a reference list."""
    paper = make_paper("2212.11861", title="Radiative decays of the charmed mesons", latest_version=2,
                       doi="10.1088/1674-1137/ac600c", authors="Jie-Lin Li, Michael F\\\"arber and Dian-Yong Chen",
                       categories="hep-ph hep-ex", journal_ref="Chinese Physics C46, (2022) 073106",
                       version_dates={1: datetime(2022, 12, 22, 16, 52, 9, tzinfo=UTC)})
    make_references(paper, 3)
    make_paper("2301.00001", title="A cited paper")                  # held, with no reference list
    return paper


# 4. The held-paper column

def test_a_candidate_of_an_unresolved_reference_is_not_shown_as_the_cited_paper(seeds, client):
    record = client.get("/paper/2509.11076/citation-record.json").json()
    candidates = [o for o in record["outbound"]
                  if o["citation"]["cited_paper"] and o["resolution"]["status"] == "unresolved"]
    assert len(candidates) == 5            # the seed names weak candidates for 5 unresolved references
    page = client.get("/paper/2509.11076/citation-record").content.decode()
    for observation in candidates:
        row = row_of(page, observation["observation_id"])
        cited = observation["citation"]["cited_paper"]
        assert "None claimed." in row and "A candidate was named, not matched" in row
        assert 'title="A held paper this reference was compared with; it is not claimed as the cited paper"' in row
        assert cited["title"] not in row       # its title would read as the match


def test_a_verified_reference_shows_the_held_paper_it_cites(db, client):
    cited = make_paper("2301.00001", title="The cited one")
    citing = make_paper("2302.00002", title="The citing one")
    (reference,) = make_references(citing, 1, cites=cited, state=ResolutionState.VERIFIED_EXACT,
                                   resolver_source="arxiv_id")
    row = row_of(client.get("/paper/2302.00002/citation-record").content.decode(), str(reference.pk))
    assert re.search(r'<a href="/paper/2301.00001"[^>]*>arXiv:2301.00001</a>', row) and "The cited one" in row
    assert "candidate" not in row
    assert "Decided by the arXiv id it prints" in row


# 5. Search, and the home page

@pytest.mark.parametrize("text, kind, value", [
    ("2509.11076", "arxiv_id", "2509.11076"),
    ("arXiv:2509.11076v2", "arxiv_id", "2509.11076"),
    ("https://arxiv.org/abs/hep-th/9901001v1", "arxiv_id", "hep-th/9901001"),
    ("https://arxiv.org/pdf/2509.11076v2.pdf", "arxiv_id", "2509.11076"),
    ("10.48550/arXiv.2509.11076", "arxiv_id", "2509.11076"),
    ("doi:10.1088/1674-1137/AC600C", "doi", "10.1088/1674-1137/ac600c"),
    ("https://doi.org/10.1088/1674-1137/ac600c", "doi", "10.1088/1674-1137/ac600c"),
    ("2212.118", "arxiv_prefix", "2212.118"),
    ("2513.00001", "words", ""),               # month 13: no id, so words
    ("   ", "empty", ""),
])
def test_a_search_reads_ids_dois_and_words(text, kind, value):
    query = parse_query(text)
    assert (query.kind, query.value) == (kind, value)


def test_search_words_must_all_appear_in_the_title_or_the_authors():
    assert parse_query("  swap   memory swap ").words == ("swap", "memory")


@pytest.mark.parametrize("q", ["2212.11861", "arXiv:2212.11861v1", "radiative CHARMED", "Dian-Yong",
                               "10.1088/1674-1137/ac600c", "2212.118"])
def test_search_finds_a_paper_by_id_title_author_or_doi(full_paper, client, q):
    page = client.get("/search", {"q": q}).content.decode()
    assert "1 paper held matches" in page
    assert '<a href="/paper/2212.11861">Radiative decays of the charmed mesons</a>' in page
    assert f'value="{q}"' in page               # the box keeps what was asked


def test_search_says_when_nothing_matches(full_paper, client):
    page = client.get("/search", {"q": "gravitational lensing"}).content.decode()
    assert "No paper held matches titles or authors containing" in page


def test_search_refuses_what_it_cannot_run_with_a_sentence(db, client):
    response = client.get("/search", {"q": "x" * 201})
    assert response.status_code == 400
    assert "a search is at most 200 characters; this one has 201" in response.content.decode()
    assert client.get("/search?q=a&q=b").status_code == 400
    assert client.get("/search", {"q": "a", "page": "two"}).status_code == 400
    assert client.get("/", {"page": "9" * 5000}).status_code == 400


@pytest.mark.parametrize("path", ["/", "/search", "/evidence", "/paper/2509.11076", "/paper/2509.11076/citation-record",
                                  "/paper/2509.11076/integrity", "/nowhere"])
def test_every_page_has_the_search_box(seeds, client, path):
    assert SEARCH_BOX in client.get(path).content.decode()


def test_home_lists_titles_dates_and_state_counts(full_paper, seeds, client):
    page = client.get("/").content.decode()
    assert '<a href="/paper/2212.11861">Radiative decays of the charmed mesons</a>' in page
    assert "Jie-Lin Li, Michael Färber, Dian-Yong Chen" in page          # TeX accents decoded
    assert "Submitted 2 Jan 2025" in page and "v2 of 3 Feb 2025" in page
    assert "3 references" in page and "3 unresolved" in page
    # Seed 000: the states of its 62 references, as the current resolutions say.
    states = CurrentResolution.objects.filter(citing_paper__arxiv_id="2509.11076").values_list("state", flat=True)
    assert len(states) == 62 and "62 references" in page and f"{list(states).count('unresolved')} unresolved" in page
    assert "A cited paper" not in page                      # no reference list: not on the home page


def _papers(count: int):
    for n in range(count):
        paper = make_paper(f"2401.{n:05d}", title=f"Paper number {n}")
        make_references(paper, 2)


@pytest.mark.parametrize("count", [1, PAGE_SIZE + 5])
def test_a_page_of_papers_costs_three_statements_whatever_their_number(db, client, count,
                                                                         django_assert_num_queries):
    _papers(count)
    # 1. how many papers have a reference list; 2. the page: each one's newest snapshot, joined to its
    # paper, with its current list's id; 3. the state counts of those lists.
    with django_assert_num_queries(3):
        page = client.get("/").content.decode()
    assert page.count('aria-label="Citation record of arXiv:') == min(count, PAGE_SIZE)
    if count > PAGE_SIZE:
        with django_assert_num_queries(3):
            second = client.get("/", {"page": 2}).content.decode()
        assert "Page 2 of 2" in second and "Paper number 29" in second and "Paper number 0<" not in second
        with django_assert_num_queries(3):
            client.get("/search", {"q": "paper number"})


def test_the_home_page_answers_a_page_past_the_last_with_a_sentence(db, client):
    _papers(1)
    response = client.get("/", {"page": 3})
    assert response.status_code == 400 and "there is no page 3: the last is 1" in response.content.decode()


# 7. Plain words

def test_lanes_say_in_words_what_was_read(seeds, client):
    page = client.get("/paper/2509.11076/citation-record").content.decode()
    lanes = page[page.index("<caption>Four coverage lanes</caption>"):]
    lanes = lanes[:lanes.index("</table>")]
    assert "paper_references" not in lanes and "retraction_status_cache" not in lanes
    assert "This paper&#x27;s reference list, and the newest resolution of each reference" in lanes
    assert "The notices read from the standing sources, and the receipt each check left" in lanes


def test_no_resolver_named_reads_as_not_looked_up_yet(seeds, client):
    page = client.get("/paper/2509.11076/citation-record").content.decode()
    assert "no resolver named" not in page
    assert "Not looked up yet; stored" in page


def test_times_show_to_the_minute_with_the_zone_and_the_exact_value_a_click_away(seeds, client):
    page = client.get("/paper/2509.11076/citation-record").content.decode()
    shown = visible_text(page)
    assert not re.search(r"\d\d:\d\d:\d\d", shown), re.search(r".{40}\d\d:\d\d:\d\d.{20}", shown)
    # The standing sources of seed 000, in both renderings of the record:
    assert ('<time datetime="2026-08-08T06:31:55.24221+00:00" title="2026-08-08T06:31:55.24221+00:00" '
            'tabindex="0">8 Aug 2026, 06:31 UTC</time>') in page
    assert re.search(r'<time datetime="2026-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z" title="[^"]+" tabindex="0">'
                     r"\d{1,2} \w{3} 2026, \d\d:\d\d UTC</time>", page)


def test_a_year_read_as_a_reference_number_is_shown_as_such(seeds, client):
    record = client.get("/paper/2509.23722/citation-record.json").json()
    by_index = {o["citation"]["reference_index"]: o["observation_id"] for o in record["outbound"]}
    page = client.get("/paper/2509.23722/citation-record").content.decode()
    for year in (2020, 2023, 2024, 2025):
        row = row_of(page, by_index[year])
        assert f"Numbered {year} in the record: a year the parser read as the reference's number" in row.replace("&#x27;", "'")
        assert not re.search(rf'<td class="num" data-label="Ref\.[^>]*>{year}</td>', row)
    assert re.search(r'<td class="num" data-label="Ref\.[^>]*>3</td>', page)         # real numbers stay numbers


def test_the_pages_leave_the_json_as_it_is(seeds, client):

    body = client.get("/paper/2509.11076/citation-record.json").content
    seed = json.loads(SEED_000.read_bytes())
    assert json.loads(body)["coverage"] == seed["coverage"]


# 9. The paper page

def test_paper_page_shows_what_the_snapshot_and_versions_store(full_paper, client):
    page = client.get("/paper/2212.11861").content.decode()
    assert "Jie-Lin Li, Michael Färber, Dian-Yong Chen" in page
    assert "cs.DC (primary), hep-ph, hep-ex" in page
    assert '<a href="https://doi.org/10.1088/1674-1137/ac600c">' in page
    assert "Chinese Physics C46, (2022) 073106" in page
    assert 'href="https://arxiv.org/abs/2212.11861"' in page and 'href="https://arxiv.org/pdf/2212.11861"' in page
    assert "received by arXiv <time" in page and "22 Dec 2022, 16:52 UTC" in page     # v1's date
    assert 'href="https://arxiv.org/abs/2212.11861v2">v2</a>: <span class="muted">date not recorded' in page
    assert "Abstract</dt><dd><span class=\"muted\">Not in the metadata Pith holds;" in page   # this snapshot has none
    assert "3 listed references of this paper (of 3), by state" in page
    assert "Citations from papers held here: none." in page


def test_paper_page_says_not_recorded_and_never_unknown(full_paper, client):
    # A newer snapshot without them (snapshots are observations: a revision is a new one).
    make_paper("2212.11861", title="Radiative decays of the charmed mesons", latest_version=2, observed_at=T0 + timedelta(hours=1),
               primary_category=None, doi=None, journal_ref=None, authors="", categories="hep-ph hep-ex")
    page = client.get("/paper/2212.11861").content.decode()
    assert "unknown" not in page.lower()
    assert "<dt>Categories</dt><dd>hep-ph, hep-ex</dd>" in page            # categories stored, no primary
    assert page.count("Not recorded</span>") == 3                       # authors, DOI, journal reference


def test_paper_page_counts_citations_by_state(seeds, client):
    page = client.get("/paper/2509.23722").content.decode()
    assert 'Citations from papers held here: 4: 4 <span class="state state-verified_exact">verified by identifier</span>' in page


# 10. Coverage lanes read with the rows

def test_the_standing_lane_says_what_it_counts(seeds, client):
    page = client.get("/paper/2509.11076/citation-record").content.decode()
    assert ("Each of the 62 listed references and citations carries a standing notice. None was looked up in the "
            "standing sources, because no canonical work is linked, so there was nothing to look up. "
            "The lane counts notices stated, not works looked up.") in page
    assert page.count("Not checked: no canonical work linked.") == 62
    assert "It counts references given a state, not references matched." in page


def test_lanes_count_looked_up_and_not_looked_up_apart(seeds, client):
    page = client.get("/paper/2509.23722/citation-record").content.decode()
    assert ("Each of the 72 listed references and citations carries a standing notice. 4 were looked up in the "
            "standing sources; 68 were not, because no canonical work is linked") in page
    assert "All 4 citations from papers held here" in page
