"""Volume and first page read from reference strings (real ones, from the biblio-glutton set), and
DOIs cut by a line break."""
import pytest

from citations.parsing.identifiers import find_identifiers
from citations.parsing.locators import find_locator, journal_agrees


@pytest.mark.parametrize("raw, volume, page", [
    ("Kawai K, Akasaka Y, Murakami K. Endoscopic sphincterotomy \nof the ampulla of Vater. Gastrointest Endosc. "
     "1974;20:148-51.", "20", "148"),
    ("Deeg DJH: Attrition in longitudinal population studies. J Clin \nEpidemiol 2002, 55(3):213-215.", "55", "213"),
    ("Mortality due to shigellosis: community and hospital data. Rev Infect Dis 13:S245-S251", "13", "s245"),
    ("A dual epidemiologic paradox. Pediatrics, 111(6 Pt 1), \ne676-e682.", "111", "e676"),
    ("Natural selection on male wealth in humans. American Naturalist, 172, \n658-666.", "172", "658"),
    ("Fluorescent pigments in corals are photoprotective. Nature \n408, 850 -853. (doi: ", "408", "850"),
    ("J. Smith. Spin waves. Phys. Rev. Lett. 77, 3865 (1996).", "77", "3865"),
    ("A. Author, A title, J. Stat. Phys., vol. 12, no. 3, pp. 45-67, 2001.", "12", "45"),
    ("Am J Med Genet B Neuropsychiatr Genet 2009, 150B(6):753-61.", "150b", "753"),
    ("Immunology. 126:147-164. doi:10.1111/ \nj.1365-2567.2008.02848.x", "126", "147"),
])
def test_the_volume_and_first_page_a_reference_prints_are_read(raw, volume, page):
    locator = find_locator(raw)
    assert (locator.volume, locator.first_page) == (volume, page)


@pytest.mark.parametrize("raw", [
    "Miller, B. (2003). Critical hours: After school programs. Brookline, MA: Nellie Mae Foundation.",
    "Structure of 1, 7-Bis(4-hydroxyphenyl)-1, 6-heptadiene-3, 5-dione",     # numbers in a title
    "A. Author. Proceedings, 2010, 45.",                                      # a year is never a volume
    "See https://example.org/12:345-678 and doi:10.1000/12:34-56",           # inside a URL or a DOI
    "",
])
def test_strings_without_a_locator_give_none(raw):
    assert find_locator(raw) is None


def test_the_journal_before_the_volume_is_compared_full_or_abbreviated():
    words = find_locator("Ostrowski RP. Early brain injury. J Biol Chem 1998, 273(9):5086-5092.").journal_words
    assert journal_agrees(words, ("Journal of Biological Chemistry",)) is True
    assert journal_agrees(words, ("J Biol Chem",)) is True
    assert journal_agrees(words, ("Journal of Applied Physics",)) is False
    assert journal_agrees(words, ()) is None


@pytest.mark.parametrize("raw, doi", [
    ("PLoS ONE 3, e2680. (doi:10.1371/ \njournal.pone.0002680)", "10.1371/journal.pone.0002680"),
    ("Mol. Ecol. 18, 5101-5114. (doi:10. \n1111/j.1365-294X.2009.04419.x)", "10.1111/j.1365-294x.2009.04419.x"),
])
def test_a_doi_a_line_break_cut_after_its_prefix_is_read_whole(raw, doi):
    (identifier,) = find_identifiers(raw)
    assert (identifier.value, identifier.valid) == (doi, True)


def test_a_doi_label_with_nothing_after_it_is_no_identifier():
    assert find_identifiers("Hum. Mov. Sci. doi: . [Epub ahead of print].") == []
    (cut,) = find_identifiers("Limnol. Oceanogr. (doi:10.4319/ and more)")
    assert cut.valid is False
