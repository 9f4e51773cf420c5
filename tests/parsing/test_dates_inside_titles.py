"""Dates a title names, as a reader checks them: the months of a study's title are the title's, and the
reference's own date is the one printed where its style prints it."""
from tests.parsing.labelled_runs import read_runs


def test_the_months_a_title_names_before_its_stop_are_the_titles_own():
    # Vancouver: the journal, then the date; the tagger read the title's months as the date
    text = ("Riou J, Althaus CL. Pattern of early human-to-human transmission of Wuhan 2019 novel coronavirus "
            "(2019-nCoV), December 2019 to January 2020. Eurosurveillance. 2020;25(4).")
    parsed = read_runs(text, [("author", "Riou J, Althaus CL"),
                              ("title", ("Pattern of early human-to-human transmission of Wuhan 2019 novel "
                                         "coronavirus (2019-nCoV)")),
                              ("date", "December 2019 to January 2020"), ("date", "2020"), ("volume", "25"),
                              ("issue", "4")])
    assert parsed.title == ("Pattern of early human-to-human transmission of Wuhan 2019 novel coronavirus "
                            "(2019-nCoV), December 2019 to January 2020")
    assert (parsed.year, parsed.volume) == (2020, "25")
    # printed once, after the title, the month and year are the reference's date
    dated = read_runs("Smith J. A survey of transmission models, March 2020. Available from: https://example.org.",
                      [("author", "Smith J"), ("title", "A survey of transmission models"), ("date", "March 2020")])
    assert (dated.title, dated.year, dated.month) == ("A survey of transmission models", 2020, 3)
    # a year alone after the title's comma names no months
    year = read_runs("Smith J. Transmission models, 2019. Epidemics. 2020;3(1).",
                     [("author", "Smith J"), ("title", "Transmission models"), ("date", "2019"), ("date", "2020"),
                      ("volume", "3"), ("issue", "1")])
    assert year.title == "Transmission models"
    # a page accessed later dates no reference: the months before it are the reference's date
    accessed = read_runs("Summerhill W. Working draft for the Hoover Seminar, March 6, 2007. www.hoover.org/x.pdf "
                         "(accessed June 7, 2015).",
                         [("author", "Summerhill W"), ("title", "Working draft for the Hoover Seminar"),
                          ("date", "March 6, 2007"), ("date", "June 7, 2015")])
    assert (accessed.title, accessed.year) == ("Working draft for the Hoover Seminar", 2007)


def test_a_year_in_brackets_closing_an_undated_title_is_the_date():
    # Springer Nature's style for a preprint: "Title (2026). URL ..."; the tagger read the year into the title
    text = ("Shen, J. Quantum kernels and the cross-section of stock returns: Anatomy of a vanishing advantage (2026). "
            "URL https://arxiv.org/abs/2607.20168. Preprint, arXiv:2607.20168.")
    title = "Quantum kernels and the cross-section of stock returns: Anatomy of a vanishing advantage"
    parsed = read_runs(text, [("author", "Shen, J."), ("title", f"{title} (2026)")])
    assert (parsed.title, parsed.year) == (title, 2026)
    # dated elsewhere, the year is the title's own
    dated = read_runs("A. Smith. The Olympic Games (1896). Sports History 12, 5 (2001).",
                      [("author", "A. Smith"), ("title", "The Olympic Games (1896)"), ("date", "2001")])
    assert (dated.title, dated.year) == ("The Olympic Games (1896)", 2001)
