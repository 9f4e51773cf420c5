"""A document's pages, each its size and its words, read as often as the layout needs.

The layout decides what a page's margins hold only after seeing every page (a running header is
a line repeated on many pages; a draft's line numbers stand where other pages have theirs), so it
reads the pages more than once. A paper's pages are held as words (with the lines of JSON the
child sent); past HELD_BYTES of those lines every page is kept only as its line, in a temporary
file, and decoded each time it is read: a long document's words are Python objects one page at a
time.
"""
import json
import tempfile
from collections.abc import Callable, Iterator

from citations.extraction.pdf.model import PageSize, TextWord

HELD_BYTES = 2 * 1024 * 1024

Page = tuple[int, PageSize, list[TextWord]]


def page_line(size: PageSize, words: list[TextWord]) -> bytes:
    """One page as the child writes it: a line of JSON (not pickle: the child has read untrusted
    input), which gives back every float and string exactly."""
    page = {"size": [size.width, size.height],
            "words": [[w.x0, w.x1, w.bottom, w.top, w.text, w.size, w.bold] for w in words]}
    return json.dumps(page).encode() + b"\n"


def _page(number: int, line: bytes) -> Page:
    page = json.loads(line)
    return number, PageSize(*page["size"]), [TextWord(number, *word) for word in page["words"]]


class PageStore:
    """Pages added one line of JSON at a time; iterating yields (number, size, words) from page 1."""

    def __init__(self, on_page: Callable[[Page], None] | None = None):
        self._on_page = on_page
        self._held: list[Page] | None = []
        self._held_lines: list[bytes] = []        # the same pages as sent, should they go to the file
        self._held_bytes = 0
        self._file = None
        self.count = 0

    def add(self, line: bytes) -> None:
        """A page, the next one; on_page (if given) sees it at once, while the child reads on."""
        self.count += 1
        page = _page(self.count, line) if self._held is not None or self._on_page else None
        if self._on_page:
            self._on_page(page)
        if self._held is None:
            self._file.write(line)
            return
        self._held.append(page)
        self._held_lines.append(line)
        self._held_bytes += len(line)
        if self._held_bytes > HELD_BYTES:
            self._file = tempfile.TemporaryFile()
            self._file.writelines(self._held_lines)
            self._held, self._held_lines = None, []

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Page]:
        if self._held is not None:
            yield from self._held
            return
        self._file.seek(0)
        for number, line in enumerate(self._file, start=1):
            yield _page(number, line)
        self._file.seek(0, 2)

    def close(self) -> None:
        self._held, self._held_lines = None, []
        if self._file is not None:
            self._file.close()

    def __enter__(self) -> "PageStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def pages_of(words: list[TextWord], sizes: list[PageSize]) -> list[Page]:
    """Words of a whole document (any text library's) as its pages."""
    by_page: list[list[TextWord]] = [[] for _ in sizes]
    for word in words:
        by_page[word.page - 1].append(word)
    return [(number, size, page_words) for number, (size, page_words) in enumerate(zip(sizes, by_page), start=1)]
