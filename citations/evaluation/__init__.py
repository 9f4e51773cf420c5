"""Measuring the parser and the resolver on the public data sets in /work/shared/data.

Pure Python, no database: each data set is read into evaluation cases (a raw reference string with
whatever gold the set has) and a MemoryStore of candidate works, then every case is parsed with
`read_reference()` (the parser ingest uses) and resolved with `resolve()` exactly as production does, and the results are
counted against the gold. Nothing here tunes anything: thresholds and rules live in the code
under evaluation, and this package only measures them. The data sets, their gold and their caveats
are described in /work/shared/data/README.md and each folder's SOURCE.md.

Metrics (each data set reports those its gold supports; "n/a" where it has none):

  year accuracy      cases with a gold year whose parsed year equals it / cases with a gold year
                     (a missing parsed year counts as wrong; "missed" and "wrong" are shown apart).
  title exact        cases with a gold title whose parsed title has the same comparable_title() /
                     cases with a gold title; "title >= 0.90" the same with rapidfuzz fuzz.ratio of
                     the comparable forms >= 90. Gold titles first get clean_reference_text(), the
                     cleaning the parser applies to its input, so the metric measures where the title
                     was cut and not the PDF artefacts the annotators kept in their copy. Gold titles
                     with no comparable form (wholly CJK or Cyrillic) are not counted.
  id extraction      for arXiv ids and DOIs separately, over the valid identifiers the parser found
                     and the identifiers gold says are printed in the string: recall = found gold ids /
                     gold ids; precision = found gold ids / all found ids, counted only on cases whose
                     gold lists every printed id of that kind (elsewhere an extra find may be right).
  malformed flagged  cases whose gold prints an id that cannot be valid and where the parser reports
                     an invalid identifier of that kind / such cases.
  links              a link is the work (or paper) a resolution names. It is correct when it is one of
                     the case's gold targets. precision = correct links / links on cases with link gold
                     (a link on a case whose gold says "no work" is a false positive); recall = correct
                     links / cases with a gold target; F1 their harmonic mean. Links on cases without
                     link gold are counted apart ("unjudged") and enter neither figure.
  states             the count of each of the six states, split by whether the case has a gold target,
                     a gold "no work", or no link gold.

What each store holds decides what its link figures mean (DATASETS in datasets.py states it for each set):
  GROBID, AnyStyle   a work per gold title and year of the set itself: measures title+year linking of
                     parsed fields against the annotators' fields, with the rest of the set as distractors.
  refextract         nothing: only parse figures and states.
  Crossref 2k        every gold DOI with the deposited article-title and year, where there is one; most
                     queries' targets have no title, so only a printed DOI can reach them.
  Crossref 2,000     the gold DOIs only: literal-DOI linking, and false links on the 806 "no work" strings.
  biblio-glutton     every gold work with its title and no year, so a title must be all but identical.
  unarXive           the gold ids only (no titles): id-based linking.

The modules: cases.py (Case, PrintedIds, reading gold fields), stores.py (MemoryStore),
parse_gold.py and link_gold.py (the loaders of each data set and the works of its store),
datasets.py (the registry: Dataset, dataset(), available()), metrics.py (the counts and figures),
runner.py (run_case, Report, evaluate_dataset, evaluate) and rendering.py (the reports as text).
"""
