"""The reader's path in a real browser (Debian's Chromium through Playwright) on the demo data, and
every public page at phone and desktop widths: it must fit the viewport, with no sideways scroll.
Each page is saved under var/screenshots/ for a reviewer to look at."""

import pytest
from django.core.management import call_command

from citations.demo import UNARXIVE, demo_data_dir
from tests.conftest import save_screenshot

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

PAPER = "2212.11808"           # a real unarXive paper: 47 references, [38] verified to arXiv:2005.14165
SEED = "2509.11076"            # seed 000, with the demo's curated year on [54]
WIDTHS = {"desktop": 1280, "phone": 390}


@pytest.fixture
def demo(transactional_db):
    if not (demo_data_dir() / UNARXIVE).is_dir():
        pytest.skip(f"{demo_data_dir()} does not hold the shared data sets")
    call_command("load_demo", stdout=open("/dev/null", "w"))


# Public routes that are not HTML pages for people: the layout test need not visit them.
NOT_PAGES = {"citations:record-json", "citations:record-schema", "citations:dump-file", "citations:None",
             "curation:old-audit-trail-address",       # a redirect to the admin
             "citations:reference",                    # a redirect to the reference's row
             "citations:references-bib", "citations:references-csl", "citations:reference-bib",
             "citations:reference-csl",                 # BibTeX and CSL-JSON
             # Signatures, keys and the log: JSON and bytes for verifiers (tests/signing, tests/transparency).
             "citations:record-signature", "citations:record-proofs", "citations:public-keys",
             "citations:log-checkpoint", "citations:log-tile"}


def public_pages() -> dict[str, str]:
    from citations.models import Override

    entry = Override.objects.order_by("pk").first()
    return {
        "home": "/",
        "search": "/search?q=mutation+text+generation",
        "search-none": "/search?q=nothing+matches+this+zzzq",
        "paper": f"/paper/{PAPER}",
        "record": f"/paper/{PAPER}/citation-record",
        "record-seed": f"/paper/{SEED}/citation-record",
        "record-as-of": f"/paper/{SEED}/citation-record?as_of=2026-08-08T11:07:00Z",
        "record-past-the-cap": "/paper/2212.11773/citation-record?page=2",
        "record-one-state": f"/paper/{SEED}/citation-record?state=verified_exact",
        "integrity": f"/paper/{PAPER}/integrity",
        "history": f"/paper/{SEED}/history",
        "history-compare": f"/paper/{SEED}/history?from=2026-08-08T11:07:00Z",
        "evidence": "/evidence",
        "overrides": "/curation/overrides/",
        "overrides-paper": f"/curation/overrides/?paper={SEED}",
        "override-entry": f"/curation/overrides/{entry.pk}",
        "not-found": "/paper/2401.99999",
        "bad-request": f"/paper/{PAPER}/citation-record?as_of=yesterday",
    }


@pytest.mark.browser
def test_a_reader_finds_a_paper_reads_its_record_checks_it_and_sees_its_history(browser, demo, live_server):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(live_server.url + "/")
    expect(page.locator("main")).to_contain_text("A Mutation-based Text Generation")

    page.fill("form.search input[name=q]", "mutation-based text generation")
    page.press("form.search input[name=q]", "Enter")
    expect(page.locator("main")).to_contain_text("1 paper held matches")
    page.click("main a:text('A Mutation-based Text Generation')")

    expect(page.locator("h1")).to_contain_text("A Mutation-based Text Generation")
    expect(page.locator("main")).to_contain_text("Adversarial")             # the abstract, from arXiv's metadata
    page.click("main a:text-is('Read the citation record')")

    row = page.locator("tr", has=page.locator("td[data-value='38']"))
    expect(row).to_contain_text("Verified by title and year")
    expect(row.locator("a[data-field='citation.cited_paper.arxiv_id']")).to_have_text("arXiv:2005.14165")
    page.click("main a:text-is('Check its digests')")

    expect(page.locator("p.holds")).to_contain_text("digests hold")
    page.goto(f"{live_server.url}/paper/{SEED}/citation-record")
    expect(page.locator("span.curated[data-field='citation.cited_work.year']")).to_have_text("2019")
    page.click("header.site a:text-is('History')")

    expect(page.locator("h1")).to_contain_text(f"Versions of the citation record of arXiv:{SEED}")
    page.locator("a:text('Compare with the version before')").first.click()
    expect(page.locator("h1")).to_contain_text("What changed")
    expect(page.locator("main")).to_contain_text("year")                    # the demo's curated year


@pytest.mark.browser
@pytest.mark.parametrize("device", WIDTHS)
def test_every_public_page_fits_the_screen_with_no_sideways_scroll(browser, demo, live_server, device):
    width = WIDTHS[device]
    page = browser.new_page(viewport={"width": width, "height": 900})
    too_wide = {}
    for name, path in public_pages().items():
        response = page.goto(live_server.url + path)
        assert response.status < 500, f"{path}: {response.status}"
        save_screenshot(page, f"{name}-{device}")
        scroll_width = page.evaluate("document.documentElement.scrollWidth")
        if scroll_width > width:
            too_wide[path] = scroll_width
    assert too_wide == {}, f"wider than the {width} px screen: {too_wide}"


def test_the_layout_test_visits_every_public_page(demo):
    """A new public page must be added to public_pages() above, or the phone test would not see it."""
    from django.urls import get_resolver, resolve

    routes = {f"{included.namespace}:{route.name}" for included in get_resolver().url_patterns
              if getattr(included, "namespace", None) in ("citations", "curation") for route in included.url_patterns}
    visited = {resolve(path.split("?")[0]).view_name for path in public_pages().values()
               if not path.startswith("/paper/2401.99999")}
    assert visited == routes - NOT_PAGES
