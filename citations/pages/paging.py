"""Numbered pages of the HTML lists (home, search, the public audit list): a page number that is not
one of the list's pages is refused with a sentence, never answered with another page or a 500."""
from django.core.paginator import Page, Paginator


class BadPage(ValueError):
    """The page asked for is not a page of the list; the message says why."""


def page_of(items, number: str, per_page: int) -> tuple[Page | None, int]:
    """(the page, the number of items in the list); None for the page of an empty list."""
    if not (number.isascii() and number.isdigit() and len(number) <= 9 and int(number) >= 1):
        raise BadPage(f"page must be a whole number from 1; {number[:20]!r} is not")
    paginator = Paginator(items, per_page)
    if paginator.count and int(number) > paginator.num_pages:
        raise BadPage(f"there is no page {number}: the last is {paginator.num_pages}")
    return (paginator.page(int(number)) if paginator.count else None), paginator.count
