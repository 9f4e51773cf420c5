from datetime import timedelta

from django.core.exceptions import FieldDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import models
from django.db.models.functions import Coalesce
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import CursorPagination

from citations.validation import EARLIEST, OutOfRange, checked_date, checked_time

INVALID_CURSOR = "this cursor was not made by this API for this list; start again from the first page"


class CursorPage(CursorPagination):
    """Cursor pagination: stable pages however fast the store grows (no offsets)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
    ordering = "-id"

    def paginate_queryset(self, queryset, request, view=None):
        queryset, self._ordering, self._null_position = _without_nulls(
            queryset, _with_tiebreak(super().get_ordering(request, queryset, view)))
        self._model_queryset = queryset
        return super().paginate_queryset(queryset, request, view)

    def get_ordering(self, request, queryset, view):
        return self._ordering

    def decode_cursor(self, request):
        # A cursor is client input: DRF checks its offset and direction but passes its position
        # straight into a filter, where a position of the wrong type (or a NUL, or an out-of-range
        # time) fails in the database. Refuse those here, as 400, for every list.
        try:
            cursor = super().decode_cursor(request)
        except NotFound:
            raise ValidationError({"cursor": [INVALID_CURSOR]}) from None
        if cursor is not None and cursor.position is not None and not self._position_is_valid(cursor.position):
            raise ValidationError({"cursor": [INVALID_CURSOR]})
        return cursor

    def _position_is_valid(self, position: str) -> bool:
        if "\x00" in position:
            return False
        if position == self._null_position:
            return True
        field = _ordering_field(self._model_queryset, self.ordering[0].lstrip("-"))
        if field is None:
            return False
        try:
            value = field.to_python(position)
            if value is None:
                return False
            field.run_validators(value)        # integer fields: the database's range
            if isinstance(value, str):
                return True
            if isinstance(field, models.DateTimeField):
                checked_time(value, what="position")
            elif isinstance(field, models.DateField):
                checked_date(value, what="position")
        except (DjangoValidationError, OutOfRange, TypeError, ValueError, OverflowError):
            return False
        return True


def _with_tiebreak(ordering: tuple) -> tuple:
    """The ordering with the primary key last. A cursor is a value of the first field and an offset
    among the rows that share it, so rows with equal values (papers' reference 1, a year) must come
    in the same order on every page: PostgreSQL, unlike SQLite, returns ties in any order."""
    if any(field.lstrip("-") in ("id", "pk") for field in ordering):
        return tuple(ordering)
    return (*ordering, "-pk" if ordering and ordering[0].startswith("-") else "pk")


def _without_nulls(queryset, ordering: tuple) -> tuple:
    """A cursor is a position in the order of the first ordering field, and NULL has none: DRF would
    write "None" as the position (which no filter can read) or skip the NULL rows (year < 1995 is not
    true of NULL). Order a nullable field by a key that is never NULL instead: the value, or for NULL a
    value below every stored one. Returns the queryset, its ordering, and the NULL key as a position."""
    name = ordering[0].lstrip("-")
    field = _ordering_field(queryset, name)
    if field is None or not field.null:
        return queryset, ordering, None
    if isinstance(field, models.DateTimeField):
        below = EARLIEST - timedelta(days=1)
    elif isinstance(field, models.DateField):
        below = (EARLIEST - timedelta(days=1)).date()
    elif isinstance(field, models.IntegerField):
        below = -2_147_483_648          # below any year or count; still an integer on every database
    elif isinstance(field, (models.CharField, models.TextField)):
        below = ""
    else:
        return queryset, ordering, None
    key = f"cursor_{name}"
    output = models.IntegerField() if isinstance(field, models.IntegerField) else field.__class__()
    queryset = queryset.annotate(**{key: Coalesce(name, models.Value(below, output_field=output),
                                                  output_field=output)})
    return queryset, (ordering[0].replace(name, key), *ordering[1:]), str(below)


def _ordering_field(queryset, name: str):
    """The model field (or annotation's output field) a list is ordered by; None when unknown."""
    annotation = queryset.query.annotations.get(name)
    if annotation is not None:
        return annotation.output_field
    if name == "pk":
        return queryset.model._meta.pk
    try:
        field = queryset.model._meta.get_field(name)
    except FieldDoesNotExist:
        return None
    return field.target_field if field.is_relation and field.many_to_one else field
