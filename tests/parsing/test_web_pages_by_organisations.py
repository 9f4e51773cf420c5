"""Web pages, data sets and software cited by the organisation or the community that made them, as
Vancouver and the natbib styles print them: a reader checks who made it, what it is called and when."""
from tests.parsing.labelled_runs import read_as, read_runs
from tests.parsing.test_names import families


def test_vancouvers_date_after_a_semicolon_is_no_part_of_the_title():
    # the tagger read the semicolon and the year into the title
    text = ("nCov2019: An R package with real-time data and historical data and Shiny app; 2020. Accessed: 2020-03-22. "
            "https://github.com/GuangchuangYu/nCov2019.")
    parsed = read_as(text, title="nCov2019: An R package with real-time data and historical data and Shiny app; 2020",
                     note="Accessed: 2020-03-22")
    assert (parsed.title, parsed.year) == (("nCov2019: An R package with real-time data and historical data and "
                                            "Shiny app"), 2020)
    # where the title's sentence goes on after the year, the year is the title's own
    going_on = read_as("Smith J. Health in Europe; 2020, a report. Geneva: WHO.", title="Health in Europe; 2020")
    assert going_on.title == "Health in Europe; 2020"


def test_an_organisation_named_by_a_lower_case_word_is_the_author_not_the_titles_opening():
    parsed = read_as("Federal office of Public Health. Personal communication from the FOPH, Switzerland;.",
                     title="Federal office of Public Health. Personal communication from the FOPH, Switzerland")
    assert (parsed.authors, parsed.title) == (("Federal office of Public Health",),
                                              "Personal communication from the FOPH, Switzerland")
    community = read_runs("Qdrant contributors. Qdrant: Vector database and similarity search engine. "
                          "https://qdrant.tech/, 2024.",
                          [("title", "Qdrant contributors"),
                           ("title", "Qdrant: Vector database and similarity search engine"), ("date", "2024")])
    assert (community.authors, community.title) == (("Qdrant contributors",),
                                                    "Qdrant: Vector database and similarity search engine")
    # a lower-case word that names no organisation opens a title of two sentences
    title = read_as("Learning to rank. A review of ranking with neural networks. 2019.",
                    title="Learning to rank. A review of ranking with neural networks", date="2019")
    assert (title.authors, title.title) == ((), "Learning to rank. A review of ranking with neural networks")


def test_an_organisation_named_with_its_languages_particles_is_the_author_not_the_titles_opening():
    # the tagger read the institute's name into the title; "di", "del", "della" join the name's words
    for name, title in (("Istituto Superiore di Sanita", "COVID-19 integrated surveillance: the main national data"),
                        ("Presidenza del Consiglio dei Ministri Dipartimento della Protezione Civile",
                         "GitHub repository on COVID-19")):
        parsed = read_as(f"{name}. {title}. https://example.org/. Accessed: 2020-03-22.", title=f"{name}. {title}",
                         note="Accessed: 2020-03-22")
        assert (parsed.authors, parsed.title) == ((name,), title)
        assert [(n.family, n.given) for n in parsed.names] == [(name, None)]


def test_an_organisation_whose_name_opens_with_a_number_is_the_author():
    text = ("1000 Genomes Project Consortium. A map of human genome variation from population scale sequencing. "
            "Nature. 2010;467(7319):1061–1073.")
    parsed = read_runs(text, [("title", "1000 Genomes Project Consortium. A map of human genome variation from "
                                        "population scale sequencing"), ("journal", "Nature"), ("date", "2010")])
    assert (parsed.authors, parsed.title) == (("1000 Genomes Project Consortium",),
                                              "A map of human genome variation from population scale sequencing")
    # a number opening a title's first sentence, with no organisation's word closing it, is the title's
    book = read_runs("100 Great Ideas. A History of Thought in Short Essays. Penguin, 1999.",
                     [("title", "100 Great Ideas. A History of Thought in Short Essays"), ("publisher", "Penguin"),
                      ("date", "1999")])
    assert (book.authors, book.title) == ((), "100 Great Ideas. A History of Thought in Short Essays")


def test_a_community_of_contributors_is_one_name():
    assert families("pgvector contributors") == [("pgvector contributors", None)]
    assert families("The Stockfish Developers") == [("The Stockfish Developers", None)]


def test_what_kind_of_work_a_thing_is_is_a_note_not_its_title():
    # BibTeX's howpublished after the title; the tagger read it into the title
    for text, title, kind in (
            ("ruggsea. 2026. lmkbc26-share: A closed-book system for the lm-kbc 2026 challenge. Public code "
             "repository. https://github.com/ruggsea/lmkbc26-share.",
             "lmkbc26-share: A closed-book system for the lm-kbc 2026 challenge", "Public code repository"),
            ("Grekousis G (2024). geoxgboost: Geographically Weighted XGBoost. Python package on PyPI, URL "
             "https://pypi.org/project/geoxgboost/.", "geoxgboost: Geographically Weighted XGBoost",
             "Python package on PyPI")):
        author = text.split(".")[0].split(" (")[0]
        parsed = read_runs(text, [("author", author), ("title", f"{title}. {kind}")])
        assert (parsed.title, parsed.note) == (title, kind)
    # a subtitle says what the thing is with an article, or at length, or names no kind of work: the title's
    for title in ("Keras. The Python deep learning library",
                  "LAION-5B. Open large-scale dataset for training next generation image-text models",
                  "Spin waves. Magnetism of thin films"):
        subtitle = read_runs(f"Adam Paszke et al. {title}. 2019.", [("author", "Adam Paszke et al."), ("title", title)])
        assert (subtitle.title, subtitle.note) == (title, None)
    # a data set named by what it is, its maker's name read into its title, is named so
    data = read_as("JHU CSSE. COVID-19 data repository. https://github.com/CSSEGISandData/COVID-19.",
                   title="JHU CSSE. COVID-19 data repository")
    assert (data.authors, data.title) == (("JHU CSSE",), "COVID-19 data repository")


def test_an_organisation_opening_the_reference_read_as_the_imprint_is_the_author():
    # no style prints the publisher first: the name before the title is who made it
    for text, runs, name, title in (
            ("Amazon Web Services. Add memory to your Amazon Bedrock AgentCore agent, 2026. URL https://aws.com/.",
             [("publisher", "Amazon Web Services"), ("title", "Add memory to your Amazon Bedrock AgentCore agent"),
              ("date", "2026")], "Amazon Web Services", "Add memory to your Amazon Bedrock AgentCore agent"),
            # Springer's colon after the authors
            ("Qwen Team: QwQ: Reflect, reason, respond. Technical Report, Alibaba Cloud (2025)",
             [("place", "Qwen Team"), ("title", "QwQ: Reflect, reason, respond"), ("note", "Technical Report"),
              ("date", "2025")], "Qwen Team", "QwQ: Reflect, reason, respond"),
            # natbib's empty piece where a person's given names would be
            ("Wikipedia, . Generative adversarial network, 2025a. URL https://en.wikipedia.org/wiki/GAN.",
             [("publisher", "Wikipedia"), ("title", "Generative adversarial network"), ("date", "2025a")],
             "Wikipedia", "Generative adversarial network")):
        parsed = read_runs(text, runs)
        assert (parsed.authors, parsed.title, parsed.publisher) == ((name,), title, None), text
    # a person's name with its initials is left as read
    person = read_runs("Smith K. Add memory to your agent, 2026.",
                       [("publisher", "Smith K"), ("title", "Add memory to your agent"), ("date", "2026")])
    assert person.authors == ()
