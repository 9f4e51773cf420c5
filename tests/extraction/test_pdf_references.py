"""Reference lists out of PDFs built with reportlab (bench/extraction.py builds them).

The shared data holds no PDFs, so each test typesets a reference list whose strings it knows
and checks what comes back.
"""
import io
from pathlib import Path

import pytest
from rapidfuzz import fuzz

from bench.extraction import UNARXIVE, build_paper_pdf, build_pdf, load_papers
from citations.extraction import pdf_references
from citations.extraction.pdf_references import (
    PdfRefused,
    Vocabulary,
    extract_references,
    is_word_break,
    join_lines,
    read_words,
)

TENSORFLOW = (
    "Martín Abadi, Paul Barham, Jianmin Chen, Zhifeng Chen, Andy Davis, Jeffrey Dean, Matthieu Devin, Sanjay "
    "Ghemawat, Geoffrey Irving, Michael Isard, Manjunath Kudlur, Josh Levenberg, Rajat Monga, Sherry Moore, "
    "Derek G. Murray, Benoit Steiner, Paul Tucker, Vijay Vasudevan, Pete Warden, Martin Wicke, Yuan Yu, and "
    "Xiaoqiang Zheng. TensorFlow: A system for large-scale machine learning. In 12th USENIX Symposium on "
    "Operating Systems Design and Implementation (OSDI 16), pages 265–283, 2016."
)
MULTI_HEAD = (
    "Jian Li, Zhaopeng Tu, Baosong Yang, Michael R. Lyu, and Tong Zhang. Multi-Head attention with "
    "disagreement regularization. In Proceedings of the 2018 Conference on Empirical Methods in Natural "
    "Language Processing, pages 2897–2903, 2018."
)
REFERENCES = [
    "Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, Aidan N. Gomez, Łukasz Kaiser, "
    "and Illia Polosukhin. Attention is all you need. In Advances in Neural Information Processing Systems 30, "
    "pages 5998–6008, 2017.",
    TENSORFLOW,
    "Jacob Devlin, Ming-Wei Chang, Kenton Lee, and Kristina Toutanova. BERT: Pre-training of deep bidirectional "
    "transformers for language understanding. In Proceedings of NAACL-HLT 2019, pages 4171–4186, 2019.",
    "Tom B. Brown, Benjamin Mann, Nick Ryder, Melanie Subbiah, Jared Kaplan, et al. Language models are "
    "few-shot learners. arXiv preprint arXiv:2005.14165, 2020.",
    "Jean-Pierre Serre. A Course in Arithmetic. Graduate Texts in Mathematics 7. Springer, New York, 1973. "
    "https://doi.org/10.1007/978-1-4684-9884-4",
    MULTI_HEAD,
    "Kaiming He, Xiangyu Zhang, Shaoqing Ren, and Jian Sun. Deep residual learning for image recognition. In "
    "Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition (CVPR), pages 770–778, 2016. "
    "doi:10.1109/CVPR.2016.90",
    "Y. LeCun, L. Bottou, Y. Bengio, and P. Haffner. Gradient-based learning applied to document recognition. "
    "Proceedings of the IEEE, 86(11):2278–2324, 1998.",
    "Diederik P. Kingma and Jimmy Ba. Adam: A method for stochastic optimization. In 3rd International "
    "Conference on Learning Representations (ICLR), San Diego, 2015. URL http://arxiv.org/abs/1412.6980.",
    "S. Weinberg, A model of leptons, Phys. Rev. Lett. 19 (1967) 1264–1266, doi:10.1103/PhysRevLett.19.1264.",
    "Ilya Loshchilov and Frank Hutter. Decoupled weight decay regularization. In International Conference on "
    "Learning Representations, 2019.",
    "Zhuang Liu, Hanzi Mao, Chao-Yuan Wu, Christoph Feichtenhofer, Trevor Darrell, and Saining Xie. A ConvNet "
    "for the 2020s. In Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition, pages "
    "11976–11986, 2022.",
]
BODY = [
    ("1 Introduction", "Reference lists are the part of a paper that a citation index reads. This paragraph "
     "stands in for the body of a paper: it runs over several lines, so that the page holds running text "
     "before its reference section, and it mentions references in passing, as papers do. " * 3),
    ("2 Method", "The method section says nothing of interest here. It is long enough to fill a good part of "
     "the page, and to push the reference list down the page and over a page break. " * 4),
    ("3 Results", "The results are what they are. This paragraph, too, is only here to take up room on the "
     "page before the list of references begins. " * 4),
]
HEADER = "Journal of Typeset Tests 12 (2026)"


def squash(text: str) -> str:
    return " ".join(text.split())


def assert_same_list(found, gold):
    assert len(found) == len(gold)
    for got, want in zip(found, gold):
        assert fuzz.ratio(squash(got.raw_text), squash(want)) >= 90, (got.raw_text, want)


@pytest.mark.parametrize("layout", ["one-column", "two-column"])
@pytest.mark.parametrize("style", ["numbered", "author-year"])
def test_references_come_back_as_typeset(layout, style):
    pdf = build_pdf(REFERENCES, layout=layout, style=style, title="A typeset test paper", body=BODY * 2, header=HEADER)
    found = extract_references(pdf)
    assert_same_list(found.references, REFERENCES)
    assert [r.index for r in found.references] == list(range(1, len(REFERENCES) + 1))
    assert found.heading == "References"
    assert found.pages >= 2


def test_most_references_come_back_exactly():
    pdf = build_pdf(REFERENCES, layout="two-column", style="numbered", title="A paper", body=BODY, header=HEADER)
    exact = sum(squash(r.raw_text) == squash(g) for r, g in zip(extract_references(pdf).references, REFERENCES))
    assert exact >= len(REFERENCES) - 1


def test_the_printed_numbers_are_the_indexes_and_pages_are_where_each_starts():
    pdf = build_pdf(REFERENCES, layout="one-column", style="numbered", label="(n)", title="A paper", body=BODY * 2)
    found = extract_references(pdf)
    assert [r.index for r in found.references] == list(range(1, len(REFERENCES) + 1))
    pages = [r.page for r in found.references]
    assert pages == sorted(pages)
    assert pages[0] >= 2 and pages[-1] == found.pages


def test_a_path_or_bytes_give_the_same_list(tmp_path):
    pdf = build_pdf(REFERENCES[:4], body=BODY[:1])
    path = tmp_path / "paper.pdf"
    path.write_bytes(pdf)
    assert extract_references(path) == extract_references(str(path)) == extract_references(pdf)


def _built_with_break(reference: str, wanted, **options) -> tuple[bytes, str]:
    """A PDF where the reference's text breaks at a line end as wanted(word) says, and that word.

    The words before the reference's own text grow one by one until the line breaks there.
    """
    filler = "Anna Berg, Carl Dahl, Eva Fors, Gus Holm, Ines Jarl, Kai Lund, Mia Nord, Ole Pihl,".split()
    for count in range(len(filler) + 1):
        text = " ".join(filler[:count] + [reference])
        pdf = build_pdf([text], body=BODY[:1], **options)
        words, _ = read_words(pdf)
        broken = [w.text for w in words if w.text.endswith("-") and wanted(w.text)]
        if broken:
            return pdf, text
    pytest.fail("no filler made the line break where wanted")


def test_a_word_hyphenated_at_a_line_end_is_joined():
    pdf, gold = _built_with_break(TENSORFLOW, lambda w: "Vasudevan".startswith(w[:-1]) and len(w) > 2)
    text = extract_references(pdf).references[0].raw_text
    assert "Vijay Vasudevan," in text
    assert squash(text) == squash(gold)


def test_a_compound_broken_at_its_hyphen_keeps_it():
    pdf, gold = _built_with_break(MULTI_HEAD, lambda w: w == "Multi-")
    text = extract_references(pdf).references[0].raw_text
    assert "Multi-Head attention" in text
    assert squash(text) == squash(gold)


@pytest.mark.parametrize("lines, joined", [
    (["Vijay Va-", "sudevan, Pete Warden"], "Vijay Vasudevan, Pete Warden"),
    (["parameter mod-", "els. In SC20"], "parameter models. In SC20"),
    (["Multi-", "Head attention"], "Multi-Head attention"),
    (["a state-of-the-", "art model"], "a state-of-the-art model"),
    (["state-", "of-the-art"], "state-of-the-art"),
    (["GPT-", "3 and BERT-", "based models"], "GPT-3 and BERT-based models"),
    (["Jean-", "Pierre Serre"], "Jean-Pierre Serre"),
    (["self-", "attention"], "self-attention"),
    (["an e-", "print"], "an e-print"),
    (["[arXiv:hep-", "ph/0311268]"], "[arXiv:hep-ph/0311268]"),
    (["[arXiv:1001.3848 [hep-", "th]]."], "[arXiv:1001.3848 [hep-th]]."),
    (["pages 1022–", "1030."], "pages 1022–1030."),
    (["URL https://github.com/", "tensorflow/tensorflow"], "URL https://github.com/tensorflow/tensorflow"),
    (["http://arxiv.org/abs/2002.", "11768."], "http://arxiv.org/abs/2002.11768."),
    (["doi:10.1051/0004-", "6361/201117592"], "doi:10.1051/0004-6361/201117592"),
    (["doi:", "10.1093/mnras/stac091"], "doi: 10.1093/mnras/stac091"),
    (["https://x.org/a.", "In Proceedings"], "https://x.org/a. In Proceedings"),
    (["Available: https://", "arxiv.org/abs/2103.14898"], "Available: https://arxiv.org/abs/2103.14898"),
    (["Reinforcement lear-", "ning: An introduction"], "Reinforcement learning: An introduction"),
])
def test_lines_of_a_reference_are_joined(lines, joined):
    assert join_lines(lines) == joined


def test_the_document_decides_a_compound_it_writes_elsewhere():
    assert join_lines(["real-", "world data"]) == "realworld data"
    assert join_lines(["real-", "world data"], Vocabulary(hyphenated=frozenset({"real-world"}))) == "real-world data"
    assert join_lines(["multi-", "ple layers"], Vocabulary(joined=frozenset({"multiple"}))) == "multiple layers"


def test_a_capital_or_digit_after_the_break_is_never_a_word_break():
    assert not is_word_break("Multi", "Head")
    assert not is_word_break("GPT", "3")
    assert is_word_break("Va", "sudevan,")


def test_running_header_and_page_numbers_are_not_in_any_reference():
    pdf = build_pdf(REFERENCES * 4, layout="two-column", style="author-year", title="A paper", body=BODY * 2,
                    header=HEADER)
    found = extract_references(pdf)
    assert found.pages >= 3
    assert_same_list(found.references, REFERENCES * 4)
    # Equal to a gold string but for hyphens (a compound broken at its hyphen may be joined):
    # no header, no page number inside.
    unhyphenated = {squash(g).replace("-", "") for g in REFERENCES}
    for reference in found.references:
        assert "Typeset Tests" not in reference.raw_text
        assert squash(reference.raw_text).replace("-", "") in unhyphenated


def test_the_appendix_after_the_references_is_not_taken_as_references():
    pdf = build_pdf(REFERENCES, layout="one-column", style="author-year", body=BODY, appendix=True)
    found = extract_references(pdf)
    assert_same_list(found.references, REFERENCES)
    assert not any("method section" in r.raw_text or "Proof" in r.raw_text for r in found.references)


def test_the_last_references_heading_is_used_when_the_word_comes_earlier():
    pdf = build_pdf(REFERENCES, layout="two-column", style="numbered", body=BODY, decoy=True)
    assert sum(w.text == "References" for w in read_words(pdf)[0]) == 3      # heading, decoy, body text
    found = extract_references(pdf)
    assert_same_list(found.references, REFERENCES)


@pytest.mark.parametrize("heading", ["7 References", "REFERENCES", "Bibliography", "Literatur", "Références"])
def test_headings_in_several_forms_and_languages_are_found(heading):
    found = extract_references(build_pdf(REFERENCES[:5], body=BODY[:1], heading=heading))
    assert found.heading == heading
    assert len(found.references) == 5


@pytest.mark.parametrize("layout", ["one-column", "two-column"])
@pytest.mark.parametrize("hanging", [True, False])
def test_no_reference_begins_with_authors_split_from_the_one_before(layout, hanging):
    # The seeds' lesson: a line break inside a long author list ("... Derek G." / "Murray, Benoit
    # Steiner, Paul Tucker, Vijay Va- sudevan, ...") was once taken for the start of a reference.
    gold = [TENSORFLOW, REFERENCES[0], TENSORFLOW.replace("2016.", "2015."), REFERENCES[3]] * 2
    pdf = build_pdf(gold, layout=layout, style="author-year", hanging=hanging, body=BODY[:1])
    found = extract_references(pdf).references
    assert [squash(r.raw_text)[:40] for r in found] == [squash(g)[:40] for g in gold]
    assert not any(r.raw_text.startswith(("Murray", "Derek", "Vasudevan")) for r in found)


def _image_only_pdf() -> bytes:
    from PIL import Image
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer)
    canvas.drawImage(ImageReader(Image.new("RGB", (200, 100), "white")), 100, 500, 200, 100)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _refused() -> dict[bytes, str]:
    pdf = build_pdf(REFERENCES[:3], body=BODY[:1])
    return {
        b"<html>not a pdf</html>": "this is not a PDF",
        build_pdf(REFERENCES[:3], encrypt="secret"): "encrypted and needs a password",
        _image_only_pdf(): "no text layer",
        pdf[: len(pdf) // 2]: "truncated",
        pdf[:300] + b"\x00garbage" * 200 + pdf[-200:]: "damaged and cannot be read",
        build_pdf(REFERENCES[:3], body=BODY[:1], heading="Further reading"): "no reference section found",
    }


def test_each_refusal_says_why_in_plain_words():
    for data, message in _refused().items():
        with pytest.raises(PdfRefused, match=message):
            extract_references(data)


def test_a_file_is_refused_with_the_sentence_its_bytes_get(tmp_path, monkeypatch):
    """ingest_pdf gives a path: the file is read by the child from the disk, refused as its bytes are."""
    def sentence(pdf) -> str:
        with pytest.raises(PdfRefused) as refused:
            extract_references(pdf)
        return str(refused.value)

    cases = list(_refused())
    for i, data in enumerate(cases):
        path = tmp_path / f"{i}.pdf"
        path.write_bytes(data)
        assert sentence(path) == sentence(data)
    monkeypatch.setattr(pdf_references, "MAX_BYTES", 1024)
    assert sentence(path) == sentence(data) == "the file is larger than the 1,024 bytes that are read"


def test_a_long_document_gives_its_list_past_an_earlier_heading(tmp_path, monkeypatch):
    """A thesis's pages are too many to hold as words: kept as the child sent them and read again,
    they give the list the same pages held give."""
    from citations.extraction.pdf import pages

    path = tmp_path / "thesis.pdf"
    path.write_bytes(build_pdf(REFERENCES, layout="two-column", style="numbered", body=BODY * 20, header=HEADER,
                               decoy=True))
    held = extract_references(path)
    monkeypatch.setattr(pages, "HELD_BYTES", 64 * 1024)
    on_disk = extract_references(path)
    assert on_disk == held
    assert held.pages >= 8
    assert_same_list(held.references, REFERENCES)


def test_a_refusal_is_a_value_error():
    with pytest.raises(ValueError):
        extract_references(b"plain text")


def test_pages_and_bytes_are_capped(monkeypatch):
    pdf = build_pdf(REFERENCES, body=BODY)
    monkeypatch.setattr(pdf_references, "MAX_PAGES", 1)
    with pytest.raises(PdfRefused, match="at most 1 are read"):
        extract_references(pdf)
    monkeypatch.setattr(pdf_references, "MAX_BYTES", 1024)
    with pytest.raises(PdfRefused, match="larger than"):
        extract_references(pdf)


@pytest.mark.skipif(not Path(UNARXIVE).exists(), reason="the shared unarXive sample is not here")
def test_a_real_reference_list_comes_back_from_both_layouts():
    paper = next(p for p in load_papers() if p.paper_id == "2212.11808")      # 47 references, CS
    for layout in ("one-column", "two-column"):
        found = extract_references(build_paper_pdf(paper, 0, layout, "numbered"))
        assert_same_list(found.references, paper.references)


def test_a_file_with_no_honest_size_is_read_no_further_than_the_limit(monkeypatch):
    """/dev/zero says it is empty and never ends: it is refused after MAX_BYTES + 1 bytes."""
    monkeypatch.setattr(pdf_references, "MAX_BYTES", 1024 * 1024)
    with pytest.raises(PdfRefused, match="larger than the 1,048,576 bytes that are read"):
        extract_references("/dev/zero")


def test_a_page_built_to_exhaust_the_reader_is_refused_with_its_number(monkeypatch):
    from citations.extraction.pdf import words

    monkeypatch.setattr(words, "MAX_PAGE_CHARACTERS", 500)
    with pytest.raises(PdfRefused, match=r"page 1 has [0-9,]+ characters; at most 500 a page are read"):
        extract_references(build_pdf(REFERENCES, body=BODY))
