import pytest

from citations.parsing.quality import title_problems, year_problems


@pytest.mark.parametrize("title, problem", [
    (None, "no_title"),
    ("Accessed: 2025-06", "title_is_access_date"),
    ("Murray, Benoit Steiner, Paul Tucker, Vijay Vasudevan, Pete Warden, Martin Wicke", "title_is_author_list"),
    ("B, Anshuj Garg, and Purushottam Kulkarni", "title_is_author_list"),
    ("Mary Rogers, John Anderson, and Others", "title_is_author_list"),
    ("InInternational Conference on Machine Learning", "title_is_venue"),
    ("InProceedings of the Twentieth European Conference on Computer Systems", "title_is_venue"),
    ("arXiv preprint arXiv:2304.11277(2023)", "title_is_identifier"),
])
def test_untrustworthy_titles_are_named(title, problem):
    assert title_problems(title) == [problem]


@pytest.mark.parametrize("title", [
    "Megatron-lm: Training multi-billion parameter language models using model parallelism",
    "In-context learning and induction heads",
    "Attention is all you need",
])
def test_ordinary_titles_pass(title):
    assert title_problems(title) == []


def test_a_year_read_from_an_arxiv_id_is_impossible():
    assert year_problems(1909, arxiv_id="1909.08053") == ["year_from_arxiv_id"]
    assert year_problems(2001, arxiv_id="2001.08361") == ["year_from_arxiv_id"]
    assert year_problems(2019, arxiv_id="1909.08053") == []


def test_years_outside_the_possible_range():
    assert year_problems(1500) == ["year_impossible"]
    assert year_problems(3000) == ["year_impossible"]
    assert year_problems(None) == []


def test_a_title_case_title_with_and_is_no_author_list():
    assert title_problems("Knowledge Compilation and Theory Approximation") == []


@pytest.mark.parametrize("title", [
    "Monetary Policy, Parameter Uncertainty, and Optimal Learning",
    "The Wide, Wide World",
    "Chlorination, Chlorination By-products, and Cancer: A Meta-Analysis",
])
def test_a_title_case_title_of_comma_parted_common_words_is_no_author_list(title):
    # Read as an author list, a right title made its reference parse_uncertain, and it was never linked.
    assert title_problems(title) == []
