from citations.parsing.names import split_names


def families(text):
    return [(n.family, n.given) for n in split_names(text)]


def test_inverted_names_pair_a_family_name_with_its_initials():
    assert families("Barron, A. R., Birgé, L. and Massart, P.") == [("Barron", "A. R."), ("Birgé", "L."), ("Massart", "P.")]


def test_family_names_set_in_capitals_are_family_names_not_initials():
    # small capitals come out of a PDF as capitals; the initials' stops tell the family name
    assert families("GOLDSMITH, J., BOBB, J., CRAINICEANU, C. M. and LIU, H.") == [
        ("GOLDSMITH", "J."), ("BOBB", "J."), ("CRAINICEANU", "C. M."), ("LIU", "H.")]
    # a family name of two words, set in capitals, is one name
    assert families("BEYAZTAS, U. and LIN SHANG, H.") == [("BEYAZTAS", "U."), ("LIN SHANG", "H.")]
    assert families("Smith JK, Liu H") == [("Smith", "JK"), ("Liu", "H")]


def test_names_written_given_first_are_split_at_commas():
    assert families("Tianqi Chen, Bing Xu, and Carlos Guestrin") == [("Chen", "Tianqi"), ("Xu", "Bing"), ("Guestrin", "Carlos")]


def test_the_and_after_a_lists_last_semicolon_joins_the_last_name():
    # AAAI and ACL styles; before, "and Setiawan" was one name and "H." another
    assert families("Pires, T. P.; Assogba, Y.; and Setiawan, H.") == [
        ("Pires", "T. P."), ("Assogba", "Y."), ("Setiawan", "H.")]
    assert families("Dale, R.; Mellish, C.; & Zock, M.") == [("Dale", "R."), ("Mellish", "C."), ("Zock", "M.")]
    assert families("Andersen, K.; Anderson, L.") == [("Andersen", "K."), ("Anderson", "L.")]


def test_a_family_name_of_two_words_before_its_initials_is_one_name():
    # before, "Foygel Barber" and "R." were two names
    assert families("Tibshirani, R. J., Foygel Barber, R., and Ramdas, A.") == [
        ("Tibshirani", "R. J."), ("Foygel Barber", "R."), ("Ramdas", "A.")]
    assert families("Roschewitz, M., de Sousa Ribeiro, F., zur Wiesch, J. S.") == [
        ("Roschewitz", "M."), ("de Sousa Ribeiro", "F."), ("zur Wiesch", "J. S.")]
    assert families("Yann LeCun, Y. Bengio") == [("LeCun", "Yann"), ("Bengio", "Y.")]


def test_a_suffix_ends_the_name_before_it():
    assert [n.text for n in split_names("J. L. Kelly, Jr., A. Smith")] == ["J. L. Kelly, Jr.", "A. Smith"]
    assert families("John Kelly, Jr.") == [("Kelly", "John")]


def test_vancouver_names_keep_their_initials_after_the_family_name():
    assert families("Toroser D, Sohal RS") == [("Toroser", "D"), ("Sohal", "RS")]


def test_et_al_is_no_name_and_a_collaboration_is_one():
    assert families("Yanli Zhao, Andrew Gu, et al.") == [("Zhao", "Yanli"), ("Gu", "Andrew")]
    assert families("ATLAS Collaboration") == [("ATLAS Collaboration", None)]


def test_particles_stay_with_the_family_name():
    assert families("Ludwig van Beethoven") == [("van Beethoven", "Ludwig")]


def test_a_middle_initial_without_its_stop_is_no_conjunction():
    # "e", "y", "et" and "und" join names in lower case only; "E" is an initial.
    assert families("Jeffrey E Barrick and Richard E Lenski") == [("Barrick", "Jeffrey E"), ("Lenski", "Richard E")]
    assert families("J P Barton, E De Leonardis, A Coucke, and S Cocco") == [
        ("Barton", "J P"), ("De Leonardis", "E"), ("Coucke", "A"), ("Cocco", "S")]
    assert families("Silva, J. e Souza, M.") == [("Silva", "J."), ("Souza", "M.")]
    assert families("García, J. y López, M.") == [("García", "J."), ("López", "M.")]


def test_an_organisation_is_one_name_not_a_given_and_a_family_name():
    assert families("The Cancer Genome Atlas Research Network") == [("The Cancer Genome Atlas Research Network", None)]
    assert families("Redis Ltd") == [("Redis Ltd", None)]
    assert families("Python Software Foundation") == [("Python Software Foundation", None)]
    assert families("O-RAN Alliance") == [("O-RAN Alliance", None)]
    assert families("Thinking Machines Lab") == [("Thinking Machines Lab", None)]
    # a firm's own "&" joins no two names, though "&" elsewhere does
    assert families("McKinsey & Company") == [("McKinsey & Company", None)]
    assert families("Baker & Co, Smith, J.") == [("Baker & Co", None), ("Smith", "J.")]
    assert families("Smith, J., Jones, K. & Sons, P.") == [("Smith", "J."), ("Jones", "K."), ("Sons", "P.")]


def test_a_public_body_named_in_its_own_language_is_one_name():
    # Vancouver's references to health ministries and institutes, as COVID-19 papers cite them
    for name in ("Ministerio de Sanidad", "Istituto Superiore di Sanità", "Bundesministerium für Gesundheit",
                 "Presidenza del Consiglio dei Ministri", "Institut Pasteur", "Université Paris Cité"):
        assert families(name) == [(name, None)], name
    # a person named like one of those words is still a person
    assert families("Ministeri, A.") == [("Ministeri", "A.")]


def test_a_family_name_of_several_words_before_its_initials_is_whole():
    # MNRAS and A&A print the family name first, initials after, no comma between.
    assert families("Dalla Vecchia C., Schaye J.") == [("Dalla Vecchia", "C."), ("Schaye", "J.")]
    assert families("van Dokkum P. G., da Cunha E., Le Cras C.") == [
        ("van Dokkum", "P. G."), ("da Cunha", "E."), ("Le Cras", "C.")]
    assert families("Vander Heiden MG, Cantley LC") == [("Vander Heiden", "MG"), ("Cantley", "LC")]
    # a word of capitals longer than initials is a name: given first, its family name is last
    assert families("Jane SMITH, John DOWLING") == [("SMITH", "Jane"), ("DOWLING", "John")]


def test_hyphenated_initials_with_stops_are_initials():
    assert families("Hou K.-C., Hirashita H.") == [("Hou", "K.-C."), ("Hirashita", "H.")]
    assert families("Demory, B.-O., Gillon, M., de Wit, J.") == [("Demory", "B.-O."), ("Gillon", "M."), ("de Wit", "J.")]


def test_a_name_opening_with_an_acronym_is_an_organisations():
    for text in ("NASA CCMC", "NASA Goddard Space Flight Center Archive", "SWORM Subcommittee"):
        (name,) = split_names(text)
        assert (name.family, name.given) == (text, None), text
    # a person's name set in capitals, and undotted initials, are still a person's
    for text, family in (("JOHN SMITH", "SMITH"), ("WOJCIECH ZAREMBA", "ZAREMBA"), ("JRR Tolkien", "Tolkien")):
        (name,) = split_names(text)
        assert name.family == family, text


def test_a_style_set_in_another_language_joins_the_last_name_with_its_own_word():
    # a Hungarian thesis's abbrvnat: before, "és Koyama" was one name and "M." another
    assert families("Ohta, T., és Koyama, M.") == [("Ohta", "T."), ("Koyama", "M.")]
    assert families("de Vries, J. en Jansen, P.") == [("de Vries", "J."), ("Jansen", "P.")]
    assert families("Lindqvist, A. och Berg, K.") == [("Lindqvist", "A."), ("Berg", "K.")]
    # a name set letter-spaced keeps its letters: Catalan's "i" is no joining word here
    assert "".join(n.text for n in split_names("Burger, P h i l i p C.")).replace(" ", "") == "BurgerPhilipC."


def test_a_capitalised_particle_opening_a_two_word_name_is_its_given_name():
    # Chinese given names that are particles elsewhere ("bin", "da"): before, "Bin Ji" was a family name
    assert families("Tianyu Yu, Bin Ji, and Da Huang") == [("Yu", "Tianyu"), ("Ji", "Bin"), ("Huang", "Da")]
    # a particle before a family name after a given name, or in lower case alone, stays the family's
    assert families("Victor De Marez, Michel de Lara") == [("De Marez", "Victor"), ("de Lara", "Michel")]
    assert families("van Dyk") == [("van Dyk", None)]
