"""A reader's look at the references of a record in Chromium, at desktop and phone widths (issue #31,
items 1-4 and 6): what each reference is and the identifiers it prints, the references past the cap and
by state, the standing line on the record, the paper and the list, and a split marked on its rows and
reached from its audit entry. Screenshots go to var/screenshots/."""
import re

import pytest
from django.contrib.auth.models import User

from citations.models import PaperReference
from curation.groups import curators_group
from curation.segmentation import split_reference
from curation.services import revision_of
from tests.conftest import save_screenshot
from tests.pages.test_browser_reader import WIDTHS, demo  # noqa: F401 (a fixture)

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

LONG = "2212.11773"        # 138 references: 38 past the cap; [94] prints arXiv:2212.02382 and is unresolved
PAPER = "2212.11808"


def _split_in_demo():
    """A curator splits 2212.11808 [4] before its venue (not a real cut, but one the page must show)."""
    curator = User.objects.create_user("ada", password="pw-ada-123456", is_staff=True)
    curator.groups.add(curators_group())
    reference = PaperReference.objects.get(extraction__paper_version__paper__arxiv_id=PAPER, reference_index=4,
                                           current__isnull=False)
    return split_reference(reference_id=reference.pk, before="Science, 236", reason="A test of the mark",
                           curator=curator, expected_revision=revision_of(reference.pk))


@pytest.mark.browser
@pytest.mark.parametrize("device", WIDTHS)
def test_a_reader_sees_every_reference_and_what_it_is(browser, demo, live_server, device):  # noqa: F811
    width = WIDTHS[device]
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(f"{live_server.url}/paper/{LONG}/citation-record")

    # 4. The standing line first; 1. no row without words; 2. the printed arXiv id, linked.
    expect(page.locator("#standing-line")).to_contain_text("none of 100 checked · 100 could not be checked")
    expect(page.locator("main")).not_to_contain_text("(no title parsed)")
    row = page.locator("tr", has=page.locator("td[data-value='94']"))
    expect(row).to_contain_text("On detailed balance in nonadiabatic dynamics")
    expect(row.locator("a[data-printed-id='2212.02382']")).to_have_attribute("href", "https://arxiv.org/abs/2212.02382")
    row.scroll_into_view_if_needed()
    save_screenshot(page, f"issue31-record-row-{device}")

    # 3. Past the cap: the next page, then one state.
    expect(page.locator("#past-the-cap")).to_contain_text("/api/v1/observations/?citing_paper=2212.11773")
    page.click("nav.pages a[rel=next]")
    expect(page.locator("main")).to_contain_text("References 101 to 138 of the 138 (page 2 of 2)")
    expect(page.locator("td[data-value='138']")).to_have_count(1)
    save_screenshot(page, f"issue31-record-page-2-{device}")
    state = page.locator("nav.states a:text('Parse uncertain')")
    shown = int(re.search(r"\((\d+)\)", state.inner_text()).group(1))        # as many as the filter says
    assert shown >= 1
    state.click()
    expect(page.locator("tbody tr[id^=obs-]")).to_have_count(shown)
    expect(page.locator("nav.states strong")).to_contain_text(f"Parse uncertain ({shown})")

    # The integrity page accounts for all 138.
    page.goto(f"{live_server.url}/paper/{LONG}/integrity")
    expect(page.locator("main")).to_contain_text("Of the 138 references this paper lists")
    expect(page.locator("main")).to_contain_text("the other 38 are past the record's cap of 100")
    expect(page.locator("main a:text-is('Ref. 1')")).to_have_count(1)
    expect(page.locator("main")).not_to_contain_text("found for the checked works")

    # 4. The paper page and the list say the same line.
    page.goto(f"{live_server.url}/paper/{LONG}")
    expect(page.locator("#standing-line")).to_contain_text("none of 100 checked")
    page.goto(f"{live_server.url}/search?q={LONG}")
    expect(page.locator("main .standing-line")).to_contain_text("None of 138 checked · 138 could not be checked")
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.browser
@pytest.mark.parametrize("device", WIDTHS)
def test_a_split_is_marked_on_its_rows_and_its_audit_entry_leads_there(browser, demo, live_server, device):  # noqa: F811
    width = WIDTHS[device]
    entry = _split_in_demo()
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(f"{live_server.url}/curation/overrides/{entry.pk}")
    page.click("main a:text('[4] of arXiv:2212.11808')")

    # The entry names the reference as it was; its link lands on the first part, now under a new id.
    first, second = entry.parts
    expect(page).to_have_url(f"{live_server.url}/paper/{PAPER}/citation-record#obs-{first.pk}")
    marks = page.locator("a.correction")
    expect(marks).to_have_count(2)
    expect(marks.first).to_have_text("Made by a curator's split")
    expect(page.locator(f"#obs-{second.pk}")).to_contain_text("Science, 236:992–997, 1987.")
    page.locator(f"#obs-{first.pk}").scroll_into_view_if_needed()
    save_screenshot(page, f"issue31-split-{device}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
