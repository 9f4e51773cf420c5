"""The labels the tagger assigns, and how the training sets' markup maps onto them.

GROBID's TEI and AnyStyle's XML name the same things differently; both are mapped onto one set
so a model can learn from both. "other" is text between fields (punctuation, "In", "pp.").
"""

FIELD_LABELS = ("author", "editor", "title", "booktitle", "journal", "series", "date", "volume", "issue",
                "pages", "publisher", "place", "note", "doi", "arxiv", "url", "idno")
OTHER = "other"
LABELS = FIELD_LABELS + (OTHER,)
# Labels of identifiers: numbers inside them are no volume, page or year.
IDENTIFIER_LABELS = frozenset({"doi", "arxiv", "url", "idno"})

# Containers: where a title appeared (a journal, the book or proceedings of a chapter, a series).
CONTAINERS = ("journal", "booktitle", "series")
IDENTIFIERS = ("doi", "arxiv", "url", "idno")


def grobid_label(tag: str, attributes: dict, text: str) -> str:
    """The label of one element of a GROBID <bibl> (tag without namespace)."""
    tag = tag.lower()
    kind = (attributes.get("level") or attributes.get("type") or attributes.get("leve") or
            attributes.get("unit") or "").lower()
    if tag == "title":
        return {"a": "title", "m": "booktitle", "j": "journal", "s": "series"}.get(kind, "title")
    if tag in ("author", "authors"):
        return "author"
    if tag == "orgname":
        return "author" if kind == "collaboration" else "note"
    if tag == "biblscope" or tag == "biblstruct" or tag == "page":
        return _scope(kind or tag)
    if tag in ("volumes",):
        return "volume"
    if tag.startswith("publishe"):
        return "publisher"
    if tag == "pubplace":
        return "place"
    if tag == "ptr":
        return "url"
    if tag == "idno":
        if kind.startswith("arxiv") or (not kind and text.strip().lower().startswith("arxiv")):
            return "arxiv"
        return "doi" if kind == "doi" else "idno"
    if tag in ("date", "editor"):
        return tag
    return "note"          # note, notes, and anything rarer


def _scope(kind: str) -> str:
    if kind.startswith("vol"):
        return "volume"
    if kind == "issue":
        return "issue"
    if kind.startswith("p") or kind == "page":
        return "pages"
    if kind == "date":
        return "date"
    return "note"          # chapter, unnamed


_ANYSTYLE = {
    "author": "author", "editor": "editor", "title": "title", "container-title": "booktitle",
    "journal": "journal", "collection-title": "series", "date": "date", "volume": "volume", "pages": "pages",
    "publisher": "publisher", "location": "place", "url": "url", "doi": "doi", "isbn": "idno",
    "citation-number": OTHER,
}


def anystyle_label(tag: str) -> str:
    """The label of one AnyStyle element (note, genre, edition, translator... are notes)."""
    return _ANYSTYLE.get(tag, "note")
