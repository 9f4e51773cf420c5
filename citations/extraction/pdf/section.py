"""Where the reference list is among the lines: its heading, and where it ends."""
import re
import statistics

from citations.extraction.pdf.model import Line

_SECTION_NAMES = (
    r"references|bibliography|literature|literature\s+cited|works\s+cited|literatur|literaturverzeichnis|"
    r"r[ée]f[ée]rences(?:\s+bibliographiques)?|referencias|bibliograf[íi]a|riferimenti(?:\s+bibliografici)?|"
    r"список\s+литературы"
)
_NUMBERING = r"(?:(?:\d{1,2}|[IVXLC]{1,5}|[A-Z])\.?\s*)"
_REFERENCES_HEADING = re.compile(rf"^{_NUMBERING}?(?:{_SECTION_NAMES})(?:\s+\d{{1,2}})?\s*[.:]?$", re.IGNORECASE)
_APPENDIX_WORD = re.compile(
    r"^(?:appendix|appendices|supplementary|supplemental)\b"
    r"(?:\s+(?:[A-Z0-9]{1,3}|materials?|information))?\s*[.:]?$", re.IGNORECASE)
_APPENDIX_HEADING = re.compile(
    r"^(?:(?:appendix|appendices|supplementary\s+(?:materials?|information)|supplemental\s+materials?)\b|"
    r"[A-Z](?:\.\d+)*\.?\s+[A-Z][a-z])", re.IGNORECASE)


def _is_references_heading(text: str) -> bool:
    text = " ".join(text.split())
    # Small capitals come out letter-spaced: "R EFERENCES".
    return bool(_REFERENCES_HEADING.match(text) or _REFERENCES_HEADING.match(text.replace(" ", "")))


def reference_region(lines: list[Line]) -> tuple[str | None, list[Line]]:
    """The last references heading and the lines after it up to an appendix heading."""
    start = next((i for i in range(len(lines) - 1, -1, -1) if _is_references_heading(lines[i].text)), None)
    if start is None:
        return None, []
    region = lines[start + 1:]
    if not region:
        return lines[start].text.strip(), []
    usual = statistics.median(ln.size for ln in region)
    for i, line in enumerate(region):
        text = line.text.strip()
        # A line "A  Proof of ..." may as well begin a reference ("A. Smith"): a heading stands out.
        stands_out = line.bold or line.size > 1.1 * usual
        if _APPENDIX_WORD.match(text) or (stands_out and _APPENDIX_HEADING.match(text)):
            region = region[:i]
            break
    return " ".join(lines[start].text.split()), region
