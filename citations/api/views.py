"""API v1 views: thin. Querysets state their joins; writes go through the services."""
from django.conf import settings
from django.db import DataError, IntegrityError, connection
from django.db.models import F, Prefetch
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action, api_view, permission_classes, throttle_classes
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response

from citations.api import serializers as s
from citations.api.filters import ChangeFilter, CitedWorkFilter, JobFilter, ObservationFilter, StandingEventFilter
from citations.api.page_cache import CachedJobListMixin, CachedListMixin, cached_list_page
from citations.api.parsers import PARSERS
from citations.api.permissions import HasPerm
from citations.api.schema import OBSERVATION_ID
from citations.arxiv_ids import is_canonical_arxiv_id
from citations.input_files import RejectedLine, database_refusal
from citations.jobs.planning import enqueue_job, plan_resolution, runs_eagerly
from citations.models import CitedWork, CurrentResolution, Job, Paper, ScholarlyWorkEvent, WorkRevision
from citations.pages.views import record_json_response
from citations.records.build import RecordUnavailable, build_record
from citations.records.cache import cache_status
from citations.records.presentation import standing_summary
from citations.sources.reference_lists import ingest_reference_list, reference_list
from citations.tasks import resolve_chunk

# New-style ids, or old-style archive/NNNNNNN: nothing else may follow a slash, or the detail
# route would swallow its own actions ("2509.11076/references").
ARXIV_LOOKUP = r"[A-Za-z0-9.\-]+(?:/\d{7})?"


class CanIngest(HasPerm):
    perm = "citations.add_paperreference"


class CanStartJobs(HasPerm):
    perm = "citations.add_job"


class CanViewJobs(HasPerm):
    """Job arguments and errors are for operators, as in the admin (superusers have every permission)."""

    perm = "citations.view_job"


@extend_schema_view(
    list=extend_schema(summary="Papers held", parameters=[
        OpenApiParameter("search", str, description="Words of the title, or an arXiv id.")]),
    retrieve=extend_schema(summary="A paper, with the summary of its citation record"),
)
class PaperViewSet(CachedListMixin, viewsets.ReadOnlyModelViewSet):
    parser_classes = PARSERS
    lookup_field = "arxiv_id"
    lookup_value_regex = ARXIV_LOOKUP
    serializer_class = s.PaperSerializer
    extra_query_parameters = ["search"]
    ordering_fields = ["arxiv_id"]
    ordering = ["arxiv_id"]

    def get_queryset(self):
        # The newest snapshot of each paper, materialised in paper_current (citations/current/papers.py):
        # two primary-key joins a row, not a correlated subquery a field.
        papers = Paper.objects.annotate(**{name: F(f"current__snapshot__{source}") for name, source in (
            ("title", "title"), ("submitted_at", "submitted_at"), ("last_updated", "last_updated"),
            ("latest_version", "latest_version"), ("primary_category", "primary_category"), ("doi", "doi"),
            ("snapshot_observed_at", "observed_at"))})
        search = self.request.query_params.get("search", "").strip()[:200]
        if search:
            if is_canonical_arxiv_id(search):
                papers = papers.filter(arxiv_id=search)
            else:
                # The current snapshot's title, as the search page reads it (a trigram index on PostgreSQL).
                papers = papers.filter(current__snapshot__title__icontains=search)
        return papers

    def get_serializer_class(self):
        return s.PaperDetailSerializer if self.action == "retrieve" else s.PaperSerializer

    def retrieve(self, request, *args, **kwargs):
        paper = self.get_object()
        try:
            record = build_record(arxiv_id=paper.arxiv_id).record
        except RecordUnavailable as error:
            raise NotFound(str(error)) from None
        summary = standing_summary(record)
        paper.thesis = record["thesis"]
        paper.state_counts = record["reference_resolution"]["state_counts"]
        paper.total_outbound_references = record["reference_resolution"]["total_outbound_references"]
        paper.total_inbound = record["coverage"][2]["denominator"]
        paper.cites_retracted_work = summary.cites_retracted
        paper.retracted_cited_works = summary.retracted
        paper.external_citation_measurements = record["external_citation_measurements"]
        return Response(self.get_serializer(paper).data)

    @extend_schema(summary="The paper's citation record: the canonical pith.paper-citation-record.v1 bytes",
                   responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="The record (see /evidence)."),
                              304: OpenApiResponse(description="Not modified (If-None-Match)."),
                              404: OpenApiResponse(description="Not held.")})
    @action(detail=True, url_path="citation-record", methods=["get"], pagination_class=None, filter_backends=[])
    def citation_record(self, request, arxiv_id=None):
        return record_json_response(request._request, arxiv_id)

    @extend_schema(summary="Ingest a reference list for one version of the paper", request=s.ReferenceListSerializer,
                   responses={201: s.IngestResultSerializer, 200: s.IngestResultSerializer})
    @action(detail=True, methods=["post"], permission_classes=[CanIngest], filter_backends=[], pagination_class=None)
    def references(self, request, arxiv_id=None):
        body = s.ReferenceListSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        if not is_canonical_arxiv_id(arxiv_id) or not Paper.objects.filter(arxiv_id=arxiv_id).exists():
            raise NotFound(f"arXiv:{arxiv_id} is not held: import its arXiv metadata first")
        if any(not r["raw"].strip() for r in data["references"]):
            raise ValidationError({"references": ["a reference's raw text is empty"]})
        try:
            # The importer's own checks (a lone surrogate, an index twice...), so both refuse alike.
            outcome, ids = ingest_reference_list(reference_list({"arxiv_id": arxiv_id, **data}))
        except RejectedLine as error:
            raise ValidationError({"references": [str(error)]}) from None
        except (DataError, IntegrityError, UnicodeEncodeError) as error:
            # What the checks let through and the database refuses is the input's fault: a 400.
            raise ValidationError({"references": [database_refusal(error)]}) from None
        result = {"outcome": outcome, "references": len(ids), "observation_ids": ids}
        return Response(s.IngestResultSerializer(result).data,
                        status=status.HTTP_201_CREATED if outcome == "created" else status.HTTP_200_OK)

    @extend_schema(summary="Start resolving the paper's references", request=None,
                   responses={202: s.JobSerializer})
    @action(detail=True, methods=["post"], permission_classes=[CanStartJobs], filter_backends=[],
            pagination_class=None)
    def resolve(self, request, arxiv_id=None):
        paper = self.get_object()
        job = plan_resolution(arxiv_ids=[paper.arxiv_id])
        if runs_eagerly():
            for chunk_id in job.chunks.values_list("id", flat=True):
                resolve_chunk.apply(args=[chunk_id], throw=True)
        else:
            enqueue_job(job)
        job.refresh_from_db()
        return Response(s.JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


@extend_schema_view(list=extend_schema(summary="Reference observations, with their newest resolution"),
                    retrieve=extend_schema(summary="One reference observation", parameters=[OBSERVATION_ID]))
class ObservationViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = s.ObservationSerializer
    filterset_class = ObservationFilter
    # Orders served by an index (citations/models/current.py): time with every filter, list order
    # within one citing paper. Nothing else is sortable: a sort without an index reads the whole store.
    ordering_fields = ["observed_at", "reference_index"]
    ordering = ["observed_at"]

    def get_queryset(self):
        return observations()

    def list(self, request, *args, **kwargs):
        ordering = request.query_params.get("ordering", "")
        if "reference_index" in ordering and not request.query_params.get("citing_paper"):
            raise ValidationError({"ordering": ["reference_index orders the references of one paper: "
                                                "give citing_paper too"]})
        return cached_list_page(self, request, lambda: observation_page(self, request))


def observations():
    """Current resolutions with their references, citing and cited papers: one statement a page."""
    return CurrentResolution.objects.select_related("reference__extraction__paper_version", "citing_paper",
                                                    "cited_paper")


def observation_page(view, request) -> Response:
    """A page of an observation list as plain rows (serializers.observation_row), same JSON, same cursors."""
    rows = view.paginate_queryset(view.filter_queryset(view.get_queryset()).values(*s.OBSERVATION_VALUES))
    return view.get_paginated_response(s.observation_rows(rows))


@extend_schema_view(list=extend_schema(
    summary="Changes feed: observations whose record-visible state changed after a time, oldest change first",
    description="Resume from the cursor of the last page read; a change made while you page appears later in the "
                "feed, never before your position."))
class ChangeViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    serializer_class = s.ObservationSerializer
    filterset_class = ChangeFilter
    ordering_fields = ["changed_at"]
    ordering = ["changed_at"]

    def get_queryset(self):
        return observations()

    def list(self, request, *args, **kwargs):
        return cached_list_page(self, request, lambda: observation_page(self, request))


@extend_schema_view(list=extend_schema(summary="Canonical cited works"), retrieve=extend_schema(summary="A work"))
class CitedWorkViewSet(CachedListMixin, viewsets.ReadOnlyModelViewSet):
    # The page, then its works' revisions (one statement for the page, whatever its size).
    queryset = CitedWork.objects.select_related("paper").prefetch_related(
        Prefetch("revisions", queryset=WorkRevision.objects.order_by("-observed_at", "-id"),
                 to_attr="revisions_newest_first"))
    serializer_class = s.CitedWorkSerializer
    filterset_class = CitedWorkFilter
    ordering_fields = ["snapshot_observed_at", "year"]
    ordering = ["snapshot_observed_at", "id"]


@extend_schema_view(list=extend_schema(summary="Standing events (retractions, corrections...) from named sources"),
                    retrieve=extend_schema(summary="A standing event"))
class StandingEventViewSet(CachedListMixin, viewsets.ReadOnlyModelViewSet):
    queryset = ScholarlyWorkEvent.objects.all()
    serializer_class = s.StandingEventSerializer
    filterset_class = StandingEventFilter
    ordering_fields = ["occurred_on", "observed_at"]
    ordering = ["id"]


@extend_schema_view(list=extend_schema(summary="Background jobs (operators)"), retrieve=extend_schema(summary="A job"))
class JobViewSet(CachedJobListMixin, viewsets.ReadOnlyModelViewSet):
    queryset = Job.objects.all()
    serializer_class = s.JobSerializer
    permission_classes = [CanViewJobs]
    lookup_value_regex = r"[0-9]+"
    filterset_class = JobFilter
    ordering_fields = ["created_at"]
    ordering = ["-id"]


@extend_schema(summary="Health: the database, the broker and the cache answer", responses={200: s.HealthSerializer,
                                                                                  503: s.HealthSerializer})
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
@throttle_classes([])
def health(request):
    return _health(request)


# The same check at the address with a slash, for clients that add one; the schema lists one address.
@extend_schema(exclude=True)
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
@throttle_classes([])
def health_with_slash(request):
    return _health(request)


def _health(request):
    database, broker = _database_status(), "ok"
    if settings.CELERY_TASK_ALWAYS_EAGER:
        broker = "eager (no broker: tasks run in the web process)"
    else:
        from pith.celery import app

        try:
            with app.connection_for_write() as conn:
                conn.ensure_connection(max_retries=1, timeout=2)
        except Exception as error:  # noqa: BLE001
            broker = f"down: {type(error).__name__}"
    cache = cache_status()
    healthy = database == "ok" and not broker.startswith("down") and cache == "ok"
    # 503 only when nothing can be served: with the broker or the cache down, pages and records
    # are still served (from the database; follow-up work waits in the job table), so a load
    # balancer must keep this process, and "degraded" tells the operator what is missing.
    return Response({"status": "ok" if healthy else "degraded", "database": database, "broker": broker,
                     "cache": cache},
                    status=status.HTTP_503_SERVICE_UNAVAILABLE if database != "ok" else status.HTTP_200_OK)


def _database_status() -> str:
    """"ok", or "down: <error>" when a fresh connection fails too: a connection the server ended
    since it was last checked (a restart, pg_terminate_backend) is no outage, and a load balancer
    told 503 would take a working process out."""
    for attempt in (1, 2):
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
            return "ok"
        except Exception as error:  # noqa: BLE001 - any failure is "down", and says why
            if attempt == 2 or connection.in_atomic_block:
                return f"down: {type(error).__name__}"
            connection.close()
    return "down"
