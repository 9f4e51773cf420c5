"""The resolver's decisions, against a small in-memory store."""
import pytest

from citations.parsing.text import title_blocking_keys
from citations.resolution.matching import Candidate, ReferenceFields, resolve


class Store:
    def __init__(self, *candidates):
        self.candidates = candidates

    def by_arxiv_id(self, arxiv_id):
        return next((c for c in self.candidates if c.arxiv_id == arxiv_id), None)

    def by_doi(self, doi):
        return next((c for c in self.candidates if doi in c.dois), None)

    def by_title_keys(self, keys):
        keys = set(keys)
        return [c for c in self.candidates if any(keys & title_blocking_keys(t) for t in c.titles)]


def paper(n, title, year, arxiv_id=None, dois=()):
    return Candidate(paper_id=n, work_id=None, arxiv_id=arxiv_id or f"2001.{n:05d}", titles=(title,), years=(year,),
                     dois=dois)


ZERO = paper(1, "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models", 2019, "1910.02054")
ZERO_INFINITY = paper(2, "ZeRO-Infinity: Breaking the GPU Memory Wall for Extreme Scale Deep Learning", 2021)
ZERO_OFFLOAD = paper(3, "ZeRO-Offload: Democratizing Billion-Scale Model Training", 2021)
FLASH = paper(4, "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness", 2022)
FLASH_2 = paper(5, "FlashAttention-2: Faster Attention with Better Parallelism and Work Partitioning", 2023)
MEGATRON = paper(6, "Megatron-LM: Training Multi-Billion Parameter Language Models Using Model Parallelism", 2019,
                 "1909.08053")
FAMILY = Store(ZERO, ZERO_INFINITY, ZERO_OFFLOAD, FLASH, FLASH_2, MEGATRON)


def arxiv(value, valid=True):
    return {"kind": "arxiv", "value": value, "valid": valid}


def test_an_arxiv_id_of_a_held_paper_verifies_exactly():
    result = resolve(ReferenceFields("Megatron-lm: Training multi-billion parameter language models using model "
                                     "parallelism", 2019, (arxiv("1909.08053"),)), FAMILY)
    assert (result.state, result.resolver_source, result.paper_id) == ("verified_exact", "arxiv_id", 6)


def test_the_1909_year_does_not_stop_an_identifier_match():
    result = resolve(ReferenceFields("Megatron-lm: Training multi-billion parameter language models", 1909,
                                     (arxiv("1909.08053"),)), FAMILY)
    assert result.state == "verified_exact"
    assert result.evidence["parse_problems"] == ["year_from_arxiv_id"]


def test_an_identifier_whose_title_names_another_paper_is_a_mismatch():
    result = resolve(ReferenceFields("Deep residual learning for image recognition", 2016, (arxiv("1909.08053"),)),
                     FAMILY)
    assert (result.state, result.paper_id) == ("metadata_mismatch", None)


def test_a_truncated_title_is_no_contradiction():
    assert resolve(ReferenceFields("Megatron-LM", 2019, (arxiv("1909.08053"),)), FAMILY).state == "verified_exact"


@pytest.mark.parametrize("title, year, expected", [
    ("Zero: Memory optimizations toward training trillion parameter models", 2020, 1),
    ("Zero-infinity: breaking the gpu memory wall for extreme scale deep learning", 2021, 2),
    ("ZeRO-Offload: Democratizing Billion-Scale model training", 2021, 3),
    ("Flashattention: Fast and memory-efficient exact attention with io-awareness", 2022, 4),
    ("FlashAttention-2: Faster attention with better parallelism and work partitioning", 2023, 5),
])
def test_family_members_are_told_apart(title, year, expected):
    result = resolve(ReferenceFields(title, year), FAMILY)
    assert (result.state, result.paper_id) == ("verified_fuzzy", expected)


def test_a_bare_family_name_matches_no_member():
    assert resolve(ReferenceFields("ZeRO-Infinity and friends", 2021), FAMILY).state == "unresolved"
    result = resolve(ReferenceFields("FlashAttention-2: Fast and memory-efficient exact attention with IO-awareness",
                                     2022), FAMILY)
    assert result.state == "unresolved"        # FlashAttention's title under FlashAttention-2's name


def test_a_year_more_than_one_off_does_not_verify():
    result = resolve(ReferenceFields("ZeRO-Offload: Democratizing Billion-Scale model training", 2018), FAMILY)
    assert result.state == "unresolved"
    assert result.evidence["reason"] == "no candidate agrees on both title and year"


def test_without_a_year_a_title_match_is_not_enough():
    result = resolve(ReferenceFields("ZeRO-Offload: Democratizing Billion-Scale model training", None), FAMILY)
    assert result.state == "unresolved"
    assert result.evidence["reason"] == "no year, and no candidate agrees on title and first author"


def test_without_a_year_the_title_and_the_first_author_together_verify():
    store = Store(Candidate(paper_id=None, work_id="w-kawai", arxiv_id=None, titles=(
        "Endoscopic sphincterotomy of the ampulla of Vater",), years=(), dois=("10.1016/s0016-5107(74)73914-1",),
        first_authors=("Kawai",)))
    result = resolve(ReferenceFields("Endoscopic sphincterotomy of the ampulla of Vater", None,
                                     first_author="Kawai K"), store)
    assert result.state == "verified_fuzzy" and result.work_id == "w-kawai"
    assert result.evidence["first_author"] == "agrees" and result.evidence["matched_on"] == ["title", "first_author"]


def test_without_a_year_another_first_author_does_not_verify():
    store = Store(Candidate(paper_id=None, work_id="w-kawai", arxiv_id=None, titles=(
        "Endoscopic sphincterotomy of the ampulla of Vater",), years=(), first_authors=("Kawai",)))
    result = resolve(ReferenceFields("Endoscopic sphincterotomy of the ampulla of Vater", None,
                                     first_author="M. Classen"), store)
    assert result.state == "unresolved"


def test_first_authors_agree_whatever_the_order_of_initials_and_family_name():
    from citations.resolution.matching import author_agrees

    assert author_agrees("Kawai K", ["Kawai"]) and author_agrees("K. Kawai", ["Kawai"])
    assert author_agrees("Rajbhandari, S.", ["Rajbhandari"]) and author_agrees("J. Müller", ["Muller"])
    assert author_agrees("Classen M", ["Kawai"]) is False and author_agrees(None, ["Kawai"]) is None


def test_two_held_papers_with_one_title_are_too_close_to_tell_apart():
    twins = Store(paper(1, "Attention is all you need", 2017), paper(2, "Attention Is All You Need", 2017))
    result = resolve(ReferenceFields("Attention is all you need", 2017), twins)
    assert result.state == "unresolved"
    assert result.evidence["reason"] == "two candidates are too close to tell apart"


def test_an_arxiv_id_not_held_is_unresolved_even_if_a_title_matches():
    result = resolve(ReferenceFields("ZeRO-Offload: Democratizing Billion-Scale model training", 2021,
                                     (arxiv("2101.06840"),)), FAMILY)
    assert (result.state, result.resolver_source) == ("unresolved", "arxiv_id")


def test_an_arxiv_id_not_held_links_a_work_without_one_that_agrees_by_title_and_year():
    # The journal version of a preprint Pith does not hold: a work with no arXiv id of its own.
    published = Candidate(paper_id=None, work_id="w-offload", arxiv_id=None, dois=("10.5555/offload",),
                          titles=("ZeRO-Offload: Democratizing Billion-Scale Model Training",), years=(2021,))
    result = resolve(ReferenceFields("ZeRO-Offload: Democratizing Billion-Scale model training", 2021,
                                     (arxiv("2101.06840"),)), Store(*FAMILY.candidates, published))
    assert (result.state, result.work_id, result.paper_id) == ("verified_fuzzy", "w-offload", None)
    assert result.evidence["identifier_not_held"] == {"kind": "arxiv_id", "value": "2101.06840"}
    assert result.evidence["candidates"] == [{"candidate": "10.5555/offload", "similarity": 1.0, "years": [2021]}]


def test_a_malformed_identifier_is_named_with_what_the_title_suggests():
    result = resolve(ReferenceFields("ZeRO-Offload: Democratizing Billion-Scale model training", 2021,
                                     ({"kind": "arxiv", "value": "2113.06840", "valid": False, "text": "arXiv:2113.06840",
                                       "problem": "month 13 does not exist"},)), FAMILY)
    assert result.state == "malformed_identifier"
    assert result.evidence["suggested"]["candidate"] == "arXiv:2001.00003"


@pytest.mark.parametrize("title, year", [
    ("Accessed: 2025-06", 2025),
    ("B, Anshuj Garg, and Purushottam Kulkarni", 2019),
    ("InInternational Conference on Machine Learning", None),
    (None, 2024),
    ("A perfectly good title", 1200),
])
def test_untrustworthy_fields_are_parse_uncertain(title, year):
    assert resolve(ReferenceFields(title, year), FAMILY).state == "parse_uncertain"


def test_a_reference_naming_another_doi_does_not_fuzzy_link():
    published = paper(7, "A study of things in great detail", 2020, dois=("10.1000/own",))
    result = resolve(ReferenceFields("A study of things in great detail", 2020,
                                     ({"kind": "doi", "value": "10.1000/other", "valid": True},)), Store(published))
    assert result.state == "unresolved"


def test_a_doi_of_a_held_work_verifies_exactly():
    published = paper(7, "A study of things in great detail", 2020, dois=("10.1000/own",))
    result = resolve(ReferenceFields("A study of things", 2020, ({"kind": "doi", "value": "10.1000/own",
                                                                  "valid": True},)), Store(published))
    assert (result.state, result.resolver_source) == ("verified_exact", "doi")


# --- journal, volume and first page ---------------------------------------------------------------

class LocatorStore(Store):
    def by_locator(self, volume, first_page):
        return [c for c in self.candidates if (volume, first_page) in c.locators]


def journal_work(work_id, title, author, journal, volume, page, **extra):
    return Candidate(paper_id=None, work_id=work_id, arxiv_id=None, titles=(title,), years=(), dois=(f"10.1/{work_id}",),
                     first_authors=(author,), locators=((volume, page),), journals=(journal,), **extra)


CURCUMIN = journal_work("curcumin", "Structural studies of curcuminoids. II. Crystal structure of "
                        "1,7-bis(4-hydroxyphenyl)-1,6-heptadiene-3,5-dione methanol complex", "Tonnesen",
                        "Acta Chemica Scandinavica B", "37", "179")
SAME_PAGE_ELSEWHERE = journal_work("elsewhere", "Spin waves in thin films", "Smith", "Journal of Applied Physics",
                                   "37", "179")
CURCUMIN_RAW = ("Tonnesen HH, Karlsen J, Mostad A, Pedersen U, Rasmussen PB, \nLawesson SO (1983) Structural studies "
                "of curcuminoids. II. \nCrystal structure of 1, 7-Bis(4-hydroxyphenyl)-1, 6-heptadiene-3, \n5-dione "
                "-Methanol complex. Acta Chem Scand B 37:179-185")


def fields_of(raw):
    from citations.evaluation.runner import reference_fields
    from citations.parsing.parser import parse_reference

    return reference_fields(parse_reference(raw))


def test_a_reference_whose_title_did_not_parse_links_by_journal_volume_and_first_page():
    fields = fields_of(CURCUMIN_RAW)
    assert fields.title is None                        # the parser could not find it
    result = resolve(fields, LocatorStore(CURCUMIN, SAME_PAGE_ELSEWHERE))
    assert (result.state, result.resolver_source, result.work_id) == ("verified_fuzzy", "journal_volume_page",
                                                                      "curcumin")
    assert result.evidence["matched_on"] == ["volume", "first_page", "journal", "first_author"]


def test_the_same_volume_and_page_in_another_journal_by_another_author_is_not_a_link():
    result = resolve(fields_of(CURCUMIN_RAW), LocatorStore(SAME_PAGE_ELSEWHERE))
    assert result.state == "parse_uncertain" and result.work_id is None


def test_two_works_at_one_location_that_both_agree_are_not_told_apart_by_guessing():
    twin = journal_work("twin", "Other title of a paper", "Tonnesen", "Acta Chem Scand B", "37", "179")
    result = resolve(fields_of(CURCUMIN_RAW), LocatorStore(CURCUMIN, twin))
    assert result.work_id is None


def test_one_title_printed_at_two_places_is_told_apart_by_volume_and_page():
    raw = "Salih, A., Larkum, A., Cox, G. & Kuhl, M. 2000 Fluorescent pigments in corals are photoprotective. Nature 408, 850-853."
    paper_ = journal_work("paper", "Fluorescent pigments in corals are photoprotective", "Salih", "Nature", "408", "850")
    reprint = journal_work("reprint", "Fluorescent pigments in corals are photoprotective", "Salih", "Nature", "412", "17")
    result = resolve(fields_of(raw), LocatorStore(paper_, reprint))
    assert result.work_id == "paper" and "volume" in result.evidence["matched_on"]


def test_the_citing_papers_own_id_is_no_citation_whatever_title_is_read():
    # A misread title ("Yanli Zhao. PyTorch distributed") beside the paper's own id is not a mismatch to curate.
    result = resolve(ReferenceFields("Yanli Zhao. PyTorch distributed", 2020, (arxiv("1909.08053"),),
                                     citing_paper_id=MEGATRON.paper_id), FAMILY)
    assert (result.state, result.paper_id) == ("unresolved", None)
    assert result.evidence["reason"] == "the work found is the citing paper itself: a paper is not its own citation"


def test_a_title_read_on_into_its_venue_links_by_its_first_sentence():
    work = Candidate(paper_id=None, work_id="w1", arxiv_id=None, titles=("Dementia, lesbians and gay men",),
                     years=(2009,))
    result = resolve(ReferenceFields("Dementia, lesbians and gay men. Alzheimer's Australia", 2009), Store(work))
    assert (result.state, result.work_id) == ("verified_fuzzy", "w1")
    # A first sentence too short to name a work alone is not matched by itself.
    short = Candidate(paper_id=None, work_id="w2", arxiv_id=None, titles=("Deep learning",), years=(2015,))
    assert resolve(ReferenceFields("Deep learning. Nature reviews and perspectives", 2015), Store(short)).state \
        == "unresolved"
