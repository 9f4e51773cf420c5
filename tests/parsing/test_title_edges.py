"""Where a title ends, as a reader of parsed references would check it: what the tagger read on past a
title (a manual's revision, a report's number, the proceedings or journal after it) is not the title,
and what it read as something else (a special issue cited by its editors) is."""
from tests.parsing.labelled_runs import read_as, read_runs


def test_a_journal_broken_across_a_line_is_not_read_into_the_title():
    # PDF text kept the hyphen of "Commu-nications" and lost the space after "in".
    text = ("S. W. Hawking. Particle creation by black holes. Commu-nicationsin Mathematical Physics ,43 (3):199-220,"
            "Aug 1975 .")
    parsed = read_runs(text, [("author", "S. W. Hawking"),
                              ("title", "Particle creation by black holes. Commu-nicationsin Mathematical Physics"),
                              ("volume", "43"), ("pages", "199-220"), ("date", "Aug 1975")])
    assert (parsed.title, parsed.container) == ("Particle creation by black holes",
                                                "Commu-nicationsin Mathematical Physics")
    # a lower-case word after the stop is still the title's own
    lower = read_runs("A. B. Smith. Spin waves. In-plane magnetism of thin films, 43, 199 (1975).",
                      [("author", "A. B. Smith"), ("title", "Spin waves. In-plane magnetism of thin films"),
                       ("volume", "43"), ("pages", "199"), ("date", "1975")])
    assert lower.title == "Spin waves. In-plane magnetism of thin films"


def test_a_design_report_or_a_manual_is_named_by_its_title():
    # the tagger read the report's name as a note
    text = ("ALICE collaboration, ALICE Inner Tracking System (ITS): Technical Design Report, CERN-LHCC-99-012 (1999) "
            "http://aliceinfo.cern.ch/ITS/files/ITS_TDR.pdf.")
    parsed = read_as(text, author="ALICE collaboration", note="ALICE Inner Tracking System (ITS): Technical Design Report",
                     date="1999")
    assert parsed.title == "ALICE Inner Tracking System (ITS): Technical Design Report"
    assert parsed.authors == ("ALICE collaboration",)
    manual = read_as("Keysight. 3458A Multimeter User Guide. 2001.", note="Keysight. 3458A Multimeter User Guide",
                     date="2001")
    assert (manual.authors, manual.title) == (("Keysight",), "3458A Multimeter User Guide")


def test_a_manuals_revision_is_a_note_and_its_maker_the_author():
    parsed = read_as("Fluke Corporation, 752A Reference Divider Instruction Manual, Revision 1, 1984.",
                     title="Fluke Corporation, 752A Reference Divider Instruction Manual, Revision 1", date="1984")
    assert parsed.authors == ("Fluke Corporation",)
    assert (parsed.title, parsed.note) == ("752A Reference Divider Instruction Manual", "Revision 1")
    lettered = read_as("Agilent Technologies, 3458A Multimeter User's Guide, Revision: B.01, March 2001.",
                       title="Agilent Technologies, 3458A Multimeter User's Guide, Revision: B.01", date="March 2001")
    assert (lettered.title, lettered.note) == ("3458A Multimeter User's Guide", "Revision: B.01")
    # a title that goes on after "Revision" keeps it
    prose = read_as("A. Smith, The theory of games, Revision of economic models, 1990.", author="A. Smith",
                    title="The theory of games, Revision of economic models", date="1990")
    assert prose.title == "The theory of games, Revision of economic models"
    # a year after an organisation's comma is its date, not a title's opening
    dated = read_as("Fluke Corporation, 1984, Annual report.", title="Fluke Corporation, 1984, Annual report")
    assert dated.authors == ()


def test_a_report_number_after_the_title_is_not_part_of_it():
    text = ("G. Apollinari et al. (eds.), High Luminosity Large Hadron Collider (HL-LHC): Preliminary Design Report, "
            "CERN-2015-005 (CERN, Geneva, 2015).")
    title = "High Luminosity Large Hadron Collider (HL-LHC): Preliminary Design Report, CERN-2015-005"
    parsed = read_runs(text, [("author", "G. Apollinari et al."), ("title", title), ("place", "Geneva"),
                              ("date", "2015")])
    assert parsed.title == "High Luminosity Large Hadron Collider (HL-LHC): Preliminary Design Report"
    # a title's own last piece with a hyphenated acronym and a number stays
    kept = read_as("A. Smith, Searches at the LHC, Run-2 results, 2019.", author="A. Smith",
                   title="Searches at the LHC, Run-2 results", date="2019")
    assert kept.title == "Searches at the LHC, Run-2 results"


def test_arxiv_e_prints_is_where_the_work_was_posted_not_its_title():
    parsed = read_as("Arzoumanian, Z., Brazier, A., et al. 2015, ArXive -prints,arXiv :1505.07540",
                     author="Arzoumanian, Z., Brazier, A., et al", date="2015", title="ArXive -prints")
    assert parsed.title is None
    assert parsed.arxiv_id == "1505.07540"


def test_proceedings_read_on_after_a_titles_comma_are_its_container():
    text = "O. Kirstein et al., Neutron Position Sensitive Detectors for the ESS, Pro-ceedingsof Science (Vertex 2014) 029."
    parsed = read_runs(text, [("author", "O. Kirstein et al."),
                              ("title", "Neutron Position Sensitive Detectors for the ESS, Pro-ceedingsof Science"),
                              ("date", "2014"), ("pages", "029")])
    assert (parsed.title, parsed.container) == ("Neutron Position Sensitive Detectors for the ESS",
                                                "Pro-ceedingsof Science")
    # "Proceeding" inside a title, after no comma, is the title's
    kept = read_as("A. Smith, Proceeding with caution in deep learning, 2019.", author="A. Smith",
                   title="Proceeding with caution in deep learning", date="2019")
    assert kept.title == "Proceeding with caution in deep learning"


def test_a_special_issue_cited_by_its_editors_is_named_by_its_title():
    text = "Topical Issue on Nuclear Symmetry Energy, edited by B. A. Li et al., Eur. Phys. J. A 50 (2014) 9."
    parsed = read_runs(text, [("note", "Topical Issue on Nuclear Symmetry Energy"), ("editor", "B. A. Li et al."),
                              ("journal", "Eur. Phys. J. A"), ("volume", "50"), ("date", "2014"), ("pages", "9")])
    assert (parsed.title, parsed.container) == ("Topical Issue on Nuclear Symmetry Energy", "Eur. Phys. J. A")


def test_a_journal_does_not_open_inside_a_hyphenated_word():
    # IOP's Harvard style as PDF text gives it: no stop between title and journal, spaces lost and added
    text = ("Ahmed S M S et al 2013 Alpha-cluster preformation factors in heavy nuclei usingthe cluster -formationmodel "
            "J .Phys .G :Nucl .Part .Phys .40 79601")
    parsed = read_runs(text, [("author", "Ahmed S M S et al"), ("date", "2013"),
                              ("title", "Alpha-cluster preformation factors in heavy nuclei usingthe cluster -"),
                              ("journal", "formationmodel J .Phys .G :Nucl .Part .Phys"), ("volume", "40"),
                              ("pages", "79601")])
    assert parsed.title.endswith("cluster -formationmodel")
    assert parsed.container == "J .Phys .G :Nucl .Part .Phys"


def test_a_journals_first_word_cut_short_is_not_the_titles_last():
    text = "Ahmed S M S 2013 Clusterization probability in alpha-decay; a new approach Rom .Rep .Phys .65 1281 -300"
    parsed = read_runs(text, [("author", "Ahmed S M S"), ("date", "2013"),
                              ("title", "Clusterization probability in alpha-decay; a new approach Rom"),
                              ("journal", "Rep .Phys"), ("volume", "65"), ("pages", "1281 -300")])
    assert (parsed.title, parsed.container) == ("Clusterization probability in alpha-decay; a new approach",
                                                "Rom .Rep .Phys")
    # an English word closing a title stays the title's ("... of hot Gold. Phys. Rev.")
    english = read_runs("Smith J 2013 Spectra of hot Gold. Phys. Rev. 65 1281",
                        [("author", "Smith J"), ("date", "2013"), ("title", "Spectra of hot Gold"),
                         ("journal", "Phys. Rev"), ("volume", "65"), ("pages", "1281")])
    assert english.title == "Spectra of hot Gold"
    # so does a short capitalised word before a journal not cut short, whatever the stop's spacing
    golgi = read_runs("Smith J 1995 Transport of selected proteins to the Golgi .EMBO J 14 1329",
                      [("author", "Smith J"), ("date", "1995"), ("title", "Transport of selected proteins to the Golgi"),
                       ("journal", "EMBO J"), ("volume", "14"), ("pages", "1329")])
    assert (golgi.title, golgi.container) == ("Transport of selected proteins to the Golgi", "EMBO J")
    # a stop glued to its word may end a title whose last word is short and capitalised
    for authors, title, journal in (("Abe S 2023", "Search for Majorana neutrinos with KamLAND-Zen", "Phys. Rev. Lett."),
                                    ("Xiong J 2015", "Evidence for the chiral anomaly in Na3Bi", "Phys. Rev. B")):
        text = f"{authors} {title}. {journal} 130 051801"
        parsed = read_runs(text, [("author", authors[:-5]), ("date", authors[-4:]), ("title", title),
                                  ("journal", journal), ("volume", "130"), ("pages", "051801")])
        assert parsed.title == title


def test_a_number_closing_the_title_before_its_journal_is_the_titles():
    text = "Ahmed S M S et al 2015 Alpha clustering near magic numbers 82 and 126 Eur .Phys .J .A 51 1 -12"
    parsed = read_runs(text, [("author", "Ahmed S M S et al"), ("date", "2015"),
                              ("title", "Alpha clustering near magic numbers 82 and"), ("pages", "126"),
                              ("journal", "Eur .Phys .J .A"), ("volume", "51"), ("pages", "1 -12")])
    assert (parsed.title, parsed.pages) == ("Alpha clustering near magic numbers 82 and 126", "1 -12")


def test_a_journal_named_before_its_series_is_not_a_title():
    text = "E. C. Stoner, Proceedings of the Royal Society of London. Series A 152, 672 (1935)."
    parsed = read_runs(text, [("author", "E. C. Stoner"), ("title", "Proceedings of the Royal Society of London"),
                              ("journal", "Series A"), ("volume", "152"), ("pages", "672"), ("date", "1935")])
    assert parsed.title is None
    assert parsed.container == "Proceedings of the Royal Society of London. Series A"
    # a paper's title before such a journal stays its title
    titled = read_runs("A. Smith, Spin waves. Series A 152, 672 (1935).",
                       [("author", "A. Smith"), ("title", "Spin waves"), ("journal", "Series A"), ("volume", "152"),
                        ("pages", "672"), ("date", "1935")])
    assert titled.title == "Spin waves"


def test_a_family_name_read_into_the_journal_is_the_authors():
    # no comma between the last initials' family name and a journal of a style that prints no title
    parsed = read_runs("V. P. Gusynin Phys. Rev. D 52 4747 (1995)",
                       [("author", "V. P."), ("journal", "Gusynin Phys. Rev. D"), ("volume", "52"), ("pages", "4747"),
                        ("date", "1995")])
    assert (parsed.authors, parsed.container) == (("V. P. Gusynin",), "Phys. Rev. D")
    # a list that puts the family name first has it already
    family_first = read_runs("Green, B. Nature Physics 52 4747 (1995)",
                             [("author", "Green, B."), ("journal", "Nature Physics"), ("volume", "52"),
                              ("pages", "4747"), ("date", "1995")])
    assert family_first.container == "Nature Physics"
    # a journal's name written out after a stray initial keeps its first word
    written_out = read_runs("Ž. Surface and Coatings Technology 133 2000 61",
                            [("author", "Ž."), ("journal", "Surface and Coatings Technology"), ("volume", "133"),
                             ("date", "2000"), ("pages", "61")])
    assert written_out.container == "Surface and Coatings Technology"


def test_a_series_letter_before_the_volume_is_the_journals():
    parsed = read_runs("E. J. Copeland, M. Sami and S. Tsujikawa, Int. J. Mod. Phys. D 15, 1753 (2006).",
                       [("author", "E. J. Copeland, M. Sami and S. Tsujikawa"), ("journal", "Int. J. Mod. Phys"),
                        ("volume", "D 15"), ("pages", "1753"), ("date", "2006")])
    assert (parsed.container, parsed.volume) == ("Int. J. Mod. Phys. D", "15")
    # a letter glued to its number is printed as the volume's ("A40") and stays so
    glued = read_runs("L. Diósi, Phys. Rev. A40, 1165 (1989).", [("author", "L. Diósi"), ("journal", "Phys. Rev"),
                                                                ("volume", "A40"), ("pages", "1165"), ("date", "1989")])
    assert (glued.container, glued.volume) == ("Phys. Rev", "A40")


def test_a_journals_acronym_before_its_volume_and_page_is_the_journal():
    # IOP's author-year style: "Author Year Journal Volume Page", the journal an acronym the model read as nothing
    parsed = read_runs("Ishigaki M N, Tominaga N and Nomoto K 2014 ApJL 792 L32",
                       [("author", "Ishigaki M N, Tominaga N and Nomoto K"), ("date", "2014"), ("idno", "ApJL 792 L32")])
    assert (parsed.container, parsed.volume, parsed.pages) == ("ApJL", "792", "L32")
    mnras = read_runs("Smith J and Jones K 2014 MNRAS 441 1234", [("author", "Smith J and Jones K"), ("date", "2014"),
                                                                  ("pages", "441 1234")])
    assert (mnras.container, mnras.volume, mnras.pages) == ("MNRAS", "441", "1234")
    # JCAP's and JHEP's month opens with a zero: the issue
    jcap = read_runs("Smith J 2014 JCAP 09 012", [("author", "Smith J"), ("date", "2014"), ("pages", "09 012")])
    assert (jcap.container, jcap.volume, jcap.issue, jcap.pages) == ("JCAP", None, "09", "012")
    # an acronym inside a title, more title after it, is the title's
    titled = read_runs("Smith J 2014. CMS 13 8 TeV searches in review. Preprint",
                       [("author", "Smith J"), ("date", "2014"), ("title", "CMS 13 8 TeV searches in review")])
    assert (titled.title, titled.container) == ("CMS 13 8 TeV searches in review", None)


def test_an_articles_page_count_is_a_note_not_its_pages():
    text = "J. Bagger and N. Lambert, Three-algebras. Phys. Rev. D 79 (2009), no. 2, 025002, 8 pp."
    parsed = read_runs(text, [("author", "J. Bagger and N. Lambert"), ("title", "Three-algebras"),
                              ("journal", "Phys. Rev. D"), ("volume", "79"), ("date", "2009"), ("issue", "2"),
                              ("pages", "025002, 8 pp")])
    assert (parsed.pages, parsed.note) == ("025002", "8 pp")
    # a range after a comma is the pages' own
    ranged = read_runs("A. Smith, Title. J. Phys. 79 (2009), 12, 14-16.",
                       [("author", "A. Smith"), ("title", "Title"), ("journal", "J. Phys."), ("volume", "79"),
                        ("date", "2009"), ("pages", "12, 14-16")])
    assert ranged.note is None


def test_a_collaboration_named_in_brackets_after_a_name_is_the_authors():
    text = ("Abbott, B.P. [LIGO Scientific and Virgo Collaborations], et al.: Observation of gravitational waves. "
            "Phys. Rev. Lett. 116, 061102 (2016)")
    parsed = read_runs(text, [("author", "Abbott, B.P."), ("note", "LIGO Scientific and"),
                              ("author", "Virgo Collaborations], et al."), ("title", "Observation of gravitational waves"),
                              ("journal", "Phys. Rev. Lett."), ("volume", "116"), ("pages", "061102"), ("date", "2016")])
    assert parsed.authors == ("Abbott, B.P.", "LIGO Scientific", "Virgo Collaborations")
    assert parsed.note is None
    # a bracket naming no group is left as the tagger read it
    other = read_runs("Abbott, B.P. [in Japanese], et al.: Observation. Phys. Rev. Lett. 116, 061102 (2016)",
                      [("author", "Abbott, B.P."), ("note", "in Japanese"), ("title", "Observation"),
                       ("journal", "Phys. Rev. Lett."), ("volume", "116"), ("pages", "061102"), ("date", "2016")])
    assert (other.authors, other.note) == (("Abbott, B.P.",), "in Japanese")


def test_a_software_release_is_named_by_its_repository_and_version():
    # Zenodo's citation of a GitHub release; the tagger read it as a link and its year as pages
    text = "Moritz Schauer and Sebastiano Grazzi. mschauer/ZigZagBoomerang.jl: v0.10.0, 2021. doi:10.5281/ZENODO.3931118."
    parsed = read_runs(text, [("author", "Moritz Schauer and Sebastiano Grazzi"),
                              ("url", "mschauer/ZigZagBoomerang.jl: v0.10.0"), ("pages", "2021"),
                              ("doi", "doi:10.5281/ZENODO.3931118")])
    assert parsed.title == "mschauer/ZigZagBoomerang.jl: v0.10.0"
    cut = read_runs("Lintang Sutawika, Leo Gao, et al. EleutherAI/lm-evaluation-harness: v0.4.12, 2026.",
                    [("author", "Lintang Sutawika, Leo Gao, et al"), ("title", "EleutherAI/lm-evaluation-harness"),
                     ("pages", "12"), ("date", "2026")])
    assert cut.title == "EleutherAI/lm-evaluation-harness: v0.4.12"
    named = read_runs("S. Efthymiou, S. Carrazza, and Atomicprinter, qiboteam/qibo: Qibo 0.1.7 (2022).",
                      [("author", "S. Efthymiou, S. Carrazza, and Atomicprinter"),
                       ("doi", "qiboteam/qibo: Qibo 0.1.7"), ("date", "2022")])
    assert named.title == "qiboteam/qibo: Qibo 0.1.7"
    # a repository inside a link is the link's
    linked = read_runs("A. Smith. Spin waves, 2021. https://github.com/owner/repo: v1.2.",
                       [("author", "A. Smith"), ("title", "Spin waves"), ("date", "2021"),
                        ("url", "https://github.com/owner/repo")])
    assert linked.title == "Spin waves"


def test_a_volumes_number_and_title_are_part_of_the_works_title():
    parsed = read_runs("L. D. Landau and E. M. Lifshitz, Fluid Mechanics – Volume 6: Course of Theoretical Physics, "
                       "2 ed. (Elsevier, 1987).",
                       [("author", "L. D. Landau and E. M. Lifshitz"), ("journal", "Fluid Mechanics"),
                        ("volume", "6"), ("booktitle", "Course of Theoretical Physics"), ("note", "2 ed"),
                        ("publisher", "Elsevier"), ("date", "1987")])
    assert (parsed.title, parsed.container) == ("Fluid Mechanics – Volume 6: Course of Theoretical Physics", None)
    bare = read_runs("Ewens, W. J., 2012 Mathematical Population Genetics 1: Theoretical Introduction. Springer.",
                     [("author", "Ewens, W. J."), ("date", "2012"), ("journal", "Mathematical Population Genetics"),
                      ("volume", "1"), ("title", "Theoretical Introduction"), ("publisher", "Springer")])
    assert bare.title == "Mathematical Population Genetics 1: Theoretical Introduction"
    # a journal's volume and the pages after its colon are no title
    journal = read_runs("A. Smith, Spin waves. Nature 521: 436-444 (2015).",
                        [("author", "A. Smith"), ("title", "Spin waves"), ("journal", "Nature"), ("volume", "521"),
                         ("pages", "436-444"), ("date", "2015")])
    assert (journal.title, journal.container, journal.volume) == ("Spin waves", "Nature", "521")


def test_a_chapters_number_is_a_note_and_the_book_the_container():
    text = ("H. M. Gibbs, “Optical Switching,” in “Optical Bistability: Controlling Light with Light,” (Academic Press, "
            "1985), chap. 5, pp. 195–239.")
    parsed = read_runs(text, [("author", "H. M. Gibbs"), ("title", "Optical Switching"),
                              ("booktitle", "Optical Bistability: Controlling Light with Light"),
                              ("publisher", "Academic Press"), ("date", "1985"), ("journal", "chap"), ("volume", "5"),
                              ("pages", "195–239")])
    assert (parsed.container, parsed.volume, parsed.pages) == ("Optical Bistability: Controlling Light with Light",
                                                               None, "195–239")
    # a journal of that name is left alone: a journal's name is more than the word
    journal = read_runs("A. Smith, Spin waves, Chapman J. 5, 195 (1985).",
                        [("author", "A. Smith"), ("title", "Spin waves"), ("journal", "Chapman J."), ("volume", "5"),
                         ("pages", "195"), ("date", "1985")])
    assert journal.container == "Chapman J"


def test_a_page_cited_by_its_name_before_its_access_date_is_the_title():
    # the tagger read a short page name as an author, or as a note
    page = read_as("EGL Overview, accessed: 2022-09-11 (2022).", author="EGL Overview",
                   note="accessed: 2022-09-11", date="2022")
    assert (page.title, page.authors) == ("EGL Overview", ())
    software = read_runs("O. Cornut, Dear ImGui, accessed: 2022-09-11 (2022).",
                         [("author", "O. Cornut, Dear ImGui"), ("note", "accessed: 2022-09-11"), ("date", "2022")])
    assert (software.title, software.authors) == ("Dear ImGui", ("O. Cornut",))
    noted = read_as("ALICE O2 software, accessed: 2022-09-11 (2007).", note="ALICE O2 software, accessed: 2022-09-11",
                    date="2007")
    assert noted.title == "ALICE O2 software"
    # a person's name before the date is not a page's
    for text, author in (("J. Smith, accessed 2020.", "J. Smith"), ("Smith J, accessed 2020.", "Smith J")):
        person = read_as(text, author=author, date="2020")
        assert (person.title, person.authors) == (None, (author,))


def test_a_year_closing_the_title_is_the_titles_own_where_the_reference_is_dated_elsewhere():
    text = ("Jackson, L. C. et al. The evolution of the Atlantic Meridional Overturning Circulation since 1980. "
            "Nature Reviews Earth & Environment 5, 59–75 (2024).")
    runs = [("author", "Jackson, L. C. et al"), ("title", "The evolution of the Atlantic Meridional Overturning "
                                                          "Circulation since"),
            ("date", "1980"), ("journal", "Nature Reviews Earth & Environment"), ("volume", "5"), ("pages", "59–75"),
            ("date", "2024")]
    parsed = read_runs(text, runs)
    assert (parsed.title, parsed.year) == ("The evolution of the Atlantic Meridional Overturning Circulation since 1980",
                                           2024)
    # the only date of the reference, or one after a capitalised word, is no title's
    alone = read_runs("A. Smith. Floods in the valley since 1980. Water Res. 5, 59.",
                      [("author", "A. Smith"), ("title", "Floods in the valley since"), ("date", "1980"),
                       ("journal", "Water Res."), ("volume", "5"), ("pages", "59")])
    assert (alone.title, alone.year) == ("Floods in the valley since", 1980)
    named = read_runs("A. Smith. Floods in the valley. Proc. Hydrology 1980. Water Res. 5, 59 (1981).",
                      [("author", "A. Smith"), ("title", "Floods in the valley. Proc. Hydrology"), ("date", "1980"),
                       ("journal", "Water Res."), ("volume", "5"), ("pages", "59"), ("date", "1981")])
    assert named.title == "Floods in the valley. Proc. Hydrology"
    # a range of years, read as pages
    ranged = read_runs("C. S. Meinen. Transport variability at 34.5°S during 2009-2017. Geophys. Res. Lett., 45: "
                       "4180–4188, 2018.",
                       [("author", "C. S. Meinen"), ("title", "Transport variability at 34.5°S during"),
                        ("pages", "2009-2017"), ("journal", "Geophys. Res. Lett."), ("volume", "45"),
                        ("pages", "4180–4188"), ("date", "2018")])
    assert (ranged.title, ranged.pages) == ("Transport variability at 34.5°S during 2009-2017", "4180–4188")


def test_a_page_named_before_its_link_is_the_title_though_read_as_its_author():
    page = read_as("Tabula. http://tabula.technology. Accessed: 2015-05-13.", author="Tabula",
                   url="http://tabula.technology", date="2015-05-13")
    assert (page.title, page.authors) == ("Tabula", ())
    # a person's name before a link, or an author named after it too, is not the page's name
    person = read_as("J. Smith. http://smith.org/page.", author="J. Smith", url="http://smith.org/page")
    assert (person.title, person.authors) == (None, ("J. Smith",))
    named = read_runs("Smith. http://smith.org/page. Smith, Jones.",
                      [("author", "Smith"), ("url", "http://smith.org/page"), ("author", "Smith, Jones")])
    assert named.title is None


def test_the_sentence_after_the_names_and_year_read_as_a_note_is_the_title():
    # ACM and AAAI styles: "Authors. Year. Title. Venue"; the tagger read the title as a note
    text = "Pires, T. P.; and Setiawan, H. 2023. One Wide Feedforward Is All You Need. arXiv preprint arXiv:2309.01826."
    parsed = read_runs(text, [("author", "Pires, T. P.; and Setiawan, H"), ("date", "2023"),
                              ("note", "One Wide Feedforward Is All You Need. arXiv preprint")])
    assert (parsed.title, parsed.note) == ("One Wide Feedforward Is All You Need", "arXiv preprint")
    book = read_runs("Travis E. Oliphant. 2015. Guide to NumPy (2nd ed.). CreateSpace, USA.",
                     [("author", "Travis E. Oliphant"), ("date", "2015"), ("note", "Guide to NumPy (2nd ed."),
                      ("publisher", "CreateSpace"), ("place", "USA")])
    assert book.title == "Guide to NumPy"
    # what says what a thing is without naming it stays a note
    told = read_runs("Ling, C. X. (1995). Personal communication.",
                     [("author", "Ling, C. X"), ("date", "1995"), ("note", "Personal communication")])
    assert (told.title, told.note) == (None, "Personal communication")
    # a bracket after the title holds a note on it
    translated = read_runs("Heidegger, M. (1977). Basic writings (D.F. Krell, Trans.). New York: Harper.",
                           [("author", "Heidegger, M"), ("date", "1977"), ("note", "Basic writings (D.F. Krell, Trans.)"),
                            ("place", "New York"), ("publisher", "Harper")])
    assert translated.title == "Basic writings"
    # a year that closes no names' sentence opens no title
    imprint = read_runs("Levinson, David, eds. Encyclopedia of Anthropology. New York: Henry Holt, 1996. Print.",
                        [("editor", "Levinson, David"), ("booktitle", "Encyclopedia of Anthropology"),
                         ("place", "New York"), ("publisher", "Henry Holt"), ("date", "1996"), ("note", "Print")])
    assert (imprint.title, imprint.note) == ("Encyclopedia of Anthropology", "Print")


def test_a_quote_inside_a_title_keeps_its_closing_mark():
    parsed = read_runs("Plummer, M. (2019). Package ‘rjags’.",
                       [("author", "Plummer, M"), ("date", "2019"), ("title", "Package ‘rjags’.")])
    assert parsed.title == "Package ‘rjags’"
    whole = read_runs("Aldiss, Brian. “Total Environment.” Galaxy, 1968.",
                      [("author", "Aldiss, Brian"), ("title", "“Total Environment.”"), ("journal", "Galaxy"),
                       ("date", "1968")])
    assert whole.title == "Total Environment"


def test_a_year_opening_a_proceedings_name_is_the_names():
    text = ("D. Qiu and D. G. Kamper. Orthopaedic applications of a biomechanical model. In 2014 36th Annual "
            "International Conference of the IEEE Engineering in Medicine and Biology Society, pages 4013–4016, 2014.")
    book = "36th Annual International Conference of the IEEE Engineering in Medicine and Biology Society"
    title = "Orthopaedic applications of a biomechanical model"
    parsed = read_runs(text, [("author", "D. Qiu and D. G. Kamper"), ("title", title), ("date", "2014"),
                              ("booktitle", book), ("pages", "4013–4016"), ("date", "2014")])
    assert (parsed.container, parsed.year) == (f"2014 {book}", 2014)
    # with no other date, the year is still read from the name
    alone = read_runs("R. Bujack. Vector field analysis. in: 2016 IEEE Pacific Visualization Symposium, pp. 72–79.",
                      [("author", "R. Bujack"), ("title", "Vector field analysis"), ("date", "2016"),
                       ("booktitle", "IEEE Pacific Visualization Symposium"), ("pages", "72–79")])
    assert (alone.container, alone.year) == ("2016 IEEE Pacific Visualization Symposium", 2016)
    # a year before the journal with no "in" before it is the reference's date
    dated = read_runs("A. Smith, Notes, 2014 Proc. Phys. Soc. 12, 3.",
                      [("author", "A. Smith"), ("title", "Notes"), ("date", "2014"), ("journal", "Proc. Phys. Soc"),
                       ("volume", "12"), ("pages", "3")])
    assert (dated.container, dated.year) == ("Proc. Phys. Soc", 2014)
    # Nature's styles print no "in": after the title's stop, a conference's name opens with its year
    nature = read_runs("Liu FT, Ting KM, Zhou ZH (2008). Isolation Forest. 2008 Eighth IEEE International Conference "
                       "on Data Mining, pp. 413–422.",
                       [("author", "Liu FT, Ting KM, Zhou ZH"), ("date", "2008"), ("title", "Isolation Forest"),
                        ("date", "2008"), ("booktitle", "Eighth IEEE International Conference on Data Mining"),
                        ("pages", "413–422")])
    assert (nature.container, nature.year) == ("2008 Eighth IEEE International Conference on Data Mining", 2008)
    # ... but not a journal's, nor a year with a stop after it
    for text, container, runs in [
            ("A. Smith. Notes. 2014 Annals of Physics 12, 3.", "Annals of Physics", [("journal", "Annals of Physics")]),
            ("A. Smith. Notes. 2014. IEEE Conference on Vision, 3-9.", "IEEE Conference on Vision",
             [("booktitle", "IEEE Conference on Vision")])]:
        parsed = read_runs(text, [("author", "A. Smith"), ("title", "Notes"), ("date", "2014")] + runs)
        assert (parsed.container, parsed.year) == (container, 2014), text


def test_an_identifiers_cue_is_not_the_journals_last_word():
    parsed = read_runs("K. S. Booksh, 2025. Conformal prediction. Journal of Chemometrics Doi:10.1002/cem.70017.",
                       [("author", "K. S. Booksh"), ("date", "2025"), ("title", "Conformal prediction"),
                        ("journal", "Journal of Chemometrics Doi"), ("doi", "10.1002/cem.70017")])
    assert parsed.container == "Journal of Chemometrics"


def test_a_list_closing_the_title_is_the_titles():
    title = "Gated Attention for Large Language Models: Non-Linearity, Sparsity, and Attention-Sink-Free"
    parsed = read_runs(f"Qiu, Z.; Wang, Z. 2025. {title}. arXiv preprint arXiv:2505.06708.",
                       [("author", "Qiu, Z.; Wang, Z"), ("date", "2025"),
                        ("title", "Gated Attention for Large Language Models: Non-Linearity"),
                        ("note", "Sparsity, and Attention-Sink-Free. arXiv preprint"), ("arxiv", "arXiv:2505.06708")])
    assert parsed.title == title
    # what follows a comma is no part of the title when it is no list, or a field's cue opens it
    for text, note in [("A. Smith. Waves in water, Technical Report, and notes. 2020.", "Technical Report, and notes"),
                       ("A. Smith. Waves in water, Springer, Berlin. 2020.", "Springer, Berlin")]:
        parsed = read_runs(text, [("author", "A. Smith"), ("title", "Waves in water"), ("note", note),
                                  ("date", "2020")])
        assert parsed.title == "Waves in water", text


def test_a_list_begun_inside_the_title_and_closed_by_or_after_its_cut_is_the_titles():
    title = "Cross-Validation Strategies for Data with Temporal, Spatial, Hierarchical, or Phylogenetic Structure"
    parsed = read_runs(f"Roberts DR, Bahn V (2017). {title}. Ecography, 40(8), 913–929.",
                       [("author", "Roberts DR, Bahn V"), ("date", "2017"),
                        ("title", "Cross-Validation Strategies for Data with Temporal, Spatial, Hierarchical"),
                        ("journal", "or Phylogenetic Structure. Ecography"), ("volume", "40"), ("issue", "8"),
                        ("pages", "913–929")])
    assert (parsed.title, parsed.container) == (title, "Ecography")
    # one item after a title with no list in it is no list's last
    alone = read_runs("A. Smith (2017). Waves in Deep Water, or Shallow Seas. Ecography, 40(8), 913–929.",
                      [("author", "A. Smith"), ("date", "2017"), ("title", "Waves in Deep Water"),
                       ("journal", "or Shallow Seas. Ecography"), ("volume", "40")])
    assert alone.title == "Waves in Deep Water"
    # nor after a title whose comma parts off no list's items
    clause = read_runs("A. Smith (2017). Waves in Deep Water, a study of the tides, or Shallow Seas. Ecography, 40.",
                       [("author", "A. Smith"), ("date", "2017"),
                        ("title", "Waves in Deep Water, a study of the tides"),
                        ("journal", "or Shallow Seas. Ecography"), ("volume", "40")])
    assert clause.title == "Waves in Deep Water, a study of the tides"


def test_lower_case_words_after_a_comma_closing_a_sentence_case_title_are_the_titles():
    parsed = read_runs("M. Tanaskovic and L. Fagiano. Adaptive model predictive control for constrained, linear "
                       "time varying systems, 2017.",
                       [("author", "M. Tanaskovic and L. Fagiano"),
                        ("title", "Adaptive model predictive control for constrained"),
                        ("note", "linear time varying systems"), ("date", "2017")])
    assert (parsed.title, parsed.note) == (
        "Adaptive model predictive control for constrained, linear time varying systems", None)
    listed = read_runs("Keith Conrad, The 15 puzzle, group theory, and permutations, 2017, Expository note.",
                       [("author", "Keith Conrad"), ("title", "The 15 puzzle, group theory"), ("date", "2017"),
                        ("note", "Expository note")])
    assert (listed.title, listed.note) == ("The 15 puzzle, group theory, and permutations", "Expository note")
    # what says what state the work is in, a title in title case, or a venue after the date: not the title's
    for text, title, note, after in [
            ("A. Smith, Waves in water, to appear, 2020.", "Waves in water", "to appear", []),
            ("A. Smith, Waves in shallow water, unpublished manuscript, 2020.", "Waves in shallow water",
             "unpublished manuscript", []),
            ("A. Smith, Waves In Shallow Water, lecture given at Oxford, 2020.", "Waves In Shallow Water",
             "lecture given at Oxford", []),
            ("A. Smith, Waves in shallow water, exhibition catalogue, 2020, National Gallery, Melbourne.",
             "Waves in shallow water", "exhibition catalogue", [("publisher", "National Gallery")])]:
        parsed = read_runs(text, [("author", "A. Smith"), ("title", title), ("note", note), ("date", "2020")] + after)
        assert parsed.title == title, text


def test_a_titles_opening_after_et_al_is_the_titles():
    text = ("A. Dosovitskiy, L. Beyer, S. Gelly, et al., An image is worth 16x16 words: Transformers for image "
            "recognition at scale, arXiv preprint arXiv:2010.11929 (2020).")
    parsed = read_runs(text, [("author", "A. Dosovitskiy, L. Beyer, S. Gelly, et al"), ("issue", "16"),
                              ("title", "words: Transformers for image recognition at scale"),
                              ("arxiv", "arXiv:2010.11929"), ("date", "2020")])
    assert parsed.title == "An image is worth 16x16 words: Transformers for image recognition at scale"


def test_an_in_inside_the_titles_sentence_is_the_titles():
    text = "E. Arrighi and P. Wolf, Finding Minors and Subgraphs in Edge Periodic Temporal Graphs, 2022."
    parsed = read_runs(text, [("author", "E. Arrighi and P. Wolf"), ("title", "Finding Minors and Subgraphs"),
                              ("booktitle", "Edge Periodic Temporal Graphs"), ("date", "2022")])
    assert (parsed.title, parsed.container) == ("Finding Minors and Subgraphs in Edge Periodic Temporal Graphs", None)
    # after a comma, or before pages, or naming proceedings, "in" introduces where the work appeared
    for text, book, runs in [
            ("A. Smith, Waves, in Ocean Dynamics, 2020.", "Ocean Dynamics", [("date", "2020")]),
            ("A. Smith, Waves in Ocean Dynamics, pages 1-9, 2020.", "Ocean Dynamics", [("pages", "1-9")]),
            ("A. Smith, Waves in Proceedings of Oceans, 2020.", "Proceedings of Oceans", [("date", "2020")])]:
        parsed = read_runs(text, [("author", "A. Smith"), ("title", "Waves"), ("booktitle", book)] + runs)
        assert (parsed.title, parsed.container) == ("Waves", book), text


def test_a_volumes_roman_numeral_before_its_title_is_the_titles():
    text = "A. Foulet, The Medieval French Roman d'Alexandre. Volume VI: Version of Alexandre de Paris, Princeton 1976."
    parsed = read_runs(text, [("author", "A. Foulet"), ("title", "The Medieval French Roman d'Alexandre"),
                              ("volume", "VI"), ("title", "Version of Alexandre de Paris"), ("place", "Princeton"),
                              ("date", "1976")])
    assert parsed.title == "The Medieval French Roman d'Alexandre. Volume VI: Version of Alexandre de Paris"
    # after a comma, the name of a work in volumes is where the volume appeared, as GROBID labels it
    text = "J. Comaroff, Of Revelation and Revolution, vol. 2: The Dialectics of Modernity. Chicago, 1997."
    volumes = read_runs(text, [("author", "J. Comaroff"), ("booktitle", "Of Revelation and Revolution"),
                               ("volume", "2"), ("title", "The Dialectics of Modernity"), ("place", "Chicago"),
                               ("date", "1997")])
    assert (volumes.title, volumes.container) == ("The Dialectics of Modernity", "Of Revelation and Revolution")


def test_a_journals_part_numeral_is_the_journals():
    for text, journal, part in [
            ("S. L. Garzoli. The South Atlantic. Deep-Sea Research II, 58 (17-18): 1837–1847, 2011.",
             "Deep-Sea Research II", "II"),
            ("S. L. Garzoli. The South Atlantic. Deep-Sea Research Part II, 58(17–18), 1837–1847.",
             "Deep-Sea Research Part II", "Part II")]:
        name = journal.removesuffix(f" {part}")
        parsed = read_runs(text, [("author", "S. L. Garzoli"), ("title", "The South Atlantic"), ("journal", name),
                                  ("volume", "II"), ("volume", "58"), ("pages", "1837–1847")])
        assert (parsed.container, parsed.volume) == (journal, "58"), text
    # a numeral that is the only volume stays the volume
    alone = read_runs("A. Smith. Waves. Ocean Letters II, 1837–1847, 2011.",
                      [("author", "A. Smith"), ("title", "Waves"), ("journal", "Ocean Letters"), ("volume", "II"),
                       ("pages", "1837–1847"), ("date", "2011")])
    assert (alone.container, alone.volume) == ("Ocean Letters", "II")


def test_the_pages_cue_is_not_the_pages():
    text = "J. Böhm. Parallel computations. In Proceedings of ISSAC '21, page 11–14, New York, 2021."
    parsed = read_runs(text, [("author", "J. Böhm"), ("title", "Parallel computations"),
                              ("booktitle", "Proceedings of ISSAC '21"), ("pages", "page 11–14"),
                              ("place", "New York"), ("date", "2021")])
    assert parsed.pages == "11–14"
    dotted = read_runs("A. Smith, Waves, J. Phys. 12, p. 245 (2001).",
                       [("author", "A. Smith"), ("title", "Waves"), ("journal", "J. Phys"), ("volume", "12"),
                        ("pages", "p. 245"), ("date", "2001")])
    assert dotted.pages == "245"
    # a letter printed on the number is the page's own
    supplement = read_runs("A. Smith, Waves, J. Phys. 12, S245 (2001).",
                           [("author", "A. Smith"), ("title", "Waves"), ("journal", "J. Phys"), ("volume", "12"),
                            ("pages", "S245"), ("date", "2001")])
    assert supplement.pages == "S245"


def test_an_article_numbers_letters_are_the_numbers():
    science = read_runs("R. M. van Westen. AMOC is on tipping course. Science Advances 10, eadk1189 (2024).",
                        [("author", "R. M. van Westen"), ("title", "AMOC is on tipping course"),
                         ("journal", "Science Advances"), ("volume", "10"), ("pages", "1189"), ("date", "2024")])
    assert science.pages == "eadk1189"
    agu = read_runs("R. M. van Westen. AMOC hysteresis. Geophys. Res. Lett. 50, e2023GL106088 (2023).",
                    [("author", "R. M. van Westen"), ("title", "AMOC hysteresis"), ("journal", "Geophys. Res. Lett"),
                     ("volume", "50"), ("pages", "106088"), ("date", "2023")])
    assert agu.pages == "e2023GL106088"
    # a page cue glued to its number is no letter of it
    cue = read_runs("A. Smith, Waves, J. Phys. 12, p245 (2001).",
                    [("author", "A. Smith"), ("title", "Waves"), ("journal", "J. Phys"), ("volume", "12"),
                     ("pages", "245"), ("date", "2001")])
    assert cue.pages == "245"


def test_an_issue_in_brackets_after_the_volume_is_the_issue():
    parsed = read_runs("D. C. Liu and J. Nocedal. On the limited memory BFGS method. Mathematical programming, "
                       "45(1-3):503–528, 1989.",
                       [("author", "D. C. Liu and J. Nocedal"), ("title", "On the limited memory BFGS method"),
                        ("journal", "Mathematical programming"), ("volume", "45(1-3)"), ("pages", "503–528"),
                        ("date", "1989")])
    assert (parsed.volume, parsed.issue) == ("45", "1-3")


def test_a_title_opening_with_a_number_in_thousands_is_read_whole():
    # the tagger read "SQuAD: 100" as a volume and began the title after the number's comma
    text = ("Rajpurkar, P., Zhang, J., Lopyrev, K., Liang, P.: SQuAD: 100,000+ questions for machine comprehension "
            "of text. In: Proceedings of EMNLP. pp. 2383–2392 (2016)")
    parsed = read_runs(text, [("author", "Rajpurkar, P., Zhang, J., Lopyrev, K., Liang, P"), ("volume", "SQuAD: 100"),
                              ("title", "000+ questions for machine comprehension of text"),
                              ("booktitle", "Proceedings of EMNLP"), ("pages", "2383–2392"), ("date", "2016")])
    assert parsed.title == "SQuAD: 100,000+ questions for machine comprehension of text"
    assert [n.family for n in parsed.names] == ["Rajpurkar", "Zhang", "Lopyrev", "Liang"]
    # a volume, then a title opening with a number, a comma and a space apart, are no number in thousands
    numbers = read_runs("A. Smith, Phys. Rev. 100, 123 years of quantum theory (2001).",
                        [("author", "A. Smith"), ("journal", "Phys. Rev."), ("volume", "100"),
                         ("title", "123 years of quantum theory"), ("date", "2001")])
    assert (numbers.volume, numbers.title) == ("100", "123 years of quantum theory")
