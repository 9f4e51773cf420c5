"""An evaluation's reports as plain text: each data set's figures (render_report) and the summary
table (render_summary)."""
from citations.evaluation.metrics import IdCounts, LinkCounts, TitleCounts, YearCounts, ratio
from citations.evaluation.runner import Report
from citations.parsing.building import TRAINED_ON

STATES = ("verified_exact", "verified_fuzzy", "metadata_mismatch", "malformed_identifier", "parse_uncertain",
          "unresolved")


def _figure(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _fraction(numerator: int, denominator: int) -> str:
    return f"{_figure(ratio(numerator, denominator))} ({numerator:,}/{denominator:,})"


def _line(label: str, text: str) -> str:
    return f"  {label:16} {text}"


def _year_line(year: YearCounts) -> str:
    if not year.total:
        return _line("year", "n/a (no gold)")
    return _line("year", f"{_fraction(year.correct, year.total)}   missed {year.missed:,}, wrong {year.wrong:,}")


def _title_line(title: TitleCounts) -> str:
    if not title.total:
        return _line("title", "n/a (no gold)")
    return _line("title exact", f"{_fraction(title.exact, title.total)}   "
                                f">= 0.90: {_fraction(title.similar, title.total)}")


def _id_line(label: str, counts: IdCounts) -> str:
    if not counts.cases:
        return _line(label, "n/a (no gold)")
    judged = counts.checked_found + counts.extra
    precision = _fraction(counts.checked_found, judged) if judged else "n/a (gold incomplete)"
    recall = _fraction(counts.found_gold, counts.found_gold + counts.missed)
    return _line(label, f"precision {precision}   recall {recall}")


def _link_lines(links: LinkCounts) -> list[str]:
    if not (links.gold_targets or links.gold_null):
        return [_line("links", f"n/a (no link gold); {links.unjudged:,} links made")] if links.unjudged else []
    return [
        _line("links", f"precision {_fraction(links.correct, links.correct + links.wrong + links.false)}   "
                       f"recall {_fraction(links.correct, links.gold_targets)}   F1 {_figure(links.f1)}"),
        _line("", f"correct {links.correct:,}, wrong {links.wrong:,}, missed {links.missed:,}, false on gold null "
                  f"{links.false:,} (of {links.gold_null:,}), unjudged {links.unjudged:,}"),
    ]


def render_report(report: Report, examples: int = 0) -> str:
    """One data set's figures as plain text; with examples, up to that many strings per error category."""
    lines = [f"== {report.name}: {report.cases:,} cases; store: {report.store_size:,} works "
             f"({report.store}); {report.seconds:.1f} s",
             _year_line(report.year), _title_line(report.title),
             _id_line("arXiv ids", report.arxiv), _id_line("DOIs", report.doi)]
    if report.malformed_total:
        lines.append(_line("malformed ids", f"flagged {_fraction(report.malformed_flagged, report.malformed_total)}"))
    lines.extend(_link_lines(report.links))
    lines.extend(_state_table(report))
    for error, count in report.errors.most_common() if examples else ():
        lines.append(f"  -- {error}: {count:,}")
        lines.extend(f"     {example}" for example in report.examples[error][:examples])
    return "\n".join(lines)


def _state_table(report: Report) -> list[str]:
    short = {"verified_exact": "exact", "verified_fuzzy": "fuzzy", "metadata_mismatch": "mismatch",
             "malformed_identifier": "malformed", "parse_uncertain": "uncertain", "unresolved": "unresolved"}
    lines = ["  states          " + "".join(f"{short[s]:>11}" for s in STATES) + f"{'total':>9}"]
    rows = [(row, report.states[row]) for row in ("gold target", "gold null", "no link gold") if report.states.get(row)]
    if len(rows) > 1:
        rows.append(("all", report.state_totals))
    for label, counts in rows:
        lines.append(f"    {label:14}" + "".join(f"{counts[s]:>11,}" for s in STATES) + f"{sum(counts.values()):>9,}")
    return lines


def render_summary(reports: list[Report]) -> str:
    """One row per data set: the headline figures side by side."""
    header = f"{'data set':28}{'cases':>7}{'year':>7}{'title=':>7}{'t>=.9':>7}{'arXiv P':>8}{'arXiv R':>8}" \
             f"{'DOI P':>7}{'DOI R':>7}{'link P':>7}{'link R':>7}{'F1':>7}"
    lines = [header, "-" * len(header)]
    for r in reports:
        has_links = r.links.gold_targets or r.links.gold_null
        cells = [r.year.accuracy, r.title.exact_rate, r.title.similar_rate, r.arxiv.precision, r.arxiv.recall,
                 r.doi.precision, r.doi.recall, r.links.precision if has_links else None,
                 r.links.recall if has_links else None, r.links.f1 if has_links else None]
        widths = [7, 7, 7, 8, 8, 7, 7, 7, 7, 7]
        name = f"{r.name}*" if r.name in TRAINED_ON else r.name
        lines.append(f"{name:28}{r.cases:>7,}" + "".join(
            f"{('-' if value is None else f'{value:.3f}'):>{width}}" for value, width in zip(cells, widths)))
    if any(r.name in TRAINED_ON for r in reports):
        lines.append("* the shipped parser was trained on these strings, so their parsing figures here measure "
                     "nothing; bench/parsing.py reads each string by a model trained without it (cross-validation)")
    return "\n".join(lines)


def render(reports: list[Report], examples: int = 0) -> str:
    """Every data set's figures, then the summary table."""
    return "\n\n".join([*(render_report(r, examples) for r in reports), render_summary(reports)]) + "\n"
