"""Author lists a style cuts short, as a reader checks them: the names printed are the authors, and
the words that say some were left out are neither a name nor the title."""
from citations.parsing.crf import parse_reference, parse_references
from tests.parsing.labelled_runs import read_runs


def test_acls_and_n_others_closes_the_author_list_as_et_al_does():
    # ACL's style (acl_natbib) prints "and 2 others" where others print "et al."
    long = parse_reference(
        "Andy Zou, Long Phan, Sarah Chen, James Campbell, Phillip Guo, Richard Ren, Alexander Pan, Xuwang Yin, "
        "Mantas Mazeika, Ann-Kathrin Dombrowski, Shashwat Goel, Nathaniel Li, Michael J. Byun, Zifan Wang, "
        "Alex Mallen, Steven Basart, Sanmi Koyejo, Dawn Song, Matt Fredrikson, and 2 others. 2023. "
        "Representation engineering: A top-down approach to AI transparency. arXiv preprint arXiv:2310.01405.")
    assert long.title == "Representation engineering: A top-down approach to AI transparency"
    assert [n.family for n in long.names][-2:] == ["Song", "Fredrikson"]
    assert long.place is None
    assert long.arxiv_id == "2310.01405"
    short, one = parse_references([
        "Xavier Suau and 1 others. 2024. Whispering experts: Neural interventions for toxicity mitigation in "
        "language models. In International Conference on Machine Learning.",
        "Patrick Chao, Edgar Debenedetti, Alexander Sichermann, Maksym Andriushchenko, and 1 others. 2024. "
        "JailbreakBench: An open robustness benchmark for jailbreaking large language models. arXiv preprint "
        "arXiv:2404.01318."])
    assert [n.family for n in short.names] == ["Suau"]
    assert short.authors == ("Xavier Suau",)
    assert short.container == "International Conference on Machine Learning"
    assert [n.family for n in one.names] == ["Chao", "Debenedetti", "Sichermann", "Andriushchenko"]
    # "others" in a title is the title's
    title = parse_reference("J. Smith. Learning from others. Journal of Things, 3(2):1-9, 2020.")
    assert title.title == "Learning from others"


def test_a_title_ending_in_a_models_size_ends_at_its_stop():
    # "7B." closes a sentence; "B." after a space is an initial's stop, which closes none
    text = ("Albert Q. Jiang, Alexandre Sablayrolles, Arthur Mensch, and Lucile Saulnier. 2023. Mistral 7B. "
            "arXiv preprint arXiv:2310.06825.")
    parsed = read_runs(text, [("author", "Albert Q. Jiang, Alexandre Sablayrolles, Arthur Mensch, and Lucile Saulnier"),
                              ("date", "2023"), ("note", "Mistral 7B. arXiv preprint")])
    assert parsed.title == "Mistral 7B"
    assert parsed.note == "arXiv preprint"
    assert parsed.arxiv_id == "2310.06825"
    initial = read_runs("Smith, J. 2023. Alice B. Toklas and her kitchen. Cookbooks Press.",
                        [("author", "Smith, J."), ("date", "2023"), ("note", "Alice B. Toklas and her kitchen")])
    assert initial.title == "Alice B. Toklas and her kitchen"


def test_st_opening_the_title_is_not_the_last_authors():
    text = ("Siyu Chen, Xue Wang, and Yang Yu. St. John's wort exacerbates acetaminophen-induced liver injury. "
            "Toxicological Sciences, 190 (1): 68–80, 2022.")
    parsed = read_runs(text, [("author", "Siyu Chen, Xue Wang, and Yang Yu. St"),
                              ("title", "John's wort exacerbates acetaminophen-induced liver injury"),
                              ("journal", "Toxicological Sciences"), ("volume", "190"), ("date", "2022")])
    assert parsed.title == "St. John's wort exacerbates acetaminophen-induced liver injury"
    assert [n.family for n in parsed.names] == ["Chen", "Wang", "Yu"]
    # "St." after a comma is a name's own abbreviation ("Kowalski, St." for Stanisław), not the title's
    name = read_runs("Kowalski, St. Teoria grafów. Warszawa, 1970.",
                     [("author", "Kowalski, St"), ("title", "Teoria grafów"), ("place", "Warszawa"), ("date", "1970")])
    assert (name.title, [n.family for n in name.names]) == ("Teoria grafów", ["Kowalski"])
