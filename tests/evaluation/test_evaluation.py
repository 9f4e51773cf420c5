"""The evaluation of parser and resolver: metric arithmetic, the in-memory store, the loaders, the command."""
import os
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from citations.evaluation import link_gold, parse_gold
from citations.evaluation.cases import Case, PrintedIds, gold_arxiv, gold_doi, gold_year
from citations.evaluation.datasets import available
from citations.evaluation.metrics import IdCounts, LinkCounts, TitleCounts, YearCounts, f1
from citations.evaluation.runner import Report, linked, run_case
from citations.evaluation.stores import MemoryStore, identity
from citations.parsing.text import title_blocking_keys
from citations.resolution.matching import Candidate, ReferenceFields, resolve

DATA_DIR = Path(os.environ.get("PITH_DATA_DIR") or Path(__file__).resolve().parents[3] / "shared" / "data")


def data(name: str) -> Path:
    """The data dir, or skip when this data set is not there."""
    if name not in available(DATA_DIR):
        pytest.skip(f"{name} not found under {DATA_DIR}")
    return DATA_DIR


def work(work_id, title=None, year=None, doi=None, arxiv_id=None):
    return Candidate(paper_id=None, work_id=work_id, arxiv_id=arxiv_id, titles=(title,) if title else (),
                     years=(year,) if year else (), dois=(doi,) if doi else ())


def printed(*values, complete=True):
    return PrintedIds(frozenset(values), complete)


# --- metric arithmetic ----------------------------------------------------------------------------

def test_year_accuracy_counts_missing_and_wrong_years_as_errors():
    counts = YearCounts()
    for gold, parsed in [(2001, 2001), (2002, 2002), (2003, None), (2004, 1999), (None, 2010)]:
        counts.add(gold, parsed)
    assert (counts.correct, counts.missed, counts.wrong, counts.total) == (2, 1, 1, 4)
    assert counts.accuracy == 0.5


def test_year_accuracy_is_unknown_without_gold_years():
    assert YearCounts().accuracy is None


def test_title_match_compares_comparable_forms_and_similarity():
    counts = TitleCounts()
    counts.add("Attention Is All You Need.", "Attention is all you need")            # exact once comparable
    counts.add("Deep residual learning for image recognition", "Deep residual learnin for image recognition")
    counts.add("Deep residual learning for image recognition", "Image recognition")   # cut wrongly
    counts.add("A title", None)                                                       # missed
    counts.add(None, "Parsed without gold")                                           # not counted
    assert (counts.exact, counts.similar, counts.total) == (1, 2, 4)
    assert (counts.exact_rate, counts.similar_rate) == (0.25, 0.5)


def test_gold_titles_are_cleaned_like_the_parser_input():
    counts = TitleCounts()
    counts.add("Information deﬁcits in mod- els of drug interactions",
               "Information deficits in models of drug interactions")
    assert counts.exact == 1


def test_identifier_recall_counts_every_gold_id_and_precision_only_complete_gold():
    counts = IdCounts()
    counts.add(printed("1706.03762", "1810.04805"), {"1706.03762", "2005.14165"}, "arXiv id")  # 1 hit, 1 miss, 1 extra
    counts.add(printed("1909.08053", complete=False), {"1909.08053", "2001.08361"}, "arXiv id")  # extra not judged
    counts.add(None, {"2101.00001"}, "arXiv id")                                                # no gold: ignored
    assert (counts.found_gold, counts.missed, counts.checked_found, counts.extra) == (2, 1, 1, 1)
    assert counts.recall == 2 / 3
    assert counts.precision == 0.5


def test_identifier_precision_is_unknown_when_no_gold_is_complete():
    counts = IdCounts()
    counts.add(printed("10.1/x", complete=False), {"10.1/x"}, "DOI")
    assert counts.precision is None and counts.recall == 1.0


def test_link_precision_recall_and_f1():
    counts = LinkCounts()
    outcomes = [
        (frozenset({"a"}), "a"),          # correct
        (frozenset({"b", "c"}), "c"),     # correct: either target
        (frozenset({"d"}), "x"),          # wrong: a false positive and a miss
        (frozenset({"e"}), None),         # missed
        (frozenset(), "y"),               # a link where gold says no work: false positive
        (frozenset(), None),              # rightly unlinked
        (None, "z"),                      # no link gold: unjudged
    ]
    errors = [counts.add(gold, link) for gold, link in outcomes]
    assert errors == [None, None, "link wrong", "link missed", "false link", None, None]
    assert (counts.correct, counts.wrong, counts.missed, counts.false, counts.unjudged) == (2, 1, 1, 1, 1)
    assert (counts.gold_targets, counts.gold_null) == (4, 2)
    assert counts.precision == 0.5
    assert counts.recall == 0.5
    assert counts.f1 == 0.5


def test_f1_of_zero_precision_and_recall_is_zero():
    assert f1(0.0, 0.0) == 0.0
    assert f1(None, 1.0) is None


def test_report_rows_states_by_link_gold():
    store = MemoryStore([work("10.1000/abc", doi="10.1000/abc")])
    report = Report(name="hand-made", store="test")
    report.add(run_case(Case("1", "A. Author, Some title of a paper, J. Tests 1 (2020) 1. doi:10.1000/abc",
                                link=frozenset({"10.1000/abc"})), store))
    report.add(run_case(Case("2", "A. Author, Another title of a paper, J. Tests 1 (2020) 2.",
                                link=frozenset()), store))
    assert report.states["gold target"]["verified_exact"] == 1
    assert sum(report.states["gold null"].values()) == 1
    assert (report.links.correct, report.links.false) == (1, 0)


# --- gold normalisation ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, doi", [
    ("doi: 10.1163/157006598X00135.", "10.1163/157006598x00135"),
    ("(http://dx.doi.org/10.1364/JOSAA.27.000268).", "10.1364/josaa.27.000268"),
    ("doi: 10.1130/2010.2465(22).", "10.1130/2010.2465(22)"),
    ("https://doi.org/10.1061/(asce)0733-9429(1987)113:5(583)", "10.1061/(asce)0733-9429(1987)113:5(583)"),
    ("doi:10.978.819252/12214", None),
])
def test_gold_doi_normalises_spellings(text, doi):
    assert gold_doi(text) == doi


@pytest.mark.parametrize("text, arxiv_id", [
    ("arXiv :hep-th/0603057", "hep-th/0603057"),
    ("1112 .5166", "1112.5166"),
    ("http://arxiv.org/pdf/quant-ph/0608197v2", "quant-ph/0608197"),
    ("arXiv:0712.1950 [physics.acc-ph]", "0712.1950"),
    ("arXiv:XXX", None),
    ("arXiv:1775..8833", None),
])
def test_gold_arxiv_normalises_or_refuses(text, arxiv_id):
    assert gold_arxiv(text) == arxiv_id


def test_gold_year_reads_the_first_year_of_a_date():
    assert [gold_year(t) for t in ("(2000)", "May / Jun 2000", "2005a,", "n.d.", None)] == [2000, 2000, 2005, None,
                                                                                             None]


# --- the store ------------------------------------------------------------------------------------

TRANSFORMER = Candidate(paper_id=None, work_id="w1", arxiv_id="1706.03762", titles=("Attention Is All You Need",),
                        years=(2017,), dois=("10.5555/3295222.3295349",))
BERT = Candidate(paper_id=7, work_id="w2", arxiv_id="1810.04805",
                 titles=("BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",),
                 years=(2019,))


def test_memory_store_finds_candidates_by_arxiv_id_and_doi():
    store = MemoryStore([TRANSFORMER, BERT])
    assert store.by_arxiv_id("1810.04805") is BERT
    assert store.by_arxiv_id("2101.00001") is None
    assert store.by_doi("10.5555/3295222.3295349") is TRANSFORMER
    assert store.by_doi("10.5555/3295222.3295349".upper()) is TRANSFORMER
    assert store.by_doi("10.48550/arxiv.1706.03762") is TRANSFORMER     # an arXiv DOI names the arXiv paper


def test_memory_store_finds_candidates_by_production_title_keys():
    store = MemoryStore([TRANSFORMER, BERT])
    damaged = "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding. In NAACL"
    assert store.by_title_keys(title_blocking_keys(damaged)) == [BERT]     # found by its head key
    assert store.by_title_keys(title_blocking_keys("Attention is all you need")) == [TRANSFORMER]
    assert store.by_title_keys(title_blocking_keys("Something else entirely here")) == []


def test_memory_store_merges_candidates_of_one_work():
    store = MemoryStore([work("10.1/a", "First title of a work", 2001, "10.1/a"),
                         work("10.1/a", "Second title of the same work", None, "10.1/a")])
    assert len(store) == 1
    (merged,) = store.candidates
    assert merged.titles == ("First title of a work", "Second title of the same work")
    assert store.by_title_keys(title_blocking_keys("Second title of the same work")) == [merged]


def test_memory_store_serves_the_resolver():
    result = resolve(ReferenceFields("Attention is all you need", 2017), MemoryStore([TRANSFORMER, BERT]))
    assert (result.state, result.work_id) == ("verified_fuzzy", "w1")
    assert linked(resolve(ReferenceFields(None, None, ({"kind": "arxiv", "value": "1810.04805", "valid": True},)),
                             MemoryStore([BERT]))) == "paper:7"


# --- loaders --------------------------------------------------------------------------------------

def test_grobid_loader_reads_titles_dates_and_printed_ids():
    cases = list(parse_gold.load_grobid(data("grobid-citation-corpus")))
    # Each text once: corpus/ holds copies of the 327 evaluation strings (and some strings twice).
    assert len({c.raw for c in cases}) == len(cases) == 8581
    berruto = next(c for c in cases if c.raw.startswith("F. Berruto, L. Giusti, C. Hoelbling and C. Rebbi"))
    assert berruto.year == 2002
    assert berruto.arxiv == printed("hep-lat/0201010")
    assert berruto.title is None and berruto.link is None
    wolf = next(c for c in cases if c.raw.startswith("M. M. Wolf, Violation of the entropic area law"))
    assert wolf.title == "Violation of the entropic area law for Fermions"
    assert wolf.link == frozenset({"violation of the entropic area law for fermions|2006"})
    assert sum(1 for c in cases if c.doi.values) > 250
    assert all(c.arxiv.complete and c.doi.complete for c in cases)


def test_anystyle_loader_deduplicates_and_reads_gold():
    cases = list(parse_gold.load_anystyle(data("anystyle-parser-gold")))
    assert len({c.raw for c in cases}) == len(cases)
    assert 2950 < len(cases) < 1669 + 1514 - 200
    first = cases[0]
    assert first.title.startswith("Information deﬁcits in the summary of product characteristics")
    assert first.year == 2005
    assert first.arxiv is None                      # AnyStyle does not tag arXiv ids
    assert sum(len(c.doi.values) for c in cases) >= 45


def test_refextract_loader_reads_years_ids_and_the_malformed_doi():
    cases = {c.key.split("::")[1].split("#")[0]: c for c in parse_gold.load_refextract(data("refextract-test-cases"))}
    assert len(cases) == 28
    assert cases["test_month_with_year"].year == 1967
    assert cases["test_reference_split"].year is None          # two references, two years
    assert cases["test_doi_4_digit"].doi == printed("10.1088/1748-0221/10/05/p05007")
    assert cases["test_extra_a_in_report_number"].arxiv == printed("1205.0701")
    assert cases["test_doi_subdivisions"].malformed == frozenset({"doi"})
    assert cases["test_reference_split_handles_semicolon"].arxiv is None    # nothing expected of its ids


def test_crossref_overall_loader_queries_unstructured_strings_against_structured_gold():
    directory = data("crossref-overall-2k")
    cases = list(link_gold.load_crossref_overall(directory))
    assert len(cases) == 615
    assert sum(1 for c in cases if c.link) == 374
    deane = next(c for c in cases if c.raw.startswith("Deane EE, Zhou L, Woo NYS (2006)"))
    assert deane.link == frozenset({"10.1016/j.mce.2006.08.006"}) and deane.year == 2006
    store = MemoryStore(link_gold.crossref_overall_works(directory, cases))
    assert store.by_doi("10.1016/s0969-2126(97)00260-8").titles == \
        ("CATH–a hierarchic classification of protein domain structures.",)


def test_crossref_comparison_loader_has_gold_dois_and_nulls():
    directory = data("crossref-comparison-reasons")
    cases = list(link_gold.load_crossref_comparison(directory))
    assert (len(cases), sum(1 for c in cases if c.link), sum(1 for c in cases if c.link == frozenset())) == \
        (2000, 1194, 806)
    assert sum(len(c.doi.values) for c in cases if c.doi) == 64
    store = MemoryStore(link_gold.crossref_comparison_works(directory, cases))
    assert all(not c.titles for c in store.candidates)


def test_glutton_loader_has_a_gold_doi_and_title_and_no_year():
    directory = data("biblio-glutton-doi-matching")
    cases = list(link_gold.load_glutton(directory))
    assert len(cases) == 17015
    assert cases[1].link == frozenset({"10.1016/s0016-5107(74)73914-1"})
    assert cases[1].title == "Endoscopic sphincterotomy of the ampulla of Vater"
    assert all(c.year is None for c in cases)
    store = MemoryStore(link_gold.glutton_works(directory, cases))
    assert len(store) == 16803 and all(not c.years for c in store.candidates)


def test_unarxive_loader_links_gold_ids_and_printed_arxiv_ids():
    directory = data("unarxive-sample")
    cases = list(link_gold.load_unarxive(directory))
    assert len(cases) == 1786
    assert sum(1 for c in cases if c.link) >= 521
    assert all(a in c.raw for c in cases for a in c.arxiv.values)       # printed ids are in the text
    wang = next(c for c in cases if "arXiv:2211.10989" in c.raw)
    assert "2211.10989" in wang.arxiv.values                           # the linked id, without its version
    store = MemoryStore(link_gold.unarxive_works(directory, cases))
    assert store.by_arxiv_id("2211.10989") is not None
    assert identity(store.by_arxiv_id("2211.10989")) in wang.link


# --- the command ----------------------------------------------------------------------------------

def test_command_prints_a_table_for_one_data_set():
    out = StringIO()
    call_command("evaluate_resolution", "--data-dir", str(data("crossref-comparison-reasons")),
                 "--dataset", "crossref-comparison-reasons", "--limit", "50", stdout=out)
    text = out.getvalue()
    assert "crossref-comparison-reasons: 50 cases" in text
    assert "links" in text and "precision" in text and "recall" in text
    assert "states" in text and "gold target" in text
    assert text.splitlines()[-1].startswith("crossref-comparison-reasons")   # the summary row


def test_command_refuses_a_missing_data_dir(tmp_path):
    with pytest.raises(CommandError, match="does not exist"):
        call_command("evaluate_resolution", "--data-dir", str(tmp_path / "nowhere"))


def test_command_refuses_a_data_set_that_is_not_there(tmp_path):
    with pytest.raises(CommandError, match="not found"):
        call_command("evaluate_resolution", "--data-dir", str(tmp_path), "--dataset", "unarxive-sample")
