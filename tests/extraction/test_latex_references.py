"""extract_references on arXiv source packages built here, most from real reference strings.

The strings come from the unarXive sample (shared/data/unarxive-sample): each paper's
bib_entry_raw is what its LaTeX printed. They are written back as LaTeX the way BibTeX styles
write them (accents as macros, \\newblock, {\\em ...}, ~ after initials, -- for en dashes) and
must come out again unchanged. No database is used.
"""
import gzip
import json
import re
import unicodedata
from pathlib import Path

import pytest

from citations.extraction.latex_references import extract_references
from citations.parsing.identifiers import find_identifiers
from tests.extraction.test_source_package import MAIN_TEX, tar_bytes

UNARXIVE = (Path(__file__).resolve().parents[3] / "shared" / "data" / "unarxive-sample"
            / "arXiv_src_2212_086.jsonl")


# --- Building packages ---------------------------------------------------------------------

def raw_references(paper_id: str, count: int = 30) -> list[tuple[str, str]]:
    """(key, bib_entry_raw) of the first `count` references of one paper in the sample."""
    if not UNARXIVE.exists():
        pytest.skip(f"the unarXive sample is not at {UNARXIVE}")
    with UNARXIVE.open(encoding="utf-8") as lines:
        for line in lines:
            if line.startswith(f'{{"paper_id": "{paper_id}"'):
                entries = json.loads(line)["bib_entries"]
                return [(key, entry["bib_entry_raw"]) for key, entry in entries.items()][:count]
    raise AssertionError(f"{paper_id} is not in the sample")


_MARK_TO_ACCENT = {"\u0301": "'", "\u0300": "`", "\u0302": "^", "\u0308": '"', "\u0303": "~",
                   "\u0307": ".", "\u030c": "v", "\u0327": "c", "\u0328": "k", "\u0306": "u"}
_LETTERS = {"ß": r"{\ss}", "ø": r"{\o}", "ł": r"{\l}", "Ł": r"{\L}", "å": r"{\aa}", "æ": r"{\ae}"}
_PUNCTUATION = {"–": "--", "—": "---", "“": "``", "”": "''", "&": r"\&", "#": r"\#", "%": r"\%",
                "$": r"\$", "_": r"\_"}


def latexify(raw: str, *, blocks: bool = True) -> str:
    """The LaTeX a BibTeX style writes for a printed reference string."""
    out = []
    for position, char in enumerate(raw):
        base, *marks = unicodedata.normalize("NFD", char)
        if char in _LETTERS:
            out.append(_LETTERS[char])
        elif char in _PUNCTUATION:
            out.append(_PUNCTUATION[char])
        elif len(marks) == 1 and marks[0] in _MARK_TO_ACCENT:
            accent = _MARK_TO_ACCENT[marks[0]]
            spellings = [f"\\{accent}{{{base}}}"] if accent.isalpha() else [
                f"{{\\{accent}{base}}}", f"\\{accent}{{{base}}}", f"\\{accent}{base}"]
            out.append(spellings[position % len(spellings)])
        else:
            out.append(char)
    text = re.sub(r"\b([A-Z]\.) (?=[A-Z][a-z])", r"\1~", "".join(out))  # J.~Smith
    if blocks:
        sentences = text.split(". ")
        if len(sentences) >= 3:
            sentences[1] = "{\\em " + sentences[1] + "}"
        text = ".\n\\newblock ".join(sentences)
    return text


def plainnat_bbl(references: list[tuple[str, str]]) -> str:
    items = "\n\n".join(f"\\bibitem[{{Ref{n}(20{n:02d})}}]{{{key}}}\n{latexify(raw)}"
                        for n, (key, raw) in enumerate(references, start=1))
    return ("\\begin{thebibliography}{30}\n"
            "\\providecommand{\\natexlab}[1]{#1}\n"
            "\\providecommand{\\url}[1]{\\texttt{#1}}\n"
            "\\expandafter\\ifx\\csname urlstyle\\endcsname\\relax\n"
            "  \\providecommand{\\doi}[1]{doi: #1}\\else\n"
            "  \\providecommand{\\doi}{doi: \\begingroup \\urlstyle{rm}\\Url}\\fi\n\n"
            f"{items}\n\n\\end{{thebibliography}}\n")


def normalised(raw: str) -> str:
    return " ".join(raw.split())


# --- Bibliographies BibTeX wrote -----------------------------------------------------------

def test_tar_gz_bbl_gives_back_the_printed_strings_in_order():
    references = raw_references("2212.11808")
    stale = [(f"old{n}", "A. Nobody. An older draft's reference. Nowhere, 1999.") for n in range(60)]
    package = tar_bytes({"main.tex": MAIN_TEX, "main.bbl": plainnat_bbl(references),
                         "draft.bbl": plainnat_bbl(stale), "figures/plot.png": b"\x89PNG\r\n\x1a\n"})

    result = extract_references(package)

    assert [r.raw_text for r in result.references] == [normalised(raw) for _, raw in references]
    assert [r.key for r in result.references] == [key for key, _ in references]
    assert [r.index for r in result.references] == list(range(1, 31))
    assert {(r.origin, r.member) for r in result.references} == {("latex_bbl", "main.bbl")}
    assert result.origin == "latex_bbl" and result.members == ("main.bbl",)
    # draft.bbl is larger, but main.bbl has the main .tex's name.
    assert any("did not use draft.bbl" in note for note in result.notes)


def test_plain_tar_ieeetran_bbl_keeps_quotes_accents_and_link_targets():
    references = raw_references("2212.11809")
    items = []
    for key, raw in references:
        latex = latexify(raw, blocks=False)
        # IEEEtran prints the DOI and links it: the text is the DOI, the target a doi.org URL.
        latex = re.sub(r"doi: (10\.[^\s,]+?)(\.?)$",
                       lambda m: f"doi: \\href{{https://doi.org/{m[1]}}}{{{m[1]}}}{m[2]}", latex)
        items.append(f"\\bibitem{{{key}}}\n\\BIBentryALTinterwordspacing\n{latex}\n"
                     "\\BIBentrySTDinterwordspacing")
    bbl = ("\\begin{thebibliography}{10}\n\\providecommand{\\url}[1]{#1}\n"
           "\\csname url@samestyle\\endcsname\n\\providecommand{\\newblock}{\\relax}\n"
           "\\providecommand{\\bibinfo}[2]{#2}\n\\BIBdecl\n\n" + "\n\n".join(items)
           + "\n\\end{thebibliography}\n")
    package = tar_bytes({"paper/ms.tex": MAIN_TEX, "paper/ms.bbl": bbl}, gzipped=False)

    result = extract_references(package)

    assert [r.raw_text for r in result.references] == [normalised(raw) for _, raw in references]
    assert result.members == ("paper/ms.bbl",)
    first = result.references[0]
    assert first.raw_text.startswith("M. H. Segler, M. Preuss, and M. P. Waller, “Planning")
    assert first.links == ("https://doi.org/" + re.search(r"doi: (10\.\S+?)\.?$", first.raw_text)[1],)
    assert any("Błaż" in r.raw_text for r in result.references)


# How apsrev4-2 (revtex) writes the first reference of 2212.11831.
REVTEX_BBL = r"""\begin{thebibliography}{24}%
\makeatletter
\providecommand \@ifxundefined [1]{%
 \@ifx{#1\undefined}
}%
\bibitem [{\citenamefont {Kwon}\ \emph {et~al.}(2004)\citenamefont {Kwon}, \citenamefont
  {Coropceanu}}]{KEY}%
  \BibitemOpen
  \bibfield  {author} {\bibinfo {author} {\bibfnamefont {O.}~\bibnamefont {Kwon}}, \bibinfo
  {author} {\bibfnamefont {V.}~\bibnamefont {Coropceanu}}, \bibinfo {author} {\bibfnamefont
  {N.~E.}\ \bibnamefont {Gruhn}}, \bibinfo {author} {\bibfnamefont {J.~C.}\ \bibnamefont
  {Durivage}}, \bibinfo {author} {\bibfnamefont {J.~G.}\ \bibnamefont {Laquindanum}}, \bibinfo
  {author} {\bibfnamefont {H.~E.}\ \bibnamefont {Katz}}, \bibinfo {author} {\bibfnamefont
  {J.}~\bibnamefont {Cornil}},\ and\ \bibinfo {author} {\bibfnamefont {J.~L.}\ \bibnamefont
  {Br{\'e}das}},\ }\href {\doibase 10.1063/1.1691016} {\bibfield  {journal} {\bibinfo
  {journal} {The Journal of Chemical Physics}\ }\textbf {\bibinfo {volume} {120}},\ \bibinfo
  {pages} {8186} (\bibinfo {year} {2004})}\BibitemShut {Stop}%
\end{thebibliography}%
"""


def test_revtex_bbl_markup_gives_back_the_printed_string():
    (key, raw), = raw_references("2212.11831", count=1)
    bbl = REVTEX_BBL.replace("{KEY}", "{" + key + "}")

    (reference,) = extract_references(tar_bytes({"main.tex": MAIN_TEX, "main.bbl": bbl})).references

    assert reference.raw_text == normalised(raw)
    assert reference.key == key
    # The printed text hides the DOI; the link target keeps it.
    assert reference.links == ("https://doi.org/10.1063/1.1691016",)


MNRAS_BBL = r"""\begin{thebibliography}{}
\makeatletter
\relax
\def\mn@doi{\begingroup\mn@urlcharsother \@ifnextchar [ {\mn@doi@}
  {\mn@doi@[]}}
\bibitem[\protect\citeauthoryear{{D'Alessio}, {Cant{\"o}}, {Calvet}  \&
  {Lizano}}{{D'Alessio} et~al.}{1998}]{1998ApJ...500..411D}
{D'Alessio} P.,  {Cant{\"o}} J.,  {Calvet} N.,   {Lizano} S.,  1998, \mn@doi
  [\apj] {10.1086/305702}, \href
  {https://ui.adsabs.harvard.edu/abs/1998ApJ...500..411D} {500, 411}

\bibitem[\protect\citeauthoryear{{Ercolano} \& {Owen}}{{Ercolano} \&
  {Owen}}{2016}]{2016MNRAS.460.3472E}
{Ercolano} B.,  {Owen} J.~E.,  2016, \mn@doi [\mnras] {10.1093/mnras/stw1179},
  \href {https://ui.adsabs.harvard.edu/abs/2016MNRAS.460.3472E} {460, 3472}

\makeatother
\end{thebibliography}
"""

IMSART_BBL = r"""\begin{thebibliography}{27}
\bibitem[\protect\citeauthoryear{Aguilera
  et~al.}{2010}]{aguileraUsingBasisExpansions2010}
\begin{barticle}[author]
\bauthor{\bsnm{Aguilera},~\bfnm{Ana~M.}\binits{A.~M.}},
  \bauthor{\bsnm{Escabias},~\bfnm{Manuel}\binits{M.}} \AND
  \bauthor{\bsnm{Preda},~\bfnm{Cristian}\binits{C.}}
(\byear{2010}).
\btitle{Using Basis Expansions for Estimating Functional {{PLS}} Regression}.
\bjournal{Chemometrics and Intelligent Laboratory Systems}
\bvolume{104}
\bpages{289--305}.
\end{barticle}
\endbibitem
\end{thebibliography}
"""


def test_mnras_bbl_prints_the_journal_its_doi_link_shows_and_keeps_the_doi_as_a_link():
    # mnras.bst writes \mn@doi[\apj]{DOI}: the paper prints "ApJ", linked to the DOI.
    references = extract_references(tar_bytes({"main.tex": MAIN_TEX, "main.bbl": MNRAS_BBL})).references

    assert [r.raw_text for r in references] == [
        "D'Alessio P., Cantö J., Calvet N., Lizano S., 1998, ApJ, 500, 411",
        "Ercolano B., Owen J. E., 2016, MNRAS, 460, 3472"]
    assert "https://doi.org/10.1086/305702" in references[0].links


def test_imsart_bbl_prints_initials_and_no_environment_names():
    # The IMS journals' structured entries: \bfnm is data beside \binits, which the style prints.
    (reference,) = extract_references(tar_bytes({"main.tex": MAIN_TEX, "main.bbl": IMSART_BBL})).references

    assert reference.raw_text == (
        "Aguilera, A. M., Escabias, M. and Preda, C. (2010). Using Basis Expansions for Estimating Functional "
        "PLS Regression. Chemometrics and Intelligent Laboratory Systems 104 289–305.")


# apacite.bst's entries (AGU's agujournal2019 loads apacite): every field goes through a macro of
# the package, and the label and a title come twice, once as data and once printed.
APACITE_BBL = r"""\begin{thebibliography}{}

\bibitem [\protect \citeauthoryear {%
Smith%
, Jones%
\BCBL {}\ \BBA {} Lee%
}{%
Smith%
\ \protect \BOthers {.}}{%
{\protect \APACyear {2019}}%
}]{%
Smith2019}
\APACinsertmetastar {%
Smith2019}%
\begin{APACrefauthors}%
Smith, A\BPBI B.%
, Jones, C.%
\BCBL {}\ \BBA {} Lee, D\BPBI E.%
\end{APACrefauthors}%
\unskip\
\newblock
\APACrefYearMonthDay{2019}{}{}.
\newblock
{\BBOQ}\APACrefatitle {Ocean salinity and the {Atlantic} overturning}
  {Ocean salinity and the {Atlantic} overturning}.{\BBCQ}
\newblock
\APACjournalVolNumPages{Journal of Climate}{32}{7}{1990--2009}.
\newblock
\begin{APACrefDOI} \doi{10.1175/JCLI-D-18-0001.1} \end{APACrefDOI}
\PrintBackRefs{\CurrentBib}

\bibitem [\protect \citeauthoryear {%
Wunsch%
}{%
Wunsch%
}{%
{\protect \APACyear {2015}}%
}]{%
Wunsch2015}
\APACinsertmetastar {%
Wunsch2015}%
\begin{APACrefauthors}%
Wunsch, C.%
\end{APACrefauthors}%
\unskip\
\newblock
\APACrefYearMonthDay{2015}{}{}.
\newblock
\APACrefbtitle {Modern observational physical oceanography} {Modern
  observational physical oceanography}\ \APACbVolEdTR{\PrintOrdinal{2}\ \BEd}{}.
\newblock
\APACaddressPublisher{Princeton, NJ}{Princeton University Press}.
\PrintBackRefs{\CurrentBib}

\end{thebibliography}
"""


def test_apacite_bbl_prints_what_the_package_prints_once_and_no_cite_key():
    references = extract_references(tar_bytes({"main.tex": MAIN_TEX, "main.bbl": APACITE_BBL})).references

    assert [r.raw_text for r in references] == [
        "Smith, A. B., Jones, C., & Lee, D. E. (2019). Ocean salinity and the Atlantic overturning. "
        "Journal of Climate, 32(7), 1990–2009. doi: 10.1175/JCLI-D-18-0001.1",
        "Wunsch, C. (2015). Modern observational physical oceanography (2nd ed.). "
        "Princeton, NJ: Princeton University Press."]
    assert [r.key for r in references] == ["Smith2019", "Wunsch2015"]


# ACM-Reference-Format's .bbl defines \showISBNx and its like to print nothing unless the class
# defines them, and acmart does not.
ACM_BBL = r"""\begin{thebibliography}{00}
\ifx \showISBNx    \undefined \def \showISBNx     #1{\unskip}     \fi
\ifx \showISSN     \undefined \def \showISSN      #1{\unskip}     \fi
\ifx \showDOI      \undefined \def \showDOI       #1{#1}\fi
\providecommand\bibinfo[2]{#2}

\bibitem[\protect\citeauthoryear{Dean and Ghemawat}{Dean and Ghemawat}{2008}]%
        {mapreduce}
\bibfield{author}{\bibinfo{person}{Jeffrey Dean} {and} \bibinfo{person}{Sanjay
  Ghemawat}.} \bibinfo{year}{2008}\natexlab{}.
\newblock \showarticletitle{MapReduce: Simplified Data Processing on Large
  Clusters}.
\newblock \bibinfo{journal}{{\em Commun. ACM\/}} \bibinfo{volume}{51},
  \bibinfo{number}{1} (\bibinfo{date}{Jan.} \bibinfo{year}{2008}),
  \bibinfo{pages}{107--113}.
\newblock
\showISSN{0001-0782}
\showISBNx{978-1-4503-3531-7}
\showDOI{%
\url{https://doi.org/10.1145/1327452.1327492}}

\end{thebibliography}
"""


def test_acm_bbl_leaves_out_the_identifiers_its_style_hides():
    (reference,) = extract_references(tar_bytes({"main.tex": MAIN_TEX, "main.bbl": ACM_BBL})).references

    assert reference.raw_text == (
        "Jeffrey Dean and Sanjay Ghemawat. 2008. MapReduce: Simplified Data Processing on Large Clusters. "
        "Commun. ACM 51, 1 (Jan. 2008), 107–113. https://doi.org/10.1145/1327452.1327492")


def test_acm_bbl_prints_an_eprint_as_acmart_does():
    bbl = ACM_BBL.replace(r"\showISSN{0001-0782}", r"\showeprint[arxiv]{2101.00001}").replace(
        r"\showISBNx{978-1-4503-3531-7}", r"\showeprint[pubmed]{12345678}")
    (reference,) = extract_references(tar_bytes({"main.tex": MAIN_TEX, "main.bbl": bbl})).references

    assert reference.raw_text.endswith(
        "107–113. arXiv:2101.00001 PubMed:12345678 https://doi.org/10.1145/1327452.1327492")
    # read as the arXiv id it is, which the record links by
    assert ("arxiv", "2101.00001") in {(i.kind, i.value) for i in find_identifiers(reference.raw_text)}


def test_single_gzipped_tex_with_its_own_thebibliography():
    # unarXive's own rendering broke one of these ("Schr "o der"); BibTeX could not print that.
    references = [(k, raw) for k, raw in raw_references("2212.11784") if '"' not in raw]
    items = "\n".join(f"\\bibitem{{{key}}} {latexify(raw)}" for key, raw in references)
    tex = ("\\documentclass{lipics-v2021}\n\\begin{document}\nText~\\cite{x}.\n"
           "% \\bibitem{commented} A reference someone took out.\n"
           f"\\begin{{thebibliography}}{{99}}\n{items}\n\\end{{thebibliography}}\n\\end{{document}}\n")

    result = extract_references(gzip.compress(tex.encode("utf-8")))

    assert [r.raw_text for r in result.references] == [normalised(raw) for _, raw in references]
    assert result.members == ("main.tex",)
    assert "Jirí Adámek" in result.references[0].raw_text


def test_a_path_reads_the_same_as_bytes(tmp_path):
    references = raw_references("2212.11808", count=5)
    package = tar_bytes({"main.tex": MAIN_TEX, "main.bbl": plainnat_bbl(references)})
    path = tmp_path / "2212.11808.tar.gz"
    path.write_bytes(package)

    assert extract_references(path) == extract_references(package)
    assert extract_references(str(path)).references[0].raw_text == normalised(references[0][1])


BIBLATEX_BBL = r"""% $ biblatex auxiliary file $
% Do not modify this file!
\begingroup
\makeatletter
\refsection{0}
  \datalist[entry]{nty/global//global/global}
    \entry{byun2022}{article}{}
      \name{author}{3}{}{%
        {{hash=1a}{%
           family={Byun},
           familyi={B\bibinitperiod},
           given={S.-S.},
           giveni={S\bibinithyphendelim S\bibinitperiod}}}%
        {{hash=2b}{%
           family={Lee},
           familyi={L\bibinitperiod},
           given={J.},
           giveni={J\bibinitperiod}}}%
        {{hash=3c}{%
           family={Reddy},
           given={T.~R.},
           giveni={T\bibinitperiod\bibinitdelim R\bibinitperiod}}}%
      }
      \strng{namehash}{1a2b3c}
      \field{sortinit}{B}
      \field{labelyear}{2022}
      \field{journaltitle}{Trans. Amer. Math. Soc.}
      \field{number}{9}
      \field{title}{Zeros of random polynomials and their higher derivatives}
      \field{volume}{375}
      \field{year}{2022}
      \field{pages}{6311\bibrangedash 6335}
      \range{pages}{25}
      \verb{doi}
      \verb 10.1090/tran/8674
      \endverb
    \endentry
    \entry{ford2021}{inproceedings}{}
      \name{author}{3}{}{%
        {{}{Ford}{F\bibinitperiod}{Chase}{C\bibinitperiod}{}{}{}{}}%
        {{}{Milius}{M\bibinitperiod}{Stefan}{S\bibinitperiod}{}{}{}{}}%
        {{}{Schr{\"o}der}{S\bibinitperiod}{Lutz}{L\bibinitperiod}{}{}{}{}}%
      }
      \list{publisher}{1}{%
        {Schloss Dagstuhl}%
      }
      \field{booktitle}{CALCO}
      \field{title}{Monads on categories of relational structures}
      \field{volume}{211}
      \field{year}{2021}
      \field{pages}{14:1\bibrangedash 14:17}
    \endentry
    \entry{kabluchko2021}{online}{}
      \name{author}{1}{}{%
        {{hash=4d}{%
           family={Kabluchko},
           given={Zakhar}}}%
      }
      \true{moreauthor}
      \field{eprinttype}{arXiv}
      \field{title}{Repeated differentiation and free unitary {Poisson} process}
      \field{year}{2021}
      \verb{eprint}
      \verb 2112.14729
      \endverb
      \verb{url}
      \verb https://arxiv.org/abs/2112.14729
      \endverb
    \endentry
    \entry{hidden}{misc}{skipbib}
      \field{title}{Not printed}
    \endentry
  \enddatalist
  \datalist[entry]{ynt/global//global/global}
    \entry{byun2022}{article}{}
      \field{title}{The same entry in a second sort list}
    \endentry
  \enddatalist
\endrefsection
\endgroup
"""


def test_biblatex_bbl_entries_become_readable_strings():
    result = extract_references(tar_bytes({"main.tex": MAIN_TEX, "main.bbl": BIBLATEX_BBL}))

    assert [(r.key, r.raw_text) for r in result.references] == [
        ("byun2022", "S.-S. Byun, J. Lee, and T. R. Reddy. Zeros of random polynomials and their "
                     "higher derivatives. Trans. Amer. Math. Soc., 375(9), 6311–6335, 2022. "
                     "doi:10.1090/tran/8674"),
        ("ford2021", "Chase Ford, Stefan Milius, and Lutz Schröder. Monads on categories of "
                     "relational structures. In CALCO, 211, 14:1–14:17, Schloss Dagstuhl, 2021."),
        ("kabluchko2021", "Zakhar Kabluchko et al. Repeated differentiation and free unitary "
                          "Poisson process. 2021. arXiv:2112.14729"),
    ]
    assert result.origin == "latex_bbl"


# --- Rebuilt from .bib ---------------------------------------------------------------------

REFS_BIB = r"""% A comment with an e-mail address: someone@example.org
@string{tams = "Trans. Amer. Math. Soc."}
@preamble{"\newcommand{\noopsort}[1]{}"}
@comment{@article{commented, title = {Never read}}}

@article{byun2022,
  author = {Byun, Sung-Soo and Lee, Jaehun and Reddy, Tulasi Ram},
  title = "Zeros of random polynomials and " # {their higher derivatives},
  journal = tams,
  volume = 375, number = {9}, pages = {6311--6335}, year = 2022, month = sep,
  doi = {https://doi.org/10.1090/tran/8674},
}
@Article{alazard2022,
  author = {Alazard, Thomas and Lazar, Omar and Nguyen, Quoc Hung},
  title = {On the dynamics of the roots of polynomials under differentiation},
  journal = {Journal de Math{\'e}matiques Pures et Appliqu{\'e}es},
  volume = {162}, pages = {1--22}, year = {2022},
}
@article{broken, title = {This brace is never closed,
@article(hoskins2021,
  author = "Jeremy Hoskins and Zakhar Kabluchko",
  title = "Dynamics of zeroes under repeated differentiation",
  journal = "Experimental Mathematics", pages = "1--27", year = "2021"
)
@inproceedings{ford2021,
  author = {Ford, Chase and Milius, Stefan and Schr{\"o}der, Lutz},
  title = {Monads on categories of relational structures},
  pages = {14:1--14:17},
  crossref = {calco2021},
}
@proceedings{calco2021,
  title = {{CALCO}}, volume = 211, publisher = {Schloss Dagstuhl}, year = 2021,
}
@book{kallenberg1997,
  author = {Kallenberg, Olav}, title = {Foundations of modern probability},
  publisher = {Springer-Verlag}, year = 1997,
}
"""
OTHER_BIB = "@article{hoskins2021, title = {A different Hoskins paper, never used}}\n"


def bib_package(main_body: str) -> bytes:
    main = (f"\\documentclass{{amsart}}\n\\begin{{document}}\n{main_body}\n"
            "\\bibliography{refs}\n\\end{document}\n")
    return tar_bytes({
        "main.tex": main,
        "sections/results.tex": "By \\citep[see][p.~3]{byun2022} and \\citeauthor{alazard2022},\n"
                                "% \\cite{kallenberg1997} was taken out\n"
                                "also \\cite{Ford2021} and \\cite{missing1}.\n",
        "unused.tex": "\\cite{kallenberg1997}",
        "refs.bib": REFS_BIB,
        "other.bib": OTHER_BIB,
    })


def test_bib_entries_are_used_in_order_of_first_citation():
    package = bib_package("\\cite{hoskins2021, alazard2022}\n\\input{sections/results}")

    result = extract_references(package)

    assert [(r.index, r.key, r.raw_text) for r in result.references] == [
        (1, "hoskins2021", "Jeremy Hoskins and Zakhar Kabluchko. Dynamics of zeroes under repeated "
                           "differentiation. Experimental Mathematics, 1–27, 2021."),
        (2, "alazard2022", "Thomas Alazard, Omar Lazar, and Quoc Hung Nguyen. On the dynamics of "
                           "the roots of polynomials under differentiation. Journal de "
                           "Mathématiques Pures et Appliquées, 162, 1–22, 2022."),
        (3, "byun2022", "Sung-Soo Byun, Jaehun Lee, and Tulasi Ram Reddy. Zeros of random "
                        "polynomials and their higher derivatives. Trans. Amer. Math. Soc., "
                        "375(9), 6311–6335, 2022. doi:10.1090/tran/8674"),
        # The key's case differs from the citation's, as BibTeX allows; the proceedings are inherited.
        (4, "ford2021", "Chase Ford, Stefan Milius, and Lutz Schröder. Monads on categories of "
                        "relational structures. In CALCO, 211, 14:1–14:17, Schloss Dagstuhl, 2021."),
    ]
    assert {(r.origin, r.member) for r in result.references} == {("latex_bib", "refs.bib")}
    assert result.origin == "latex_bib" and result.members == ("refs.bib",)
    notes = " | ".join(result.notes)
    assert "cited but in no .bib (1): missing1" in notes
    assert "refs.bib: skipped a malformed entry at line 19" in notes
    assert "not used: other.bib" in notes
    assert "unused.tex" in notes


def test_nocite_star_adds_every_entry_after_those_cited_before_it():
    result = extract_references(bib_package("\\cite{ford2021}\\nocite{*}\\cite{byun2022}"))

    assert [r.key for r in result.references] == [
        "ford2021", "byun2022", "alazard2022", "hoskins2021", "calco2021", "kallenberg1997"]


def test_a_bib_full_of_broken_entries_is_given_up_on_early():
    broken = "".join(f"@article{{b{n}, title = {{never closed,\n" for n in range(30))
    package = tar_bytes({"main.tex": "\\documentclass{article}\\cite{b1}", "refs.bib": broken})

    result = extract_references(package)

    assert result.references == []
    assert "refs.bib: stopped reading after 20 malformed entries" in result.notes


def test_a_latin1_tex_is_read_and_the_note_says_so():
    tex = ("\\documentclass{article}\\begin{thebibliography}{1}\n"
           "\\bibitem{f} L. Schr\xf6der. Monads. 2021.\n\\end{thebibliography}")
    result = extract_references(gzip.compress(tex.encode("latin-1")))

    assert [r.raw_text for r in result.references] == ["L. Schröder. Monads. 2021."]
    assert "main.tex is not UTF-8; read it as Latin-1" in result.notes


def test_thebibliography_in_the_main_tex_wins_over_a_bbl_beside_it():
    tex = ("\\documentclass{article}\\begin{document}\\begin{thebibliography}{1}\n"
           "\\bibitem{new} A. Author. Typed into the paper. 2022.\n"
           "\\end{thebibliography}\\end{document}")
    stale = plainnat_bbl([("old", "A. Author. Left over from an earlier build. 2019.")])

    result = extract_references(tar_bytes({"ms.tex": tex, "ms.bbl": stale}))

    assert [r.key for r in result.references] == ["new"] and result.members == ("ms.tex",)


def test_tex_without_any_bibliography_gives_no_references_and_says_so():
    result = extract_references(tar_bytes({"main.tex": MAIN_TEX}))

    assert result.references == [] and result.origin is None
    assert any("no bibliography" in note for note in result.notes)



def test_a_biblatex_bbl_of_values_left_open_is_read_in_one_pass():
    """A 2.8 KB package held a .bbl of `\\field{title}{{x` repeated: each field read the rest of the
    file again (quadratic: 32 KB took 15 s, 1 MB ran for days). Now a value left open runs to the end
    once, and an entry of half a megabyte of them is read in seconds, its first field kept."""
    import time

    hostile = "\\entry{k}{article}{}\n\\field{year}{2020}\n" + "\\field{title}{{x" * 32_000 + "\\endentry\n"
    hostile += "\\entry{v}{misc}{}\n\\field{title}{A title kept}\n" + "\\verb{url}x " * 32_000 + "\\endentry\n"
    started = time.monotonic()
    found = extract_references(tar_bytes({"main.tex": MAIN_TEX, "main.bbl": hostile}))
    assert time.monotonic() - started < 60
    assert len(found.references) == 2 and "2020" in found.references[0].raw_text
    assert "A title kept" in found.references[1].raw_text


def test_a_bibliography_too_large_to_be_one_is_refused_with_a_sentence():
    from citations.extraction.bbl_references import MAX_BIBLIOGRAPHY_CHARACTERS
    from citations.extraction.source_package import SourceRefused

    huge = "\\begin{thebibliography}{9}\n" + "\\bibitem{k} A. Author. A title. 2020.\n" * (
        MAX_BIBLIOGRAPHY_CHARACTERS // 38 + 1)
    with pytest.raises(SourceRefused, match=r"main\.bbl has [0-9,]+ characters: a bibliography is read up to"):
        extract_references(tar_bytes({"main.tex": MAIN_TEX, "main.bbl": huge}))
