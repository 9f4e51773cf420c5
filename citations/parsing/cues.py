"""Lexical cues: a few words that announce a field ("proc", "vol", "pp", "eds", "journal"), grouped.

These are cue words, not gazetteers: no journal, place or publisher names, so the model reads
styles rather than remembering the venues of its training data.
"""

_GROUPS = {
    "proc": "proc proceedings procs conf conference conferences symposium symp workshop meeting congress "
            "colloquium annual international int intl",
    "vol": "vol vols volume volumes bd",
    "no": "no nos nr num number issue iss",
    "pp": "pp p pages page pgs s",
    "in": "in",
    "eds": "ed eds editor editors edited hrsg hg dir",
    "journal": "journal j jour trans transactions lett letters rev review reviews acta ann annals bull bulletin "
               "phys astrophys astron chem nat nature sci science res commun mon not nucl math",
    "press": "press publisher publishers publishing verlag pub publ books inc ltd co wiley springer elsevier",
    "univ": "university univ universität université institute inst dept department school college laboratory lab",
    "arxiv": "arxiv preprint eprint e-print corr",
    "doi": "doi",
    "isbn": "isbn issn",
    "web": "http https www url html org com",
    "etal": "et al",
    "and": "and und et",
    "thesis": "thesis phd ph dissertation diss master masters msc",
    "report": "report tech technical rep memo memorandum",
    "access": "accessed retrieved available online visited",
    "edition": "edn edition",
    "series": "series ser lecture notes lncs",
    "submitted": "submitted accepted press forthcoming prep preparation",
    "month": "jan january feb february mar march apr april may jun june jul july aug august sep sept september "
             "oct october nov november dec december spring summer autumn fall winter",
}

CUES = {word: group for group, words in _GROUPS.items() for word in words.split()}

# Words that say what a cited thing is without naming it ("Personal communication.", "Unpublished.",
# "Lecture notes."): no title is made of them. (No feature: the model was trained without them.)
UNNAMED = frozenset({"personal", "private", "unpublished", "manuscript", "lecture", "talk", "poster", "letter"})

MONTHS = {name: number for number, names in enumerate(
    ["jan january", "feb february", "mar march", "apr april", "may", "jun june", "jul july", "aug august",
     "sep sept september", "oct october", "nov november", "dec december"], start=1) for name in names.split()}
