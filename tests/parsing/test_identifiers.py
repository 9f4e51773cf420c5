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


def test_a_doi_in_a_link_to_the_works_own_page_is_its_doi():
    assert dois("Knee Surg. 25 (2017). Available from: https://link.springer.com/article/10.1007/s00167-016-4359-8") \
        == ["10.1007/s00167-016-4359-8"]
    assert dois("https://journals.aps.org/prl/abstract/10.1103/PhysRevLett.116.061102") == \
        ["10.1103/physrevlett.116.061102"]
    assert dois("https://dl.acm.org/citation.cfm?doi=10.1145/3132747.3132763") == ["10.1145/3132747.3132763"]


def test_a_doi_in_a_link_to_a_page_about_a_work_is_not_the_cited_things_doi():
    # The supplement or a news synopsis is what is cited; the DOI is the paper's it belongs to.
    assert dois("See Supplemental Material http://link.aps.org/supplemental/ 10.1103/PhysRevLett.119.044802") == []
    assert dois('Physics Synopsis, "Kondo effect lights up", '
                "http://physics.aps.org/synopsis-for/10.1103/PhysRevLett.106.107402.") == []
    assert [i.kind for i in read_identifiers("http://physics.aps.org/synopsis-for/10.1103/PhysRevLett.106.107402")] \
        == ["url"]
