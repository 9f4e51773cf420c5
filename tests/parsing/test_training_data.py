"""AnyStyle's labels brought to GROBID's convention before training: what a model learns a field is."""
from citations.parsing.training_data import harmonise, read_grobid


def _harmonised(*runs: tuple[str, str]) -> list[tuple[str, str]]:
    words, labels = [], []
    for label, text in runs:
        for word in text.split():
            words.append(word)
            labels.append(label)
    return list(zip(words, harmonise(words, labels)))


def test_an_issue_written_inside_the_volume_is_the_issue():
    assert _harmonised(("journal", "Nature"), ("volume", "36 ( 3 ) ,")) == [
        ("Nature", "journal"), ("36", "volume"), ("(", "other"), ("3", "issue"), (")", "other"), (",", "other")]


def test_pages_written_inside_the_volume_after_a_colon_are_the_pages():
    # Vancouver's "175(7):4769–76": a model taught these are the volume reads no pages in such lists.
    assert _harmonised(("volume", "175 ( 7 ) : 4769 – 76 ,")) == [
        ("175", "volume"), ("(", "other"), ("7", "issue"), (")", "other"), (":", "other"),
        ("4769", "pages"), ("–", "pages"), ("76", "pages"), (",", "other")]
    assert [label for _, label in _harmonised(("volume", "81 ( 4 ) : 044005 ,"))][-2:] == ["pages", "other"]
    assert [label for _, label in _harmonised(("volume", "51 : 197 – 204 ."))] == [
        "volume", "other", "pages", "pages", "pages", "other"]


def test_a_short_number_after_the_volumes_colon_is_not_taken_for_pages():
    assert [label for _, label in _harmonised(("volume", "33 : 3 :"))] == ["volume", "volume", "volume", "other"]


def _grobid(tmp_path, bibl: str) -> dict[str, str]:
    path = tmp_path / "one.xml"
    path.write_text(f'<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><back><listBibl><bibl>{bibl}</bibl>'
                    '</listBibl></back></text></TEI>', encoding="utf-8")
    (string,) = read_grobid(path, "grobid-corpus")
    fields = {}
    for token, label in zip(string.tokens, string.labels):
        if label != "other":
            fields[label] = (fields.get(label, "") + " " + token.text).strip()
    return fields


def test_a_book_cited_whole_is_the_works_title_but_one_introduced_by_in_is_its_container(tmp_path):
    whole = _grobid(tmp_path, '<author>J. Feder</author>, <title level="m">Fractals</title>, '
                              '<publisher>Plenum Press</publisher>')
    assert whole["title"] == "Fractals" and "booktitle" not in whole
    part = _grobid(tmp_path, '<author>M. Luban</author>, in <title level="m">Phase Transitions</title>, '
                             '<biblScope unit="volume">5A</biblScope>')
    assert part["booktitle"] == "Phase Transitions" and "title" not in part
    # The editors naming the book come between "in" and its title: still a part of it that is cited.
    edited = _grobid(tmp_path, '<author>R.K. Gupta</author>, in: <editor>C. Beck</editor> (Ed.), '
                               '<title level="m">Clusters in Nuclei</title>, <date>2010</date>')
    assert edited["booktitle"] == "Clusters in Nuclei" and "title" not in edited


def test_a_journals_series_letter_opening_the_volume_is_the_journals():
    assert _harmonised(("journal", "Nucl. Phys."), ("volume", "B 262")) == [
        ("Nucl.", "journal"), ("Phys.", "journal"), ("B", "journal"), ("262", "volume")]
    # "V" before a volume is its cue.
    assert _harmonised(("journal", "Nuclei"), ("other", ","), ("volume", "V 69"))[-2:] == [
        ("V", "other"), ("69", "volume")]
