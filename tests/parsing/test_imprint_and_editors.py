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
