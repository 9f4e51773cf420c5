"""A source package's reference list as citations/extraction/latex_references.py returns it:
SourceReferences, each entry a SourceReference with its index, text, cite key and where it was read."""
from dataclasses import dataclass
from typing import Literal

Origin = Literal["latex_bbl", "latex_bib"]


@dataclass(frozen=True)
class SourceReference:
    index: int          # 1-based position in the reference list
    raw_text: str
    key: str            # the cite key (\bibitem{key}, \entry{key}, @article{key,)
    origin: Origin
    member: str         # the file inside the package it was read from
    links: tuple[str, ...] = ()  # \href and \url targets: the printed text often hides the DOI


@dataclass(frozen=True)
class SourceReferences:
    references: list[SourceReference]
    origin: Origin | None            # None: the package has TeX but no bibliography
    members: tuple[str, ...]         # the files the references were read from
    notes: list[str]                 # what was chosen, skipped or guessed, and why
