"""A book's imprint and its editors as a reader of parsed references would check them."""
from tests.parsing.labelled_runs import read_as, read_runs


def test_a_publisher_printed_before_its_place_is_the_publisher():
    # REVTeX's "(Publisher, Address, Year)": the tagger read the publisher as the place's first word
    parsed = read_runs("D. P. Craig, Molecular Quantum Electrodynamics (Dover, Mineola, NY, 1998).",
                       [("author", "D. P. Craig"), ("title", "Molecular Quantum Electrodynamics"),
                        ("place", "Dover, Mineola, NY"), ("date", "1998")])
    assert (parsed.publisher, parsed.place) == ("Dover", "Mineola, NY")
    elsevier = read_runs("M. Abramowitz and I.A. Stegun, Handbook of Mathematical Functions, Dover (New York 1965)",
                         [("author", "M. Abramowitz and I.A. Stegun"), ("booktitle", "Handbook of Mathematical Functions"),
                          ("place", "Dover (New York"), ("date", "1965")])
    assert (elsevier.publisher, elsevier.place) == ("Dover", "New York")
    # a city and its state are one place
    state = read_runs("A. Smith, Lectures on Physics (Cambridge, MA, 1990).",
                      [("author", "A. Smith"), ("title", "Lectures on Physics"), ("place", "Cambridge, MA"),
                       ("date", "1990")])
    assert (state.publisher, state.place) == (None, "Cambridge, MA")


def test_names_et_al_then_eds_are_the_editors():
    text = "G. Apollinari et al. (eds.), High Luminosity Large Hadron Collider: Preliminary Design Report (2015)."
    title = "High Luminosity Large Hadron Collider: Preliminary Design Report"
    parsed = read_runs(text, [("author", "G. Apollinari et al"), ("title", title), ("date", "2015")])
    assert parsed.authors == ()
    assert [n.family for n in parsed.editors] == ["Apollinari"]


def test_a_publisher_read_as_a_journal_or_a_title_is_the_publisher():
    text = "Mostepanenko, V.M., Trunov, N.N.: The Casimir Effect and its Applications. Clarendon, Oxford (1997)"
    parsed = read_runs(text, [("author", "Mostepanenko, V.M., Trunov, N.N."),
                              ("title", "The Casimir Effect and its Applications"), ("journal", "Clarendon"),
                              ("place", "Oxford"), ("date", "1997")])
    assert (parsed.container, parsed.publisher, parsed.place) == (None, "Clarendon", "Oxford")
    # a journal with its numbers stays a journal
    journal = read_runs("A. Smith, Spin waves. Nature, London 4, 12 (1997)",
                        [("author", "A. Smith"), ("title", "Spin waves"), ("journal", "Nature"),
                         ("place", "London"), ("volume", "4"), ("pages", "12"), ("date", "1997")])
    assert (journal.container, journal.publisher) == ("Nature", None)
    bracketed = read_runs("Bohr A and Mottelson B R 1975 Nuclear Structure vol II (Reading, MA: Benjamin) ch 4",
                          [("author", "Bohr A and Mottelson B R"), ("date", "1975"), ("booktitle", "Nuclear Structure"),
                           ("volume", "II"), ("place", "Reading, MA"), ("title", "Benjamin) ch 4")])
    assert (bracketed.publisher, bracketed.note) == ("Benjamin", "ch 4")
    assert bracketed.title == "Nuclear Structure"
    # a journal's long name before its city stays the journal
    academy = read_runs("Einstein, A.: Integration der Feldgleichungen. Sitzungsberichte der Preussischen Akademie der "
                        "Wissenschaften, Berlin (1916)",
                        [("author", "Einstein, A."), ("title", "Integration der Feldgleichungen"),
                         ("journal", "Sitzungsberichte der Preussischen Akademie der Wissenschaften"), ("place", "Berlin"),
                         ("date", "1916")])
    assert (academy.container, academy.publisher) == ("Sitzungsberichte der Preussischen Akademie der Wissenschaften",
                                                      None)


def test_the_of_between_a_volume_and_its_series_is_neither_s():
    text = ("P. S. Ozsváth, A. I. Stipsicz, and Z. Szabó. Grid homology for knots and links, volume 208 of "
            "Mathematical Surveys and Monographs. American Mathematical Society, Providence, RI, 2015.")
    parsed = read_as(text, author="P. S. Ozsváth, A. I. Stipsicz, and Z. Szabó",
                     title="Grid homology for knots and links", volume="208", series="of Mathematical Surveys and Monographs",
                     publisher="American Mathematical Society", place="Providence, RI", date="2015")
    assert (parsed.container, parsed.volume) == ("Mathematical Surveys and Monographs", "208")
    # a series whose own name holds "of" keeps it
    named = read_as("A. Smith. Notes, volume 3 of Proceedings of Machine Learning Research, 2014.", author="A. Smith",
                    title="Notes", volume="3", series="Proceedings of Machine Learning Research", date="2014")
    assert named.container == "Proceedings of Machine Learning Research"


ROBERTA = ("Yinhan Liu, Myle Ott, Ed Chi, Danqi Chen, and Veselin Stoyanov. RoBERTa: A robustly optimized BERT "
           "pretraining approach. arXiv preprint arXiv:1907.11692, 2019.")


def test_names_read_on_as_editors_where_no_editor_is_named_are_the_authors():
    # a long author list: the tagger reads its first names as authors and the rest as editors
    runs = [("author", "Yinhan Liu, Myle Ott"), ("editor", "Ed Chi, Danqi Chen, and Veselin Stoyanov"),
            ("title", "RoBERTa: A robustly optimized BERT pretraining approach"), ("date", "2019")]
    parsed = read_runs(ROBERTA, runs)
    assert [n.family for n in parsed.names] == ["Liu", "Ott", "Chi", "Chen", "Stoyanov"] and parsed.editors == ()
    # where the string names editors, the names stay theirs
    edited = ROBERTA.replace("Stoyanov.", "Stoyanov (eds.).")
    parsed = read_runs(edited, runs[:2] + [("other", "(eds.)")] + runs[2:])
    assert [n.family for n in parsed.editors] == ["Chi", "Chen", "Stoyanov"]


def test_an_acronym_after_in_read_as_an_editor_is_the_proceedings():
    text = "Kimin Lee and Jinwoo Shin. A simple unified framework. In NeurIPS, 2018."
    runs = [("author", "Kimin Lee and Jinwoo Shin"), ("title", "A simple unified framework"), ("editor", "NeurIPS"),
            ("date", "2018")]
    parsed = read_runs(text, runs)
    assert (parsed.container, parsed.editors) == ("NeurIPS", ())
    # a name after "In" is an editor's (a volume cited by its editors' names)
    text = "Deitering, Cynthia. The Postnatural Novel. In Glotfelty and Fromm, 196-203."
    parsed = read_runs(text, [("author", "Deitering, Cynthia"), ("title", "The Postnatural Novel"),
                              ("editor", "Glotfelty and Fromm"), ("pages", "196-203")])
    assert parsed.container is None and [n.family for n in parsed.editors] == ["Glotfelty", "Fromm"]


def test_what_a_books_volume_is_of_is_its_series_not_a_journal():
    text = "S. Jacobs and R. Bloem. Parameterized synthesis. In TACAS, volume 7214 of LNCS, pages 362–376. Springer, 2012."
    runs = [("author", "S. Jacobs and R. Bloem"), ("title", "Parameterized synthesis"), ("booktitle", "TACAS"),
            ("volume", "7214"), ("journal", "LNCS"), ("pages", "362–376"), ("publisher", "Springer"), ("date", "2012")]
    parsed = read_runs(text, runs)
    assert (parsed.container, parsed.volume) == ("TACAS", "7214")
    # a journal's own volume, with no book before it, stays the journal's
    alone = read_runs("A. Smith. A title. Volume 7 of Physics Letters, pages 1-2, 2012.",
                      [("author", "A. Smith"), ("title", "A title"), ("volume", "7"), ("journal", "Physics Letters"),
                       ("pages", "1-2"), ("date", "2012")])
    assert alone.container == "Physics Letters"


def test_a_series_before_its_volume_and_book_leaves_the_book_the_container():
    # AASTeX prints a proceedings volume's series and number before the book's title
    text = ("Allard, F., Homeier, D., & Freytag, B. 2011, in Astronomical Society of the Pacific Conference Series, "
            "Vol. 448, 16th Cambridge Workshop on Cool Stars, Stellar Systems, and the Sun, ed. C. Johns-Krull, 91")
    book = "16th Cambridge Workshop on Cool Stars, Stellar Systems, and the Sun"
    parsed = read_runs(text, [("author", "Allard, F., Homeier, D., & Freytag, B"), ("date", "2011"),
                              ("booktitle", "Astronomical Society of the Pacific Conference Series"),
                              ("volume", "448"), ("booktitle", book), ("editor", "C. Johns-Krull"), ("pages", "91")])
    assert (parsed.container, parsed.volume) == (book, "448")
    # a series known by its book's editors, not by its name
    esa = read_runs("Harvey, J. 1985, in ESA Special Publication, Vol. 235, Future Missions in Solar Physics, "
                    "ed. E. Rolfe, 199",
                    [("author", "Harvey, J"), ("date", "1985"), ("journal", "ESA Special Publication"),
                     ("volume", "235"), ("booktitle", "Future Missions in Solar Physics"), ("editor", "E. Rolfe"),
                     ("pages", "199")])
    assert esa.container == "Future Missions in Solar Physics"
    # a journal's volume and a book after it, with neither a series' name nor editors, stay as read
    journal = read_runs("A. Smith. A title. Physics Letters, Vol. 7, Special Issue on Waves, 2012.",
                        [("author", "A. Smith"), ("title", "A title"), ("journal", "Physics Letters"), ("volume", "7"),
                         ("booktitle", "Special Issue on Waves"), ("date", "2012")])
    assert journal.container == "Physics Letters"


def test_a_journal_read_as_a_publisher_is_the_journal():
    # a journal's numbers after it: pages after a colon
    parsed = read_runs("P. A. Zyla et al. Review of Particle Physics. PTEP, 2020 (8): 083C01, 2020.",
                       [("author", "P. A. Zyla et al"), ("title", "Review of Particle Physics"), ("publisher", "PTEP"),
                        ("date", "2020"), ("pages", "083C01"), ("date", "2020")])
    assert (parsed.container, parsed.publisher) == ("PTEP", None)
    # a journal's word opening its name
    tacl = read_runs("R. Kamoi and R. Zhang. A critical survey of self-correction of LLMs. Transactions of the "
                     "Association for Computational Linguistics, 2025.",
                     [("author", "R. Kamoi and R. Zhang"), ("title", "A critical survey of self-correction of LLMs"),
                      ("publisher", "Transactions of the Association for Computational Linguistics"), ("date", "2025")])
    assert tacl.container == "Transactions of the Association for Computational Linguistics"
    # a book's publisher stays one: its pages have their cue, its name a publisher's word, or a place before it
    for text, runs in [
            ("H. Dörrie. 100 Great Problems. Dover Publications, pp. 112–116, 1965.",
             [("author", "H. Dörrie"), ("title", "100 Great Problems"), ("publisher", "Dover Publications"),
              ("pages", "112–116"), ("date", "1965")]),
            ("A. Smith. Letters on Physics. Journal Press, 12(3):1–9, 1990.",
             [("author", "A. Smith"), ("title", "Letters on Physics"), ("publisher", "Journal Press"),
              ("volume", "12"), ("issue", "3"), ("pages", "1–9"), ("date", "1990")]),
            ("Mitchell C. Clinical Endocrinology. Baltimore: Williams and Wilkins, 1994:651–666.",
             [("author", "Mitchell C"), ("title", "Clinical Endocrinology"), ("place", "Baltimore"),
              ("publisher", "Williams and Wilkins"), ("date", "1994"), ("pages", "651–666")]),
            ("P. Warburg. Essays on Banking Reform. Academy of Political Science, 1914.",
             [("author", "P. Warburg"), ("title", "Essays on Banking Reform"),
              ("publisher", "Academy of Political Science"), ("date", "1914")])]:
        parsed = read_runs(text, runs)
        assert parsed.container is None and parsed.publisher, text


def test_a_publisher_after_the_proceedings_name_is_the_publisher():
    book = "Conference on Algebra and Coalgebra in Computer Science (CALCO)"
    publisher = "Schloss Dagstuhl-Leibniz-Zentrum für Informatik"
    parsed = read_runs(f"G. Nakov. Quantitative polynomial functors. In {book}. {publisher}, 2021.",
                       [("author", "G. Nakov"), ("title", "Quantitative polynomial functors"),
                        ("booktitle", f"{book}. {publisher}"), ("date", "2021")])
    assert (parsed.container, parsed.publisher) == (book, publisher)
    # an abbreviated name has stops throughout; a number after the stop is the conference's, not a publisher
    witkin = "A. P. Witkin. Scale-space filtering. In Proc. Intl. Joint Conf. Art. Intell., pages 1019-1023."
    missiuro = "P. Missiuro, “Roadmaps,” in Proceedings of the Conference on Robotics, 2006. ICRA 2006., pp. 1-2."
    for text, book in [(witkin, "Proc. Intl. Joint Conf. Art. Intell"),
                       (missiuro, "Proceedings of the Conference on Robotics, 2006. ICRA 2006")]:
        parsed = read_runs(text, [("booktitle", book)])
        assert (parsed.container, parsed.publisher) == (book, None), text


def test_a_publisher_read_into_a_books_title_is_the_publisher():
    # natbib's "Title. Publisher, Address, Year.": the tagger read on past the title's stop
    parsed = read_runs("Daniel Kahneman. Thinking, Fast and Slow. Farrar, Straus and Giroux, New York, 2011.",
                       [("author", "Daniel Kahneman"), ("title", "Thinking, Fast and Slow. Farrar, Straus and Giroux"),
                        ("place", "New York"), ("date", "2011")])
    assert (parsed.title, parsed.publisher, parsed.place) == ("Thinking, Fast and Slow", "Farrar, Straus and Giroux",
                                                              "New York")
    versioned = read_runs("Wim De Neys, editor. Dual Process Theory 2.0. Routledge, London, 2017.",
                          [("editor", "Wim De Neys"), ("title", "Dual Process Theory 2.0. Routledge"),
                           ("place", "London"), ("date", "2017")])
    assert (versioned.title, versioned.publisher) == ("Dual Process Theory 2.0", "Routledge")
    # a subtitle before a place and a year with no comma between them, proceedings, a series or a journal
    # after a stop cut short stay the title's
    for text, author, title, place, date in [
            ("A. Parry, The Making of Homeric Verse. The Collected Papers, Oxford 1971.", "A. Parry",
             "The Making of Homeric Verse. The Collected Papers", "Oxford", "1971"),
            ("V. Smith, Proc. Int. ARENA2008 Workshop, Rome, 2008.", "V. Smith", "Proc. Int. ARENA2008 Workshop",
             "Rome", "2008"),
            ("A. Smith. Waves. Lecture notes in physics, Berlin, 2008.", "A. Smith", "Waves. Lecture notes in physics",
             "Berlin", "2008"),
            ("A. Smith. Waves at sea. Phys. Condensed Matter, Bristol, 2008.", "A. Smith",
             "Waves at sea. Phys. Condensed Matter", "Bristol", "2008")]:
        parsed = read_runs(text, [("author", author), ("title", title), ("place", place), ("date", date)])
        assert (parsed.title, parsed.publisher) == (title, None), text
