"""Canonical cited works and the append-only resolution links of references."""
import uuid
from datetime import datetime
from functools import cached_property
from typing import NamedTuple

from django.db import models
from django.db.models import F, Q

from citations.models.papers import Paper
from citations.models.references import PaperReference
from citations.time_rules import LinkQuerySet


class ResolutionState(models.TextChoices):
    VERIFIED_EXACT = "verified_exact", "verified (identifier)"
    VERIFIED_FUZZY = "verified_fuzzy", "verified (title and year)"
    METADATA_MISMATCH = "metadata_mismatch", "identifier contradicts title"
    MALFORMED_IDENTIFIER = "malformed_identifier", "malformed identifier"
    PARSE_UNCERTAIN = "parse_uncertain", "parse uncertain"
    UNRESOLVED = "unresolved", "unresolved"


# The states in which a reference claims to cite a held paper: only these count as inbound.
LINKING_STATES = (ResolutionState.VERIFIED_EXACT, ResolutionState.VERIFIED_FUZZY)


class CitedWork(models.Model):
    """A canonical scholarly work a reference can be linked to (the record's cited_work.work_id)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # Unique by constraints (Meta), not unique=True: that would add a second, LIKE-pattern index of
    # each column on PostgreSQL, which nothing here queries and every imported work pays for. DOI,
    # arXiv id, volume and first page compare as bytes there (COLLATE "C": migration 0022).
    doi = models.CharField(max_length=255, null=True, blank=True, help_text="Lower case.")
    arxiv_id = models.CharField(max_length=40, null=True, blank=True)
    title = models.TextField(null=True, blank=True)
    year = models.SmallIntegerField(null=True, blank=True)
    venue = models.TextField(null=True, blank=True)
    metadata_source = models.CharField(max_length=40, null=True, blank=True)
    snapshot_observed_at = models.DateTimeField()
    paper = models.ForeignKey(Paper, on_delete=models.PROTECT, null=True, blank=True, related_name="works",
                              db_index=False, help_text="The held paper this work is, when it is one.")
    # What fuzzy resolution weighs besides the title (citations/works/): the evidence
    # biblio-glutton uses, as the source gave it when the work was first observed.
    first_author = models.CharField(max_length=100, null=True, blank=True, help_text="Family name, as the source gives it.")
    container_title = models.TextField(null=True, blank=True, help_text="Journal or proceedings.")
    volume = models.CharField(max_length=32, null=True, blank=True)
    issue = models.CharField(max_length=32, null=True, blank=True)
    first_page = models.CharField(max_length=32, null=True, blank=True)
    work_type = models.CharField(max_length=40, null=True, blank=True, help_text="As the source names it.")

    class Meta:
        db_table = "cited_works"
        constraints = [
            # Partial: most works have no arXiv id, and some no DOI; a NULL is never a duplicate, so its
            # index entry only cost each imported work an insert (bench/works.py).
            models.UniqueConstraint(fields=["doi"], name="cited_works_doi_key", condition=Q(doi__isnull=False)),
            models.UniqueConstraint(fields=["arxiv_id"], name="cited_works_arxiv_id_key",
                                    condition=Q(arxiv_id__isnull=False)),
        ]
        indexes = [
            # Works that are held papers: a few among millions, so only they are indexed.
            models.Index(fields=["paper"], name="work_of_paper", condition=Q(paper__isnull=False)),
            # DatabaseStore: a reference with no usable title, by its volume and first page.
            models.Index(fields=["volume", "first_page"], name="work_by_volume_page",
                         condition=Q(first_page__isnull=False)),
        ]

    def __str__(self) -> str:
        return self.title or self.doi or self.arxiv_id or str(self.id)

    @cached_property
    def stated(self) -> "WorkStatement":
        """The work as the record shows it now: its newest revision with a title, else its first
        observation (the record's SQL applies the same rule as of its cutoff: citations/records/statements.py).
        Reads the revisions prefetched as `revisions_newest_first` (the works API does), else queries."""
        revisions = getattr(self, "revisions_newest_first", None)
        if revisions is None:
            revisions = self.revisions.order_by("-observed_at", "-id")
        revision = next((r for r in revisions if r.title), None)
        if revision is None:
            return WorkStatement(self.title, self.year, self.venue, self.metadata_source, self.snapshot_observed_at)
        return WorkStatement(revision.title, revision.year, revision.container_title, revision.source,
                             revision.observed_at)


class WorkStatement(NamedTuple):
    title: str | None
    year: int | None
    venue: str | None
    source: str | None
    observed_at: datetime


class IdentifierKind(models.TextChoices):
    DOI = "doi", "DOI"
    ARXIV = "arxiv", "arXiv id"
    OPENALEX = "openalex", "OpenAlex id"
    DBLP = "dblp", "dblp key"
    PMID = "pmid", "PubMed id"


class WorkIdentifier(models.Model):
    """An identifier of a canonical work, as a named source asserted it at a time.

    One work, many identifiers: a preprint and its published version (arXiv 1910.02054 and its SC20
    DOI) are one work, joined by the sources' own relations (Crossref `relation`, OpenAlex
    locations, dblp links), so a reference naming either reaches it. An identifier names one work
    only; a source claiming it for another is counted, never moved.
    """

    # Both compare as bytes on PostgreSQL (COLLATE "C": migration 0022).
    kind = models.CharField(max_length=16, choices=IdentifierKind.choices)
    value = models.CharField(max_length=255, help_text="Normalised: DOIs lower case, arXiv ids without version.")
    # No foreign-key constraint, as for WorkTitleKey: identifiers are written only by the works importer
    # (citations/works/batch_store.py), in the transaction that creates their work or reads it, and works
    # are never deleted (cited_works is append-only). The deferred per-row check at commit was a large
    # share of import_works' time (bench/works.py; docs/performance.md).
    work = models.ForeignKey(CitedWork, on_delete=models.PROTECT, related_name="identifiers",
                             db_constraint=False, db_index=False)      # indexed by identifiers_of_work below
    source = models.CharField(max_length=40, help_text="Who asserted it: crossref, openalex, dblp, arxiv...")
    observed_at = models.DateTimeField()

    class Meta:
        db_table = "work_identifiers"
        constraints = [
            # Value first: the importer and the store look identifiers up by value.
            models.UniqueConstraint(fields=["value", "kind"], name="identifier_names_one_work"),
            models.CheckConstraint(condition=Q(kind__in=IdentifierKind.values), name="identifier_kind_is_known"),
        ]
        indexes = [
            # One-hop checks and the store: every identifier of a work.
            models.Index(fields=["work"], name="identifiers_of_work"),
        ]

    def __str__(self) -> str:
        return f"{self.kind}:{self.value}"


class WorkRevision(models.Model):
    """A later statement of a work's metadata by a named source, dated: what a source said of a
    work already in the store, when it adds something the store did not know (a title for a work
    first known only by the DOI a notice named, a venue version's title and year for a preprint,
    a source's corrected title). The work's own row stays as first observed; these rows are its
    history (citations/works/revisions.py decides when one is written), so a record as of a time
    shows the newest revision observed by then, and resolution weighs every title a source gave.
    """

    work = models.ForeignKey(CitedWork, on_delete=models.PROTECT, related_name="revisions", db_index=False)
    source = models.CharField(max_length=40, help_text="Who stated it: crossref, openalex, dblp, retraction_watch...")
    observed_at = models.DateTimeField()
    title = models.TextField(null=True, blank=True)
    year = models.SmallIntegerField(null=True, blank=True)
    first_author = models.CharField(max_length=100, null=True, blank=True)
    container_title = models.TextField(null=True, blank=True)
    volume = models.CharField(max_length=32, null=True, blank=True)
    issue = models.CharField(max_length=32, null=True, blank=True)
    first_page = models.CharField(max_length=32, null=True, blank=True)
    work_type = models.CharField(max_length=40, null=True, blank=True)

    class Meta:
        db_table = "work_revisions"
        indexes = [
            # The record's newest revision of a work as of a time; the store's revisions of its candidates.
            models.Index(fields=["work", "observed_at"], name="revisions_of_work"),
            # Revisions by locator, as DatabaseStore.by_locator() reads the works' own (volume, first page).
            models.Index(fields=["volume", "first_page"], name="revision_by_volume_page",
                         condition=Q(first_page__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"{self.work_id}: {self.source} @ {self.observed_at:%Y-%m-%d %H:%M}"


class PaperReferenceLink(models.Model):
    """One resolution of a reference: its state, what it links to, who decided, when.

    Append-only. A new resolution is a new row; the record shows the newest, and
    the older ones are the reference's history.
    """

    reference = models.ForeignKey(PaperReference, on_delete=models.PROTECT, related_name="links")
    state = models.CharField(max_length=24, choices=ResolutionState.choices)
    resolver_source = models.CharField(max_length=40, null=True, blank=True,
                                       help_text="What decided the state (arxiv_id, doi, title_year, curation...).")
    cited_paper = models.ForeignKey(Paper, on_delete=models.PROTECT, null=True, blank=True, related_name="inbound_links")
    cited_work = models.ForeignKey(CitedWork, on_delete=models.PROTECT, null=True, blank=True, related_name="links")
    observed_at = models.DateTimeField()
    evidence = models.JSONField(default=dict, blank=True, help_text="What matched and how well.")
    resolver_version = models.CharField(max_length=40, blank=True, default="")

    objects = LinkQuerySet.as_manager()      # current(): the newest link as of a time

    class Meta:
        db_table = "paper_reference_links"
        constraints = [
            models.CheckConstraint(condition=Q(state__in=ResolutionState.values), name="link_state_is_known"),
            # A verified state without a target would claim a citation of nothing.
            models.CheckConstraint(
                condition=~Q(state__in=LINKING_STATES) | Q(cited_paper__isnull=False) | Q(cited_work__isnull=False),
                name="verified_link_has_target",
            ),
        ]
        indexes = [
            # LinkQuerySet.current(): newest link of a reference as of a time.
            models.Index(fields=["reference", "observed_at"], name="link_newest_per_reference"),
            # Inbound itemization: links into one paper.
            models.Index(fields=["cited_paper", "state"], name="link_into_paper"),
        ]

    def __str__(self) -> str:
        return f"{self.reference_id}: {self.state} @ {self.observed_at:%Y-%m-%d %H:%M}"


class PaperTitleKey(models.Model):
    """A held paper filed under a blocking key of one of its titles (citations/parsing/text.py): how
    fuzzy matching finds candidates among millions of titles by index lookup instead of a scan. The
    key is its 64-bit fingerprint (key_fingerprint)."""

    pk = models.CompositePrimaryKey("key", "paper_id")
    key = models.BigIntegerField()
    paper = models.ForeignKey(Paper, on_delete=models.CASCADE, related_name="title_keys", db_index=False)

    class Meta:
        db_table = "paper_title_keys"
        indexes = [
            # A paper's keys, when index_titles refiles them.
            models.Index(fields=["paper"], name="keys_of_paper"),
        ]


class WorkTitleKey(models.Model):
    """A canonical work filed under a blocking key of one of its titles, as PaperTitleKey.

    The primary key (key, work) is the only index: DatabaseStore reads candidates by key through it,
    and works' keys are never refiled by owner. No foreign-key constraint: a work's keys are written
    only in the transaction that creates the work or revises it (citations/works/), and works are
    never deleted (cited_works is append-only), so a key cannot outlive its work; the per-row check
    at commit was a large share of import_works' time (bench/works.py; docs/performance.md).
    """

    pk = models.CompositePrimaryKey("key", "work_id")
    key = models.BigIntegerField()
    work = models.ForeignKey(CitedWork, on_delete=models.CASCADE, related_name="title_keys", db_constraint=False,
                             db_index=False)

    class Meta:
        db_table = "work_title_keys"


class WaitingReferenceKey(models.Model):
    """A reference that found no work, filed under a key a work arriving later could be filed under
    too: a blocking key of its title, its volume and first page, or the arXiv id it names while that
    paper is not held (citations/resolution/waiting.py). Not an observation: rewritten by each
    resolution of the reference, and empty once it links. No foreign-key constraint, as for
    WorkTitleKey: rows are written only by resolution, and a reference leaves only by a purge, which
    deletes its rows first (citations/purge.py)."""

    pk = models.CompositePrimaryKey("key", "reference_id")
    key = models.BigIntegerField()
    reference = models.ForeignKey("citations.PaperReference", on_delete=models.CASCADE, related_name="+",
                                  db_constraint=False, db_index=False)

    class Meta:
        db_table = "waiting_reference_keys"
        indexes = [
            # A reference's keys, when its next resolution refiles them.
            models.Index(fields=["reference"], name="waiting_keys_of_reference"),
        ]


def with_current_resolution(references: models.QuerySet) -> models.QuerySet:
    """References annotated with their newest resolution (state, resolver, time, cited paper, work),
    read from reference_current_resolutions (citations/models/current.py) by one join, so a filter
    on the state is an index read, not a subquery per row."""
    return references.annotate(
        current_state=F("current__state"),
        current_resolver=F("current__resolver_source"),
        resolved_at=F("current__resolved_at"),
        cited_paper_arxiv=F("current__cited_paper__arxiv_id"),
        cited_work=F("current__cited_work_id"),
    )
