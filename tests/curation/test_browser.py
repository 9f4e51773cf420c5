"""End to end in a real browser (Debian's Chromium, headless, through Playwright) against a live server:
a curator fixes the seeds' 'Accessed: 2025-06' title and 1909 year, sees the record change, and withdraws."""
import json

import pytest
from django.contrib.auth.models import User

from curation.groups import curators_group

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

from tests.conftest import CURATOR_LOGIN, log_in, save_screenshot, submit_override


@pytest.fixture
def demo(transactional_db, seeds):
    user = User.objects.create_user(CURATOR_LOGIN[0], password=CURATOR_LOGIN[1], is_staff=True)
    user.groups.add(curators_group())


def record_json(page, base):
    page.goto(f"{base}/paper/2509.11076/citation-record.json")
    return json.loads(page.inner_text("body"))


def outbound(record, index):
    return next(o for o in record["outbound"] if o["citation"]["reference_index"] == index)


@pytest.mark.browser
def test_a_curator_overrides_a_title_and_a_year_sees_the_record_change_and_withdraws(browser, demo, live_server):
    base = live_server.url
    page = browser.new_page()
    log_in(page, base)

    # The queue of access-date titles, then reference 5 in it.
    page.goto(f"{base}/admin/citations/paperreference/")
    page.click("text=Curation queues")
    page.click("text=Title is an access date")
    expect(page.locator("#result_list tbody tr")).to_have_count(8)
    save_screenshot(page, "curator-1-queue")
    page.click("#result_list a:text-is('[5]')")
    expect(page.locator("#curation")).to_contain_text("Accessed: 2025-06")
    save_screenshot(page, "curator-2-reference")

    submit_override(page, "title", "NVIDIA Megatron-LM", "The reference's URL names the software")
    expect(page.locator(".messagelist")).to_contain_text("Saved: title of")
    save_screenshot(page, "curator-3-saved")

    # The public record shows it, marked, with a link to the public audit entry.
    page.goto(f"{base}/paper/2509.11076/citation-record")
    expect(page.locator("span.curated", has_text="NVIDIA Megatron-LM")).to_have_count(1)
    page.click("a[title='A curator corrected this title']")
    expect(page.locator("main")).to_contain_text("The reference's URL names the software")
    work = outbound(record_json(page, base), 5)["citation"]["cited_work"]
    assert (work["title"], work["metadata_source"]) == ("NVIDIA Megatron-LM", "curation")

    # The 1909 year of Megatron-LM (reference 54), found in its queue.
    page.goto(f"{base}/admin/citations/paperreference/?queue=arxiv_year")
    page.click("#result_list a:text-is('[54]')")
    submit_override(page, "year", "2019", "1909 was read from arXiv:1909.08053; Megatron-LM is 2019")
    expect(page.locator(".messagelist")).to_contain_text("Saved: year of")
    assert outbound(record_json(page, base), 54)["citation"]["cited_work"]["year"] == 2019

    # The audit trail lists both.
    page.goto(f"{base}/admin/citations/override/")
    expect(page.locator("#changelist")).to_contain_text("2 overrides")

    # Decided, reference 5 has left its queue; the paper's list still reaches it.
    page.goto(f"{base}/admin/citations/paperreference/?queue=access_date")
    expect(page.locator("#result_list tbody tr")).to_have_count(7)
    expect(page.locator("#result_list a:text-is('[5]')")).to_have_count(0)
    save_screenshot(page, "curator-4-queue-after")

    # Withdraw the title: the record shows the observed value again.
    page.goto(f"{base}/admin/citations/paperreference/?paper=2509.11076&q=Accessed")
    page.click("#result_list a:text-is('[5]')")
    page.fill(".withdraw-form input[name=reason]", "Checked again: keep what the PDF says")
    page.click(".withdraw-form input[type=submit]")
    expect(page.locator(".messagelist")).to_contain_text("Withdrawn")
    work = outbound(record_json(page, base), 5)["citation"]["cited_work"]
    assert (work["title"], work["metadata_source"]) == ("Accessed: 2025-06", None)
    page.goto(f"{base}/admin/citations/override/")
    expect(page.locator("#changelist")).to_contain_text("3 overrides")


@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 390])
def test_a_curator_splits_two_references_run_together_and_the_record_shows_both(browser, transactional_db,
                                                                                live_server, width):
    from citations.sources.reference_lists import ReferenceList, ingest_reference_list
    from tests.curation.test_segmentation import CITING, EXTRACTED
    from tests.factories import make_paper

    make_paper(CITING)
    ingest_reference_list(ReferenceList(CITING, 1, "pdf_text", EXTRACTED, pages=(9, 9, 9, 10)))
    user = User.objects.create_user(CURATOR_LOGIN[0], password=CURATOR_LOGIN[1], is_staff=True)
    user.groups.add(curators_group())
    base = live_server.url
    page = browser.new_page(viewport={"width": width, "height": 900})
    log_in(page, base)
    page.goto(f"{base}/admin/citations/paperreference/?q={CITING}")
    page.click("#result_list a:text-is('[3]')")
    expect(page.locator("#raw-text")).to_contain_text("Mohammad Shoeybi")
    assert page.evaluate("document.documentElement.scrollWidth") <= width       # no sideways scroll
    save_screenshot(page, f"segmentation-1-reference-{width}")

    page.fill("#id_before", "Mohammad Shoeybi")
    page.fill("#split-reason", "Two references run together across a column break")
    page.click("#split-form input[type=submit]")
    expect(page.locator(".messagelist")).to_contain_text("split in two, [3] and [4]")
    expect(page.locator("#derived-from")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    save_screenshot(page, f"segmentation-2-split-{width}")

    page.goto(f"{base}/paper/{CITING}/citation-record.json")
    record = json.loads(page.inner_text("body"))
    assert [o["citation"]["reference_index"] for o in record["outbound"]] == [1, 2, 3, 4, 5]
    page.goto(f"{base}/curation/overrides/")
    expect(page.locator("table")).to_contain_text("split in two, the second beginning")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    save_screenshot(page, f"segmentation-3-audit-{width}")
