"""Serializers of API v1: they shape and validate; the services decide. (Curation's are in curation/api/.)"""
from rest_framework import serializers

from citations.models import CitedWork, Job, Paper, ScholarlyWorkEvent, WorkRevision
from citations.models.overrides import active_overrides
from citations.models.references import PDF_TEXT, REFERENCE_SOURCES
from citations.records.build import record_links
from citations.sources.reference_lists import MAX_RAW_TEXT


class PaperSerializer(serializers.ModelSerializer):
    title = serializers.CharField(allow_null=True, read_only=True)
    submitted_at = serializers.DateTimeField(allow_null=True, read_only=True)
    last_updated = serializers.DateTimeField(allow_null=True, read_only=True)
    latest_version = serializers.IntegerField(allow_null=True, read_only=True)
    primary_category = serializers.CharField(allow_null=True, read_only=True)
    doi = serializers.CharField(allow_null=True, read_only=True)
    snapshot_observed_at = serializers.DateTimeField(allow_null=True, read_only=True)
    links = serializers.SerializerMethodField()

    class Meta:
        model = Paper
        fields = ("arxiv_id", "title", "submitted_at", "last_updated", "latest_version", "primary_category", "doi",
                  "snapshot_observed_at", "links")

    def get_links(self, paper) -> dict[str, str]:
        return {**record_links(paper.arxiv_id), "api_record": f"/api/v1/papers/{paper.arxiv_id}/citation-record/"}


class StandingItemSerializer(serializers.Serializer):
    reference_index = serializers.IntegerField()
    observation_id = serializers.UUIDField()
    title = serializers.CharField(allow_null=True)
    doi = serializers.CharField(allow_null=True)
    event_type = serializers.CharField()
    source = serializers.CharField()
    notice_doi = serializers.CharField(allow_null=True)
    occurred_on = serializers.CharField(allow_null=True)


class PaperDetailSerializer(PaperSerializer):
    thesis = serializers.CharField(read_only=True)
    state_counts = serializers.DictField(child=serializers.IntegerField(), read_only=True)
    total_outbound_references = serializers.IntegerField(read_only=True)
    total_inbound = serializers.IntegerField(read_only=True)
    cites_retracted_work = serializers.BooleanField(read_only=True)
    retracted_cited_works = StandingItemSerializer(many=True, read_only=True)
    external_citation_measurements = serializers.ListField(child=serializers.DictField(), read_only=True)

    class Meta(PaperSerializer.Meta):
        fields = PaperSerializer.Meta.fields + (
            "thesis", "state_counts", "total_outbound_references", "total_inbound", "cites_retracted_work",
            "retracted_cited_works", "external_citation_measurements")


class CurrentResolutionSerializer(serializers.Serializer):
    state = serializers.CharField()
    resolver_source = serializers.CharField(allow_null=True)
    observed_at = serializers.DateTimeField(source="resolved_at")
    cited_paper = serializers.CharField(source="cited_paper.arxiv_id", allow_null=True, default=None)
    cited_work_id = serializers.UUIDField(allow_null=True)


class ObservationSerializer(serializers.Serializer):
    """A reference observation with its current resolution: a row of reference_current_resolutions
    (citations/models/current.py) and the reference it belongs to, read by one joined statement."""

    observation_id = serializers.UUIDField(source="reference_id")
    citing_paper = serializers.CharField(source="citing_paper.arxiv_id")
    citing_version = serializers.IntegerField(source="reference.extraction.paper_version.version")
    reference_index = serializers.SerializerMethodField(
        help_text="What the record shows: the number a curator corrected it to where one is in force, else as read.")
    source = serializers.CharField()
    raw_text = serializers.CharField(source="reference.raw_text", allow_null=True)
    title = serializers.SerializerMethodField(help_text="What the record shows: a curator's title where one is in "
                                                        "force, else the parsed one.")
    year = serializers.SerializerMethodField(help_text="What the record shows: a curator's year where one is in "
                                                       "force, else the parsed one.")
    parsed_title = serializers.CharField(source="reference.title", allow_null=True)
    parsed_year = serializers.IntegerField(source="reference.year", allow_null=True)
    curated = serializers.SerializerMethodField(
        help_text="Each field a curator's override is in force for (title, year, link, not_a_work, checked, index), "
                  "with its audit entry id.")
    authors = serializers.JSONField(source="reference.authors")
    venue = serializers.CharField(source="reference.venue", allow_null=True)
    arxiv_id = serializers.CharField(source="reference.arxiv_id", allow_null=True)
    doi = serializers.CharField(allow_null=True)
    identifiers = serializers.JSONField(source="reference.identifiers")
    parser = serializers.CharField(source="reference.parser")
    observed_at = serializers.DateTimeField()
    resolution = CurrentResolutionSerializer(source="*")
    has_override = serializers.BooleanField(source="curated")
    changed_at = serializers.DateTimeField()

    def _in_force(self, row) -> dict:
        """The overrides in force for the row's reference, read once per reference (title, year and
        curated all ask); nothing to read when the row is not curated."""
        if not row.curated:
            return {}
        known = self.context.setdefault("curated", {})
        if row.reference_id not in known:
            known[row.reference_id] = curated_on([row.reference_id]).get(row.reference_id, {})
        return known[row.reference_id]

    def get_reference_index(self, row) -> int:
        return self._in_force(row).get("index", row.reference_index)

    def get_title(self, row) -> str | None:
        return self._in_force(row).get("title", row.reference.title)

    def get_year(self, row) -> int | None:
        return self._in_force(row).get("year", row.reference.year)

    def get_curated(self, row) -> dict[str, int]:
        return dict(self._in_force(row).get("ids", {}))


class WorkRevisionSerializer(serializers.ModelSerializer):
    venue = serializers.CharField(source="container_title", allow_null=True)

    class Meta:
        model = WorkRevision
        fields = ("source", "observed_at", "title", "year", "first_author", "venue", "volume", "issue", "first_page",
                  "work_type")


class CitedWorkSerializer(serializers.ModelSerializer):
    """A work as the record shows it: its newest titled statement (a later source's revision, else the
    first observation), with every revision listed, newest first."""

    work_id = serializers.UUIDField(source="id")
    title = serializers.CharField(source="stated.title", allow_null=True, read_only=True)
    year = serializers.IntegerField(source="stated.year", allow_null=True, read_only=True)
    venue = serializers.CharField(source="stated.venue", allow_null=True, read_only=True)
    metadata_source = serializers.CharField(source="stated.source", allow_null=True, read_only=True,
                                            help_text="The source of the statement shown.")
    snapshot_observed_at = serializers.DateTimeField(source="stated.observed_at", read_only=True,
                                                     help_text="When that statement was observed.")
    pith_arxiv_id = serializers.CharField(source="paper.arxiv_id", allow_null=True, default=None)
    revisions = WorkRevisionSerializer(source="revisions_newest_first", many=True, read_only=True,
                                       help_text="Later statements of the work by named sources, newest first.")

    class Meta:
        model = CitedWork
        fields = ("work_id", "doi", "arxiv_id", "title", "year", "venue", "metadata_source", "snapshot_observed_at",
                  "pith_arxiv_id", "revisions")


class StandingEventSerializer(serializers.ModelSerializer):
    class Meta:
        model = ScholarlyWorkEvent
        fields = ("id", "source", "source_record_id", "event_type", "subject_doi", "notice_doi", "occurred_on",
                  "reason", "observed_at")


class ReferenceInputSerializer(serializers.Serializer):
    index = serializers.IntegerField(min_value=0, max_value=2_147_483_647)
    raw = serializers.CharField(max_length=MAX_RAW_TEXT, trim_whitespace=False)


class ReferenceListSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=1, max_value=1000)
    source = serializers.ChoiceField(choices=list(REFERENCE_SOURCES), default=PDF_TEXT)
    references = ReferenceInputSerializer(many=True, allow_empty=False, max_length=5000)


class IngestResultSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=["created", "unchanged"])
    references = serializers.IntegerField()
    observation_ids = serializers.ListField(child=serializers.UUIDField())


class JobSerializer(serializers.ModelSerializer):
    progress = serializers.FloatField(read_only=True)

    class Meta:
        model = Job
        fields = ("id", "kind", "arguments", "state", "total_chunks", "done_chunks", "progress", "counts",
                  "created_at", "started_at", "finished_at", "error", "dispatched_at", "dispatches")


class HealthSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "degraded"])
    database = serializers.CharField()
    broker = serializers.CharField()
    cache = serializers.CharField(help_text="ok, or down: records are then served from the database")


# --- the observation lists' fast path ------------------------------------------------------------
# A page of 50 observations through ObservationSerializer spends most of its time in DRF's field
# machinery (and in building four model instances a row). The lists read plain rows instead and
# shape them here, field for field as ObservationSerializer does (tests/api/test_observation_rows.py
# compares the two on every row of the seeds), which keeps the serializer as the schema.
OBSERVATION_VALUES = (
    "reference_id", "citing_paper__arxiv_id", "reference__extraction__paper_version__version", "reference_index",
    "source", "reference__raw_text", "reference__title", "reference__year", "reference__authors", "reference__venue",
    "reference__arxiv_id", "doi", "reference__identifiers", "reference__parser", "observed_at", "state",
    "resolver_source", "resolved_at", "cited_paper__arxiv_id", "cited_work_id", "curated", "changed_at")
_TIME = serializers.DateTimeField()


def curated_on(reference_ids) -> dict:
    """reference id -> the overrides in force (citations.models.overrides.active_overrides): one statement
    for a page, none when no reference on it is curated."""
    ids = list(reference_ids)
    return active_overrides(reference_ids=ids) if ids else {}


def observation_rows(rows: list[dict]) -> list[dict]:
    """A page of OBSERVATION_VALUES rows as ObservationSerializer represents them, with the curated
    values of the page read in one statement."""
    curated = curated_on(row["reference_id"] for row in rows if row["curated"])
    return [observation_row(row, curated.get(row["reference_id"], {})) for row in rows]


def observation_row(row: dict, in_force: dict) -> dict:
    """ObservationSerializer's representation of one row of OBSERVATION_VALUES, given the overrides
    in force for its reference."""
    work = row["cited_work_id"]
    return {
        "observation_id": str(row["reference_id"]), "citing_paper": row["citing_paper__arxiv_id"],
        "citing_version": row["reference__extraction__paper_version__version"],
        "reference_index": in_force.get("index", row["reference_index"]), "source": row["source"],
        "raw_text": row["reference__raw_text"],
        "title": in_force.get("title", row["reference__title"]), "year": in_force.get("year", row["reference__year"]),
        "parsed_title": row["reference__title"], "parsed_year": row["reference__year"],
        "curated": dict(in_force.get("ids", {})), "authors": row["reference__authors"],
        "venue": row["reference__venue"], "arxiv_id": row["reference__arxiv_id"], "doi": row["doi"],
        "identifiers": row["reference__identifiers"], "parser": row["reference__parser"],
        "observed_at": _TIME.to_representation(row["observed_at"]),
        "resolution": {"state": row["state"], "resolver_source": row["resolver_source"],
                       "observed_at": _TIME.to_representation(row["resolved_at"]),
                       "cited_paper": row["cited_paper__arxiv_id"], "cited_work_id": str(work) if work else None},
        "has_override": row["curated"], "changed_at": _TIME.to_representation(row["changed_at"]),
    }
