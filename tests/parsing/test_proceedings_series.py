"""The series a proceedings' name is printed with, as a reader of a record checks the container: the
name is the book's as its BibTeX entry gives it, and the series ("WWW '15", "CHI '18") is not part of it."""
from tests.parsing.labelled_runs import read_runs


def test_acms_series_in_brackets_after_the_proceedings_is_no_part_of_its_name():
    name = "Proceedings of the 24th International Conference on World Wide Web"
    for series in ("WWW '15", "SOSP ’03", "HotCloud'10"):
        parsed = read_runs(f"D. E. Difallah. 2015. The Dynamics of Micro-Task Crowdsourcing. In {name} ({series}). "
                           "ACM, New York, NY, USA, 238–247.",
                           [("author", "D. E. Difallah"), ("date", "2015"), ("title", "The Dynamics of Micro-Task "
                            "Crowdsourcing"), ("booktitle", f"{name} ({series})"), ("publisher", "ACM"),
                            ("place", "New York, NY, USA"), ("pages", "238–247")])
        assert parsed.container == name, series


def test_ieees_series_after_ser_is_no_part_of_the_proceedings_name():
    name = "Proceedings of the 2018 CHI Conference on Human Factors in Computing Systems"
    parsed = read_runs(f"P. J. Guo, “Non-native english speakers learning computer programming,” in {name}, ser. "
                       "CHI '18. New York, NY, USA: ACM, 2018, pp. 1–14.",
                       [("author", "P. J. Guo"), ("title", "Non-native english speakers learning computer programming"),
                        ("booktitle", f"{name}, ser. CHI '18"), ("place", "New York, NY, USA"), ("publisher", "ACM"),
                        ("date", "2018"), ("pages", "1–14")])
    assert parsed.container == name
    # a comma inside a proceedings' name is the name's
    listed = "Proceedings of the ACM Conference on Health, Inference, and Learning"
    parsed = read_runs(f"A. Smith, “A title,” in {listed}, 2020, pp. 1–14.",
                       [("author", "A. Smith"), ("title", "A title"), ("booktitle", listed), ("date", "2020")])
    assert parsed.container == listed


def test_a_bracket_closing_a_proceedings_name_that_is_no_series_stays_in_it():
    # a year in full, a volume's number, words after the year, or an apostrophe that is no year's are the name's
    for bracket in ("ICML 2021", "Volume 12", "Volume 1: Long Papers", "Neutrino '96 Workshop", "ACL 'short'",
                    "SPIE '2021"):
        name = f"Proceedings of the 38th International Conference on Machine Learning ({bracket})"
        parsed = read_runs(f"A. Smith. A title. In {name}. PMLR, 2021.",
                           [("author", "A. Smith"), ("title", "A title"), ("booktitle", name), ("publisher", "PMLR"),
                            ("date", "2021")])
        assert parsed.container == name, bracket
