"""Curation's API: audit entries (public), and overrides, withdrawals, splits and joins (curators).
Thin: the services in curation/ decide and write."""
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response

from citations.api.errors import Conflict
from citations.api.page_cache import CachedListMixin
from citations.api.parsers import PARSERS
from citations.api.permissions import HasPerm
from citations.api.schema import OBSERVATION_ID
from citations.api.views import observations
from citations.jobs.dispatch import follow_up
from citations.models import Override, PaperReference
from curation.api import serializers as s
from curation.api.filters import OverrideFilter
from curation.segmentation import join_with_next, split_reference
from curation.services import OverrideRefused, StaleRevision, apply_override, revision_of, withdraw_override


class IsCurator(HasPerm):
    perm = "citations.add_override"


class ReferenceCorrectionViewSet(viewsets.GenericViewSet):
    """A reference observation's curation: its revision, and the corrections of how its list is cut
    (/api/v1/observations/{id}/revision|split|join/)."""

    lookup_value_regex = r"[^/.]+"

    def get_queryset(self):
        return observations()

    @extend_schema(summary="The reference's curation revision (send it back with an override)",
                   parameters=[OBSERVATION_ID], responses={200: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def revision(self, request, pk=None):
        reference = self.get_object()
        return Response({"observation_id": str(reference.pk), "revision": revision_of(reference.pk)})

    @extend_schema(summary="Split a reference in two where the extractor ran two together (curators)",
                   parameters=[OBSERVATION_ID], request=s.SplitSerializer,
                   responses={201: s.CorrectionCommittedSerializer})
    @action(detail=True, methods=["post"], permission_classes=[IsCurator], parser_classes=PARSERS,
            filter_backends=[], pagination_class=None)
    def split(self, request, pk=None):
        return self._correct(request, s.SplitSerializer, split_reference)

    @extend_schema(summary="Join a reference with the next of its list, one reference cut in two (curators)",
                   parameters=[OBSERVATION_ID], request=s.CorrectionSerializer,
                   responses={201: s.CorrectionCommittedSerializer})
    @action(detail=True, methods=["post"], permission_classes=[IsCurator], parser_classes=PARSERS,
            filter_backends=[], pagination_class=None)
    def join(self, request, pk=None):
        return self._correct(request, s.CorrectionSerializer, join_with_next)

    def _correct(self, request, serializer, correct) -> Response:
        reference = self.get_object()
        body = serializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        data["expected_revision"] = data.pop("revision")
        try:
            entry = correct(reference_id=reference.pk, curator=request.user, **data)
        except StaleRevision as error:
            raise Conflict(error.message_for(request.user)) from None
        except OverrideRefused as error:
            if error.field == "revision":           # the list was corrected or replaced meanwhile
                raise Conflict(" ".join(error.messages)) from None
            raise ValidationError({error.field or "reference": error.messages}) from None
        response = _committed(entry, request)
        response.data["observations"] = [str(part.pk) for part in entry.parts]
        return response


@extend_schema_view(list=extend_schema(summary="Curation audit entries (public fields)"),
                    retrieve=extend_schema(summary="A curation audit entry"),
                    create=extend_schema(summary="Override a reference's field (curators)",
                                         request=s.OverrideCreateSerializer, responses={201: s.OverrideCommittedSerializer}))
class OverrideViewSet(CachedListMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    parser_classes = PARSERS
    lookup_value_regex = r"[0-9]+"        # audit entry ids; anything else is not an address here (404)
    serializer_class = s.OverrideSerializer
    filterset_class = OverrideFilter
    ordering_fields = ["created_at"]
    ordering = ["-id"]

    def get_queryset(self):
        return Override.objects.select_related("curator", "link_paper")

    def get_permissions(self):
        if self.action in ("create", "withdraw"):
            return [IsCurator()]
        return super().get_permissions()

    def create(self, request, *args, **kwargs):
        body = s.OverrideCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        if not PaperReference.objects.filter(pk=data["reference"]).exists():
            raise NotFound("there is no such reference observation")
        value = True if data["field"] in ("not_a_work", "checked") else data.get("value", "")
        try:
            entry = apply_override(reference_id=data["reference"], field=data["field"], value=value,
                                   reason=data["reason"], curator=request.user, expected_revision=data["revision"])
        except StaleRevision as error:
            raise Conflict(error.message_for(request.user)) from None
        except OverrideRefused as error:
            if error.field == "revision":           # the list was corrected or replaced meanwhile
                raise Conflict(" ".join(error.messages)) from None
            raise ValidationError({error.field or "value": error.messages}) from None
        return _committed(entry, request)

    @extend_schema(summary="Withdraw an override in force (its curator)", request=s.WithdrawSerializer,
                   responses={201: s.OverrideCommittedSerializer})
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def withdraw(self, request, pk=None):
        body = s.WithdrawSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            entry = withdraw_override(override_id=int(pk), reason=body.validated_data["reason"], curator=request.user,
                                      expected_revision=body.validated_data["revision"])
        except StaleRevision as error:
            raise Conflict(error.message_for(request.user)) from None
        except OverrideRefused as error:
            raise ValidationError({error.field or "override": error.messages}) from None
        return _committed(entry, request)


def _committed(entry, request) -> Response:
    """201 for a committed audit entry, saying what became of its follow-up work (the re-resolution),
    which the broker may not have taken yet: it is recorded, and sent when the broker answers."""
    body = s.OverrideSerializer(entry, context={"request": request}).data
    body["follow_up"] = follow_up(getattr(entry, "follow_up_job", None))
    return Response(body, status=status.HTTP_201_CREATED)
