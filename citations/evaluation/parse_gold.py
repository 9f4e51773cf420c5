"""The data sets with parse gold (GROBID, AnyStyle, refextract): each read into evaluation cases,
and the store of their own gold works that GROBID and AnyStyle are resolved against."""
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from citations.arxiv_ids import ARXIV_DOI_PREFIX
from citations.evaluation.cases import (
    Case,
    comparable_gold_title,
    file_id,
    gold_arxiv,
    gold_doi,
    gold_work_id,
    gold_year,
    printed_ids,
)
from citations.parsing.text import clean_reference_text
from citations.resolution.matching import Candidate

# --- loaders: GROBID and AnyStyle (parse gold) ----------------------------------------------------

def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _text(element: ET.Element) -> str:
    """An element's text as extracted from the PDF: <lb/> is a line break, whitespace is single."""
    parts = [element.text or ""]
    for child in element:
        if _local(child.tag) == "lb":
            parts.append(" ")
        else:
            parts.append(_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _grobid_ids(bibl: ET.Element) -> tuple[set[str], set[str], set[str]]:
    """arXiv ids, DOIs and kinds of malformed ids printed in one <bibl>.

    <idno type="arxiv"|"DOI"> (and untyped <idno> reading "arXiv..."), plus ids inside <ptr> URLs
    (doi.org and /doi/ paths, arxiv.org/abs|pdf): an id read from a printed URL is printed too.
    """
    arxiv, dois, malformed = set(), set(), set()
    for element in bibl.iter():
        tag, kind, text = _local(element.tag), (element.get("type") or "").lower(), _collapse(_text(element))
        doi = gold_doi(text)
        is_arxiv = tag == "idno" and (kind.startswith("arxiv") or (not kind and text.lower().startswith("arxiv")))
        is_doi = tag == "idno" and kind == "doi"
        if tag == "ptr":
            is_arxiv = "arxiv.org" in text.replace(" ", "").lower()
            is_doi = not is_arxiv and doi is not None
        if is_arxiv or (is_doi and doi and doi.startswith(ARXIV_DOI_PREFIX)):
            file_id(gold_arxiv(text), "arxiv", arxiv, malformed)
        elif is_doi:
            file_id(doi, "doi", dois, malformed)
    return arxiv, dois, malformed


def _grobid_title(bibl: ET.Element) -> str | None:
    """The article title (level a), else the monograph title (level m)."""
    for level in ("a", "m"):
        for element in bibl.iter():
            if _local(element.tag) == "title" and element.get("level") == level:
                title = _collapse(_text(element))
                if title:
                    return title
    return None


def _with_self_link(case: Case) -> Case:
    """Parse-gold sets are resolved against a store of their own gold works (see gold_works)."""
    if comparable_gold_title(case.title) and case.year:
        return replace(case, link=frozenset([gold_work_id(case.title, case.year)]))
    return case


def load_grobid(data_dir: Path) -> Iterator[Case]:
    """GROBID citation corpus and evaluation TEI: one case per <bibl>; gold title (<title level a/m>),
    year (<date>), printed arXiv ids and DOIs (complete: every printed one is tagged). Each reference
    text once: corpus/ holds copies of the evaluation files, so the first is kept."""
    folder = data_dir / "grobid-citation-corpus"
    seen: set[str] = set()
    for path in sorted(folder.glob("corpus/*.xml")) + sorted(folder.glob("evaluation/*.xml")):
        root = ET.parse(path).getroot()
        for index, bibl in enumerate(e for e in root.iter() if _local(e.tag) == "bibl"):
            raw = _collapse(_text(bibl))
            if not raw or raw in seen:
                continue
            seen.add(raw)
            dates = [e for e in bibl.iter() if _local(e.tag) == "date"]
            arxiv, dois, malformed = _grobid_ids(bibl)
            yield _with_self_link(Case(
                key=f"{path.parent.name}/{path.name}#{index}", raw=raw, title=_grobid_title(bibl),
                year=next((y for y in (gold_year(_text(d)) for d in dates) if y), None),
                arxiv=printed_ids(arxiv, complete=True), doi=printed_ids(dois, complete=True),
                malformed=frozenset(malformed)))


def load_anystyle(data_dir: Path) -> Iterator[Case]:
    """AnyStyle gold.xml then core.xml, each reference text once (204 appear in both; the first
    is kept). Gold title, year and printed DOIs (<doi>, and doi.org links in <url>); no arXiv gold."""
    seen: set[str] = set()
    for name in ("gold.xml", "core.xml"):
        root = ET.parse(data_dir / "anystyle-parser-gold" / name).getroot()
        for index, sequence in enumerate(root.iter("sequence")):
            raw = " ".join(_collapse(child.text or "") for child in sequence if (child.text or "").strip())
            if not raw or raw in seen:
                continue
            seen.add(raw)
            fields = [(child.tag, _collapse(child.text or "")) for child in sequence]
            dois, malformed = set(), set()
            for tag, text in fields:
                if tag == "doi" or (tag == "url" and "doi" in text.lower() and gold_doi(text)):
                    file_id(gold_doi(text), "doi", dois, malformed)
            yield _with_self_link(Case(
                key=f"{name}#{index}", raw=raw, title=next((t for tag, t in fields if tag == "title" and t), None),
                year=next((y for y in (gold_year(t) for tag, t in fields if tag == "date") if y), None),
                doi=printed_ids(dois, complete=True), malformed=frozenset(malformed)))


def gold_works(cases: list[Case]) -> Iterator[Candidate]:
    """A work per gold title and year of a parse-gold set: a store in which every case with both has
    its target, and every other case of the set is a distractor."""
    for case in cases:
        if case.link:
            (work_id,) = case.link
            yield Candidate(paper_id=None, work_id=work_id, arxiv_id=None,
                            titles=(clean_reference_text(case.title),), years=(case.year,))


# --- loaders: refextract --------------------------------------------------------------------------

def _refextract_expected(case: dict) -> tuple[list[dict], bool]:
    """The expected references of a test case as field dicts, and whether they are refextract's full
    output (True) or a few asserted fields of the first reference (False)."""
    expected = case.get("expected") or []
    if expected and all(isinstance(reference, dict) for reference in expected):
        return expected, True
    asserted: dict[str, list] = {}
    for assertion in case.get("asserted_fields") or []:
        path = assertion["path"]
        if len(path) == 3 and path[0] == "references" and path[1] == 0:
            asserted[path[2]] = assertion["equals"]
    return ([asserted] if asserted else []), False


def load_refextract(data_dir: Path) -> Iterator[Case]:
    """refextract's test inputs with its expected output: gold year and title where the line is one
    reference (or all its references agree), arXiv ids from report numbers and DOIs where the
    expectation lists them (complete: refextract lists every one it expects)."""
    items = json.loads((data_dir / "refextract-test-cases" / "refextract_cases.json").read_text())
    for index, item in enumerate(items):
        raw = item.get("ref_line") or item.get("ref_lines")
        references, full = _refextract_expected(item)
        years = {gold_year(y) for reference in references for y in reference.get("year", [])}
        titles = {t for reference in references for t in reference.get("title", [])}
        arxiv, dois, malformed = set(), set(), set()
        for reference in references:
            for number in reference.get("reportnumber", []):
                if re.match(r"arxiv|\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7}", number, re.I):
                    file_id(gold_arxiv(number), "arxiv", arxiv, malformed)
            for doi in reference.get("doi", []):
                file_id(gold_doi(doi), "doi", dois, malformed)
        knows_arxiv = full or any("reportnumber" in reference for reference in references)
        knows_doi = full or any("doi" in reference for reference in references)
        yield Case(
            key=f"{item['source_file']}::{item['test']}#{index}", raw=raw,
            title=titles.pop() if len(titles) == 1 else None, year=years.pop() if len(years) == 1 else None,
            arxiv=printed_ids(arxiv, complete=True) if knows_arxiv else None,
            doi=printed_ids(dois, complete=True) if knows_doi else None, malformed=frozenset(malformed))
