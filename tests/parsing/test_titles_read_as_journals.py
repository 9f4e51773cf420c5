"""A title the tagger read as part of the journal after it, as a reader of a record checks it: the
title is the work's, the journal is where it appeared, and a journal's own name stays whole."""
from tests.parsing.labelled_runs import read_runs


def test_a_title_before_the_journals_name_in_one_sentence_run_is_the_title():
    # ACM's and Springer's styles: "Authors. Year. Title. Journal Volume"
    acm = read_runs("Gérard Berry and Gérard Boudol. 1992. The Chemical Abstract Machine. Theoretical Computer Science "
                    "96, 1 (1992), 217–248.",
                    [("author", "Gérard Berry and Gérard Boudol"), ("date", "1992"),
                     ("journal", "The Chemical Abstract Machine. Theoretical Computer Science"), ("volume", "96"),
                     ("issue", "1"), ("date", "1992"), ("pages", "217–248")])
    assert (acm.title, acm.container) == ("The Chemical Abstract Machine", "Theoretical Computer Science")
    lncs = read_runs("Berners-Lee, T., Hendler, J., Lassila, O.: The Semantic Web. Scientific American 284(5), 34–43 "
                     "(May 2001)",
                     [("author", "Berners-Lee, T., Hendler, J., Lassila, O"),
                      ("journal", "The Semantic Web. Scientific American"), ("volume", "284"), ("issue", "5"),
                      ("pages", "34–43"), ("date", "May 2001")])
    assert (lncs.title, lncs.container) == ("The Semantic Web", "Scientific American")


def test_a_journals_name_with_the_stops_of_its_abbreviations_stays_whole():
    for author, journal, volume, pages in (
            ("T. Kadowaki and H. Nishimori", "Phys. Rev. E", "58", "5355"),
            ("M. Fiedler", "Czechoslovak Math. J.", "23", "298"),
            ("Weising et al.", "Annual Rev. Genet", "22", "241"),
            ("A. Pillay", "Quantum Inf. Process.", "20", "202"),
            ("A. Lucas", "Front. Phys.", "2", "5"),
            ("R. Bingham", "Laser Part. Beams", "13", "451"),
            ("A. Fract", "Engng Muter. Struct", "15", "1281"),
            ("A. Smith", "Nature Reviews. Drug Discovery", "12", "5"),
            # journals' names as PubMed prints them, known to the lexicon
            ("A. Smith", "The Lancet. Oncology", "12", "5"),
            ("A. Smith", "The Lancet. Digital Health", "3", "5"),
            ("A. Smith", "Journal of Physics. Condensed Matter", "12", "5")):
        text = f"{author}, {journal} {volume}, {pages} (2013)."
        parsed = read_runs(text, [("author", author), ("journal", journal), ("volume", volume), ("pages", pages)])
        assert (parsed.title, parsed.container) == (None, journal.rstrip(".")), text


def test_a_title_and_journal_with_no_numbers_after_them_are_left_as_read():
    # a book's title and its series, or a report: no journal's numbers say the second sentence is a journal
    parsed = read_runs("A. Smith. The Semantic Web. Scientific American, 2001.",
                       [("author", "A. Smith"), ("journal", "The Semantic Web. Scientific American"), ("date", "2001")])
    assert parsed.title is None


def test_a_note_before_a_volume_is_the_journal_the_volume_is_of():
    parsed = read_runs("Lee, S. et al. (2020). Fluent genomics with plyranges and tximeta. F1000Research, 9.",
                       [("author", "Lee, S. et al."), ("date", "2020"),
                        ("title", "Fluent genomics with plyranges and tximeta"), ("note", "F1000Research"),
                        ("volume", "9")])
    assert (parsed.container, parsed.volume, parsed.note) == ("F1000Research", "9", None)
    spaced = read_runs("K. Faust, J. Raes, Conet app: inference of biological association networks using cytoscape. "
                       "F1000Research 5 (2016).",
                       [("author", "K. Faust, J. Raes"), ("title", "Conet app: inference of biological association "
                        "networks using cytoscape"), ("note", "F1000Research"), ("volume", "5"), ("date", "2016")])
    assert (spaced.container, spaced.volume) == ("F1000Research", "5")
    # a note a cue says is one, one in the title's sentence, or one with more than a comma before the number,
    # stays a note
    for text, note in (("A. Smith. Waves in water. Technical report, 9.", "Technical report"),
                       ("A. Smith. Waves in water, Oxford talks, 9.", "Oxford talks"),
                       ("A. Smith. Waves in water. Talk at Oxford (2020), 9.", "Talk at Oxford")):
        kept = read_runs(text, [("author", "A. Smith"), ("title", "Waves in water"), ("note", note), ("volume", "9")])
        assert (kept.container, kept.note) == (None, note), text
