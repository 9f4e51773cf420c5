"""The values the PDF reader passes between its steps, and the refusal it raises."""
from dataclasses import dataclass


class PdfRefused(ValueError):
    """The PDF cannot give a reference list; the message says why in plain words."""


@dataclass(frozen=True)
class PdfReference:
    index: int
    raw_text: str
    page: int


@dataclass(frozen=True)
class PdfReferences:
    references: list[PdfReference]
    pages: int
    heading: str | None


@dataclass(frozen=True)
class TextWord:
    """A run of characters without a space, in PDF user space (y grows upwards), pages from 1."""
    page: int
    x0: float
    x1: float
    bottom: float
    top: float
    text: str
    size: float
    bold: bool = False


@dataclass(frozen=True)
class PageSize:
    width: float
    height: float


@dataclass
class Line:
    page: int
    column: int              # 0 left (or the only column), 1 right, -1 across both columns
    x0: float
    x1: float
    bottom: float
    size: float
    bold: bool
    text: str
    left: float = 0.0        # the column's left edge and right edge on this page
    right: float = 0.0
    wide_gaps: int = 0       # gaps of two ems or more between its words (a table's cells)
