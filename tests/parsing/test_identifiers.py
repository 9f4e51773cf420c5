from citations.parsing.identifier_repair import read_identifiers


def dois(text):
    return [i.value for i in read_identifiers(text) if i.kind == "doi" and i.valid]


def test_a_doi_glued_to_the_next_word_or_note_is_cut_off():
    assert dois("Phys. Rev. D, 7:2333,1973 .doi :10.1103/PhysRevD.7.2333.URL https: //link.aps.org/x") == \
        ["10.1103/physrevd.7.2333"]
    assert dois("Science 329:1521. doi:10.1126/science.1193063.PMID:20847271.") == ["10.1126/science.1193063"]
    assert dois("Energy Environ. Sci., 12, 1910, doi:10.1039/c9ee00453j(2019).") == ["10.1039/c9ee00453j"]


def test_a_doi_cut_by_a_line_break_is_joined():
    assert dois("Mol. Biol. Evol. 32:268-274. doi: 10.1093/molbev /msu300.") == ["10.1093/molbev/msu300"]
    assert dois("Nonlinear Processes 19 (2012) 227. doi: 10.5194/npg- 19-227-2012.") == ["10.5194/npg-19-227-2012"]
    assert dois("Science 392: 9. http://dx.doi.org/10.1016/j. memsci.2011.11.020.") == ["10.1016/j.memsci.2011.11.020"]


def test_a_whole_doi_is_left_alone():
    assert dois("J. Phys. A 12 (2001) 1, doi:10.1088/1748-0221/10/05/P05007. 2015") == ["10.1088/1748-0221/10/05/p05007"]
