"""One reference string from bibliography fields (format_reference), for the biblatex .bbl records
and the .bib entries alike."""
import re

from citations.extraction.latex_text import latex_to_text, verbatim

_ID_FIELDS = ("doi", "url", "eprint")
_TEXT_FIELDS = ("title", "subtitle", "journal", "booktitle", "howpublished", "volume", "number",
                "pages", "publisher", "institution", "school", "organization", "year", "date",
                "eprinttype", "archiveprefix")
_ARXIV_ID = re.compile(r"^(\d{4}\.\d{4,5}|[a-z\-]+(\.[A-Z]{2})?/\d{7})(v\d+)?$")


def format_reference(*, names: list[str], fields: dict[str, str], et_al: bool = False) -> str:
    """Authors. Title. Venue, volume(number), pages, publisher, year. arXiv:id doi:..."""
    text = {k: latex_to_text(fields[k]) for k in _TEXT_FIELDS if fields.get(k, "").strip()}
    ids = {k: verbatim(fields[k]) for k in _ID_FIELDS if fields.get(k, "").strip()}
    authors = _join_names([latex_to_text(n) for n in names], et_al)
    title = text.get("title", "")
    if text.get("subtitle"):
        title = f"{title}: {text['subtitle']}"
    venue = text.get("journal") or (f"In {text['booktitle']}" if text.get("booktitle") else "") \
        or text.get("howpublished", "")
    volume = text.get("volume", "")
    if text.get("number"):
        volume = f"{volume}({text['number']})" if volume else f"no. {text['number']}"
    publisher = "" if text.get("journal") else (
        text.get("publisher") or text.get("institution") or text.get("school")
        or text.get("organization", ""))
    year = text.get("year") or text.get("date", "")[:4]
    container = ", ".join(p for p in (venue, volume, text.get("pages", ""), publisher, year) if p)
    sentences = [s if s.endswith((".", "?", "!")) else s + "."
                 for s in (authors, title, container) if s]
    eprint = ids.get("eprint", "")
    kind = (text.get("eprinttype") or text.get("archiveprefix") or "").lower()
    if eprint and (kind == "arxiv" or _ARXIV_ID.match(eprint)):
        sentences.append(f"arXiv:{eprint}")
    if ids.get("doi"):
        sentences.append("doi:" + re.sub(r"^(https?://)?(dx\.)?doi\.org/", "", ids["doi"]))
    elif ids.get("url") and not eprint:
        sentences.append(ids["url"])
    return " ".join(sentences)


def _join_names(names: list[str], et_al: bool) -> str:
    if et_al:
        return ", ".join(names) + " et al." if names else ""
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + ", and " + names[-1]
