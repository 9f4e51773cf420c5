"""latex_to_text on the LaTeX that bibliography styles write: accents, dashes, quotes, links,
math and the markup of BibTeX, biblatex and revtex."""
import unicodedata

import pytest

from citations.extraction.latex_text import latex_to_text


@pytest.mark.parametrize("latex, text", [
    (r"Andr\'e", "André"),
    (r"Schr{\"o}der", "Schröder"),
    (r"Schr\"{o}der", "Schröder"),
    (r"\v{C}ech", "Čech"),
    (r"\v Cech", "Čech"),
    (r"Stra\ss e and Stra{\ss}e", "Straße and Straße"),
    (r"Bj{\o}rn \O ystein", "Bjørn Øystein"),
    (r"{\AA}ngstr{\"o}m and \aa", "Ångström and å"),
    (r"{\L}ukasz \l", "Łukasz ł"),
    (r"\i\ and M\"{\i}ller and Mart\'{\i}nez", "ı and Mïller and Martínez"),
    (r"Gar\c{c}on", "Garçon"),
    (r"Pe\~na", "Peña"),
    (r"L\^e and \`a la", "Lê and à la"),
    (r"Dzi\k{e}kuj\k{e}, \.Zurek, \H{o}", "Dziękuję, Żurek, ő"),
    ("``Quoted,'' she said", "“Quoted,” she said"),
    ("pages 1--10", "pages 1–10"),
    ("Santa Cruz---1995", "Santa Cruz—1995"),
    (r"\emph{Emphasis} and \textit{italic} and \textbf{bold} and \textsc{Small}",
     "Emphasis and italic and bold and Small"),
    (r"{\em Deep} {\bf learning} {\it now}", "Deep learning now"),
    (r"\url{http://www.cs.x.edu/~user/a_b--c}", "http://www.cs.x.edu/~user/a_b--c"),
    (r"\url{http://x.org/a%20b}", "http://x.org/a%20b"),
    (r"\href{https://doi.org/10.1/x}{Link text}", "Link text"),
    (r"\newblock \doi{10.1103/PhysRevLett.1.1}", "doi: 10.1103/PhysRevLett.1.1"),
    (r"DOI: \doi{10.1/x}", "DOI: 10.1/x"),
    ("J.~Smith and A.~B.~Jones", "J. Smith and A. B. Jones"),
    (r"Smith \& Wesson, 50\%, a\_b, C\#, \$5", "Smith & Wesson, 50%, a_b, C#, $5"),
    (r"Title.\newblock Journal", "Title. Journal"),
    (r"Smith\penalty0 \ and Jones", "Smith and Jones"),
    # IEEEtran's glue between a proceedings' name and its publisher is a space, over a line break too
    ("(WF-IoT)}.\\hskip 1em plus 0.5em minus\n  0.4em\\relax IEEE, 2014", "(WF-IoT). IEEE, 2014"),
    (r"A\hspace{1em}B and L\kern-.1em aTeX", "A B and LaTeX"),
    # siam's style draws a rule for the authors of the entry above; the PDF prints no text there
    (r"\leavevmode\vrule height 2pt depth -1.6pt width 23pt, {\em Spatial smoothing}.", ", Spatial smoothing."),
    (r"\rule[-1pt]{3em}{.4pt}, Title and \hrule height 1pt\relax X", ", Title and X"),
    (r"\BIBentryALTinterwordspacing S. Smith, Title. [Online]. Available: \url{http://x.org}"
     r"\BIBentrySTDinterwordspacing", "S. Smith, Title. [Online]. Available: http://x.org"),
    (r"\bibinfo{author}{\bibfnamefont{O.}~\bibnamefont{Kwon}}, \bibinfo {journal} {PRL}",
     "O. Kwon, PRL"),
    (r"2001\natexlab{a}", "2001a"),
    (r"{\relax Th}e", "The"),
    (r"Bounds of $O(n^2)$ and $\Omega(\log n)$", "Bounds of O(n^2) and Ω(log n)"),
    (r"$\alpha$-decay of $\beta$ and $\gamma$", "α-decay of β and γ"),
    (r"{{Deep}} {Learning} for {DNA}", "Deep Learning for DNA"),
    (r"\unknowncommand{kept text} here", "kept text here"),
    ("  spread \n over\tlines  ", "spread over lines"),
    (r"e\u{}", "e"),
])
def test_latex_to_text(latex, text):
    assert latex_to_text(latex) == text


def test_latex_to_text_returns_nfc():
    text = latex_to_text(r"\'e")
    assert text == "\u00e9" and unicodedata.is_normalized("NFC", text)
