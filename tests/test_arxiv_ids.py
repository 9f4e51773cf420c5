import pytest

from citations.arxiv_ids import InvalidArxivId, arxiv_doi, is_canonical_arxiv_id, parse_arxiv_id


@pytest.mark.parametrize("text, canonical, version", [
    ("2509.11076", "2509.11076", None),
    ("arXiv:1909.08053v2", "1909.08053", 2),
    ("0704.0001", "0704.0001", None),
    ("1412.6980v9", "1412.6980", 9),
    ("hep-th/9901001", "hep-th/9901001", None),
    ("math.AG/0101001v3", "math.AG/0101001", 3),
])
def test_valid_ids_normalise(text, canonical, version):
    parsed = parse_arxiv_id(text)
    assert (parsed.id, parsed.version) == (canonical, version)


@pytest.mark.parametrize("text, problem", [
    ("2513.01234", "month 13"),
    ("1501.1234", "five digits"),
    ("1412.12345", "four digits"),
    ("0612.1234", "April 2007"),
    ("foo-th/9901001", "not an arXiv archive"),
    ("hep-th/0801001", "March 2007"),
    ("not an id", "not an arXiv identifier"),
])
def test_impossible_ids_name_their_problem(text, problem):
    with pytest.raises(InvalidArxivId, match=problem):
        parse_arxiv_id(text)


def test_canonical_form_has_no_prefix_or_version():
    assert is_canonical_arxiv_id("2509.11076")
    assert not is_canonical_arxiv_id("2509.11076v1")
    assert not is_canonical_arxiv_id("arXiv:2509.11076")
    assert not is_canonical_arxiv_id("../etc/passwd")


def test_arxiv_doi_is_lower_case():
    assert arxiv_doi("2509.23722") == "10.48550/arxiv.2509.23722"
