"""In Chromium at 1280 and 390 px (issue 31, items 9 and 10): a curator empties the "No title parsed"
queue from its references' pages, by "checked, correct", by a link to a DOI the store does not hold
yet and by a corrected reference number, staying in the queue (its filter and a "next" link) after
each Save and Withdraw; a conflict says its sentence once; no page is wider than the window."""
import pytest
from django.contrib.auth.models import User

from citations.models import Override, PaperReference
from curation.groups import curators_group
from curation.services import apply_override, revision_of
from tests.factories import make_paper, make_references

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

from tests.conftest import CURATOR_LOGIN, log_in, save_screenshot, submit_override


@pytest.fixture
def untitled(transactional_db):
    """Three unresolved references with no title parsed, at the head of the queue."""
    user = User.objects.create_user(CURATOR_LOGIN[0], password=CURATOR_LOGIN[1], is_staff=True)
    user.groups.add(curators_group())
    User.objects.create_user("grace", password="pw-grace-123456", is_staff=True).groups.add(curators_group())
    return make_references(make_paper("2501.00007"), 3, titled=False)


def fits(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 390])
def test_a_curator_empties_the_no_title_queue_and_stays_in_it(browser, untitled, live_server, width):
    base = live_server.url
    page = browser.new_page(viewport={"width": width, "height": 900})
    log_in(page, base)

    page.goto(f"{base}/admin/citations/paperreference/?queue=no_title")
    expect(page.locator("#chosen")).to_contain_text("Waiting in “No title parsed”: 3")
    fits(page, width)
    save_screenshot(page, f"queue-1-list-{width}")
    page.click("#result_list a:text-is('[1]')")
    expect(page.locator("#queue-progress")).to_contain_text("Waiting in the queue")
    fits(page, width)

    # 1. Checked, read correctly: it leaves the queue, and the page says so with the next one.
    page.fill("#checked-reason", "The PDF prints no title: a bare author-year reference")
    page.click("#checked-form input[type=submit]")
    expect(page.locator(".messagelist")).to_contain_text("Saved: arXiv:2501.00007 [1] marked checked, read correctly (audit entry #")
    expect(page.locator("#queue-progress")).to_contain_text("Decided: it has left the queue")
    expect(page.locator("#queue-progress")).to_contain_text("2 waiting")
    assert "_changelist_filters=queue%3Dno_title" in page.url
    fits(page, width)
    save_screenshot(page, f"queue-2-checked-{width}")

    # 2. Next: a link to a DOI the store does not hold yet.
    page.click("#queue-next")
    expect(page.locator("#content h2").first).to_contain_text("[2]")
    submit_override(page, "link", "https://doi.org/10.5555/later.2", "The DOI the reference prints")
    expect(page.locator(".messagelist")).to_contain_text("Saved: link of arXiv:2501.00007 [2]")
    expect(page.locator("#queue-progress")).to_contain_text("1 waiting")
    assert "_changelist_filters=queue%3Dno_title" in page.url

    # 3. Next: a corrected reference number, with a no-op refused first.
    page.click("#queue-next")
    submit_override(page, "index", "3", "As printed")
    expect(page.locator(".messagelist")).to_contain_text(
        "Not saved (arXiv:2501.00007 [3]): the reference number is already 3; an override must change it.")
    submit_override(page, "index", "13", "The PDF prints [13]")
    expect(page.locator(".messagelist")).to_contain_text("Saved: reference number of arXiv:2501.00007 [3]")
    # Its title is still unparsed: it waits until that is decided too.
    expect(page.locator("#queue-progress")).to_contain_text("Waiting in the queue")
    page.fill("#checked-reason", "No title printed: the rest is right")
    page.click("#checked-form input[type=submit]")
    expect(page.locator("#queue-progress")).to_contain_text("0 waiting · none left")
    save_screenshot(page, f"queue-3-emptied-{width}")

    # Withdraw: the reference waits again, the curator is still in the queue.
    withdraw = page.locator(".withdraw-form", has_text="checked")
    withdraw.locator("input[name=reason]").fill("Misread the PDF")
    withdraw.locator("input[type=submit]").click()
    expect(page.locator(".messagelist")).to_contain_text("Withdrawn from arXiv:2501.00007 [3]")
    expect(page.locator("#queue-progress")).to_contain_text("Waiting in the queue")
    assert "_changelist_filters=queue%3Dno_title" in page.url
    page.click("#queue-list")
    expect(page.locator("#chosen")).to_contain_text("Waiting in “No title parsed”: 1")

    # A conflict: another curator changes the reference meanwhile; its sentence is said once.
    page.goto(f"{base}/admin/citations/paperreference/?queue=no_title")
    page.click("#result_list a:text-is('[3]')")
    reference = PaperReference.objects.get(pk=untitled[2].pk)
    apply_override(reference_id=reference.pk, field="year", value="2023", reason="Printed 2023",
                   curator=User.objects.get(username="grace"), expected_revision=revision_of(reference.pk))
    page.fill("#checked-reason", "Looks right")
    page.click("#checked-form input[type=submit]")
    message = page.locator(".messagelist").inner_text()
    assert message.count("Not saved") == 1 and "grace changed this reference" in message
    fits(page, width)
    save_screenshot(page, f"queue-4-conflict-{width}")
    assert Override.objects.filter(field="checked", action="set").count() == 2      # the conflict wrote none
