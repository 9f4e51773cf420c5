"""Reference lists of citing paper versions, as extracted (from PDF text, or read from a v1 record)."""
import uuid

from django.db import models

from citations.models.papers import PaperVersion

# Where a reference list came from (ReferenceExtraction.source; the record's observation `source`).
PDF_TEXT, LATEX_BBL, LATEX_BIB = "pdf_text", "latex_bbl", "latex_bib"
REFERENCE_SOURCES = (PDF_TEXT, LATEX_BBL, LATEX_BIB, "latex", "grobid", "crossref")
# The authors' own bibliography (from the arXiv source package) beats text read off the PDF: when a
# version has both, its record shows the source's list, whichever was read last; the PDF's list
# stays stored beside it as evidence. Among lists of one rank the newest wins, as before.
FROM_SOURCE_PACKAGE = (LATEX_BBL, LATEX_BIB, "latex")


def source_rank_sql(alias: str) -> str:
    """SQL ordering a version's lists best first (ASC): 0 for the source package's, 1 for the rest."""
    listed = ", ".join(f"'{source}'" for source in FROM_SOURCE_PACKAGE)
    return f"CASE WHEN {alias}.source IN ({listed}) THEN 0 ELSE 1 END"


def source_rank():
    """source_rank_sql() for the ORM."""
    return models.Case(models.When(source__in=FROM_SOURCE_PACKAGE, then=0), default=1,
                       output_field=models.IntegerField())


class ExtractionOrigin(models.TextChoices):
    INGEST = "ingest", "ingested reference list"
    RECORD_IMPORT = "record_import", "read from a v1 record"
    CURATION = "curation", "a curator's segmentation correction of another list"
    REREAD = "reread", "the same list read again by a newer parser"


class ReferenceExtraction(models.Model):
    """One observation set: the reference list of a paper version as one extraction saw it.

    A new extraction of the same version is a new set; old sets stay. A record
    itemizes the newest set, so references are never counted twice.
    """

    paper_version = models.ForeignKey(PaperVersion, on_delete=models.PROTECT, related_name="extractions")
    source = models.CharField(max_length=32, help_text="Where the list came from, e.g. pdf_text.")
    origin = models.CharField(max_length=16, choices=ExtractionOrigin.choices)
    observed_at = models.DateTimeField()
    content_digest = models.CharField(max_length=71, blank=True, default="",
                                      help_text="sha256 of the ingested list; a re-ingest of the same list is a no-op.")
    # A curator's correction of a list's segmentation, and the same list read again by a newer
    # parser, are new lists (citations/sources/successor_lists.py): this names the list taken over.
    # (DO_NOTHING: a purge removes a version's lists together.)
    corrects = models.ForeignKey("self", on_delete=models.DO_NOTHING, null=True, blank=True, related_name="corrections",
                                 help_text="The list this one takes the place of (origins curation and reread).")

    class Meta:
        db_table = "reference_extractions"
        constraints = [
            # A v1 record does not say where one extraction ends, so everything read from
            # records for one version and source is one set (and records can be read in any order).
            models.UniqueConstraint(fields=["paper_version", "source"], condition=models.Q(origin="record_import"),
                                    name="one_imported_extraction_per_version_source"),
        ]
        indexes = [
            # The record's outbound list and inbound filter: newest extraction of a version as of a time.
            models.Index(fields=["paper_version", "observed_at"], name="extraction_newest_per_version"),
        ]

    def __str__(self) -> str:
        return f"{self.paper_version} {self.source} @ {self.observed_at:%Y-%m-%d %H:%M}"


class ListReading(models.Model):
    """A parser's reading of a list that left nothing to write: every reference read as it is stored
    (or the list it wrote in its place, whose carried references keep the name of the parser that read
    them first). reparse_references does not read such a list again under that parser's name
    (citations/sources/rereading.py). Bookkeeping, not an observation: a purge removes it with its list."""

    extraction = models.ForeignKey(ReferenceExtraction, on_delete=models.DO_NOTHING, related_name="readings")
    parser = models.CharField(max_length=40)
    read_at = models.DateTimeField()

    class Meta:
        db_table = "reference_list_readings"
        constraints = [models.UniqueConstraint(fields=["extraction", "parser"], name="one_reading_per_list_and_parser")]


class PaperReference(models.Model):
    """One reference of a citing version: an observation, never edited after it is written.

    The id is the record's observation_id. Parsed fields are what the parser (or
    the record this came from) read; curators correct them with overrides
    (curation.Override), layered over this row.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    extraction = models.ForeignKey(ReferenceExtraction, on_delete=models.PROTECT, related_name="references")
    reference_index = models.PositiveIntegerField(help_text="Position in the citing version's list, as parsed.")
    raw_text = models.TextField(null=True, blank=True, help_text="The reference as extracted, when known.")
    page = models.PositiveIntegerField(null=True, blank=True, help_text="The PDF page it starts on, when read from one.")
    title = models.TextField(null=True, blank=True)
    year = models.SmallIntegerField(null=True, blank=True)
    authors = models.JSONField(default=list, blank=True)
    venue = models.TextField(null=True, blank=True)
    arxiv_id = models.CharField(max_length=40, null=True, blank=True, help_text="A valid arXiv id the reference names.")
    doi = models.CharField(max_length=255, null=True, blank=True, help_text="A valid DOI the reference names, lower case.")
    identifiers = models.JSONField(default=list, blank=True, help_text="Every identifier found, with its validity.")
    parser = models.CharField(max_length=40, help_text="What produced the parsed fields.")
    observed_at = models.DateTimeField()
    derived_from = models.ForeignKey("self", on_delete=models.DO_NOTHING, null=True, blank=True, related_name="successors",
                                     db_index=False, help_text="In a curated list: the reference of the corrected list this one was "
                                                               "carried over, split or joined from.")

    class Meta:
        db_table = "paper_references"
        indexes = [
            # Outbound itemization: a list's references in reference_index order.
            models.Index(fields=["extraction", "reference_index"], name="reference_in_list_order"),
            # A works import re-resolves the references printing a DOI it has just learnt.
            models.Index(fields=["doi"], name="reference_by_doi", condition=models.Q(doi__isnull=False)),
            # A corrected reference's page leads to its successors in the corrected list.
            models.Index(fields=["derived_from"], name="reference_successors",
                         condition=models.Q(derived_from__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"[{self.reference_index}] {self.title or self.raw_text or self.id}"
