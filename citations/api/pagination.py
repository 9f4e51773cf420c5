import json
from datetime import timedelta

from django.core.exceptions import FieldDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.fields.tuple_lookups import Tuple, TupleGreaterThan, TupleLessThan
from django.db.models.functions import Coalesce
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import Cursor, CursorPagination

from citations.validation import EARLIEST, OutOfRange, checked_date, checked_time

INVALID_CURSOR = "this cursor was not made by this API for this list; start again from the first page"


class CursorPage(CursorPagination):
    """Keyset pagination: stable pages however fast the store grows (no offsets), to the last row.

    A cursor is the position of a row in the list's full ordering, which ends with the primary key:
    the tuple of its ordering values (JSON in the cursor), and a page is the rows strictly after it,
    `(a, id) > (x, y)`. DRF's cursor is the first field's value and an offset among the rows sharing
    it, capped at 1,000: past 1,000 ties (a sync's events share a time, a long reference list its
    observation time) it served the same page forever. A cursor DRF made (one value, an offset) is
    still read, so a consumer resuming the changes feed from a stored cursor goes on; the next link is
    of the new kind."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
    ordering = "-id"

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        self.page_size = self.get_page_size(request)
        if not self.page_size:
            return None
        self.base_url = request.build_absolute_uri()
        queryset, self.ordering, self._null_positions = _without_nulls(
            queryset, _with_tiebreak(super().get_ordering(request, queryset, view)))
        self._model_queryset = queryset
        self.cursor = self.decode_cursor(request)
        reverse = self.cursor is not None and self.cursor.reverse
        queryset = queryset.order_by(*(_reverse_ordering(self.ordering) if reverse else self.ordering))
        offset = self.cursor.offset if self.cursor is not None else 0      # DRF's cursors only
        if self.cursor is not None and self.cursor.position is not None:
            if self._legacy:
                # DRF's own cursor: after the first field's value, past `offset` rows sharing the next one.
                name, descending = _field(self.ordering[0])
                lookup = "lt" if descending != reverse else "gt"
                queryset = queryset.filter(**{f"{name}__{lookup}": self._values[0]})
            else:
                queryset = queryset.filter(_after(self.ordering, self._values, before=reverse))
        results = list(queryset[offset:offset + self.page_size + 1])
        self.page = results[:self.page_size]
        more = len(results) > len(self.page)
        at_position = self.cursor is not None and (self.cursor.position is not None or self.cursor.offset > 0)
        if reverse:
            self.page.reverse()
            self.has_next, self.has_previous = at_position, more
        else:
            self.has_next, self.has_previous = more, at_position
        if (self.has_previous or self.has_next) and self.template is not None:
            self.display_page_controls = True
        return self.page

    def get_ordering(self, request, queryset, view):
        return self.ordering

    def get_next_link(self):
        if not self.has_next or not self.page:
            return None
        return self.encode_cursor(Cursor(offset=0, reverse=False, position=self._position_of(self.page[-1])))

    def get_previous_link(self):
        if not self.has_previous or not self.page:
            return None
        return self.encode_cursor(Cursor(offset=0, reverse=True, position=self._position_of(self.page[0])))

    def _position_of(self, row) -> str:
        return json.dumps([str(_value_of(row, name, self._model_queryset.model)) for name, _ in
                           map(_field, self.ordering)], separators=(",", ":"))

    def decode_cursor(self, request):
        # A cursor is client input: its position goes into a filter, where a value of the wrong type
        # (or a NUL, or an out-of-range time) fails in the database. Refuse those here, as 400, for
        # every list: the position's values are checked against their fields and converted.
        self._legacy, self._values = False, None
        try:
            cursor = super().decode_cursor(request)
        except NotFound:
            raise ValidationError({"cursor": [INVALID_CURSOR]}) from None
        if cursor is None or cursor.position is None:
            if cursor is not None and cursor.reverse:
                raise ValidationError({"cursor": [INVALID_CURSOR]})
            return cursor                   # the first page, or DRF's offset into it
        values = self._position_values(cursor.position)
        if values is None:
            raise ValidationError({"cursor": [INVALID_CURSOR]})
        self._values = values
        if self._legacy and cursor.reverse:
            raise ValidationError({"cursor": [INVALID_CURSOR]})
        if not self._legacy and cursor.offset:
            raise ValidationError({"cursor": [INVALID_CURSOR]})
        return cursor

    def _position_values(self, position: str) -> list | None:
        """The position's values, one for each ordering field, as Python values; None if not valid."""
        if "\x00" in position:
            return None
        try:
            parts = json.loads(position) if position.startswith("[") else None
        except ValueError:
            return None
        if parts is None:
            self._legacy, parts = True, [position]
        elif len(parts) != len(self.ordering) or not all(isinstance(part, str) for part in parts):
            return None
        values = []
        for ordering, part in zip(self.ordering, parts):
            value = self._value(_field(ordering)[0], part)
            if value is None:
                return None
            values.append(value)
        return values

    def _value(self, name: str, text: str):
        if "\x00" in text:
            return None
        field = _ordering_field(self._model_queryset, name)
        if field is None:
            return None
        try:
            value = field.to_python(text)
            if value is None:
                return None
            field.run_validators(value)        # integer fields: the database's range
            if text == self._null_positions.get(name):
                return value
            if isinstance(field, models.DateTimeField):
                checked_time(value, what="position")
            elif isinstance(field, models.DateField):
                checked_date(value, what="position")
        except (DjangoValidationError, OutOfRange, TypeError, ValueError, OverflowError):
            return None
        return value


def _field(ordering: str) -> tuple[str, bool]:
    return ordering.lstrip("-"), ordering.startswith("-")


def _reverse_ordering(ordering: tuple) -> tuple:
    return tuple(name[1:] if name.startswith("-") else f"-{name}" for name in ordering)


def _value_of(row, name: str, model):
    if isinstance(row, dict):
        if name in row:
            return row[name]
        field = model._meta.pk if name == "pk" else model._meta.get_field(name)
        return row[field.attname]
    return getattr(row, name)


def _after(ordering: tuple, values: list, before: bool) -> Q:
    """The rows strictly after the position `values` in `ordering` (strictly before it when `before`).

    The first field's bound comes first, so the list's index is read from the position on (on SQLite,
    which writes a row comparison as the OR below, too). When every field runs the same way, the rest
    is a row comparison, `(a, id) > (x, y)`, which PostgreSQL reads as one range of that index."""
    fields = [_field(name) for name in ordering]
    upward = [descending == before for _, descending in fields]
    first, _ = fields[0]
    bound = Q(**{f"{first}__{'gte' if upward[0] else 'lte'}": values[0]})
    if len(set(upward)) == 1:
        comparison = TupleGreaterThan if upward[0] else TupleLessThan
        return bound & Q(comparison(Tuple(*(F(name) for name, _ in fields)), tuple(values)))
    after = Q()
    for index in reversed(range(len(fields))):
        name = fields[index][0]
        strictly = Q(**{f"{name}__{'gt' if upward[index] else 'lt'}": values[index]})
        after = strictly if index == len(fields) - 1 else strictly | (Q(**{name: values[index]}) & after)
    return bound & after


def _with_tiebreak(ordering: tuple) -> tuple:
    """The ordering with the primary key last, so that every row has a position of its own: rows with
    equal values (papers' reference 1, a year, a sync's time) come in the same order on every page
    (PostgreSQL, unlike SQLite, returns ties in any order) and a cursor can stop between them."""
    if any(field.lstrip("-") in ("id", "pk") for field in ordering):
        return tuple(ordering)
    return (*ordering, "-pk" if ordering and ordering[0].startswith("-") else "pk")


def _without_nulls(queryset, ordering: tuple) -> tuple:
    """A position is a value of each ordering field, and NULL has none: `year > 1995` is not true of
    NULL, nor is `year = NULL`. Order a nullable field by a key that is never NULL instead: the value,
    or for NULL a value below every stored one. Returns the queryset, its ordering, and the NULL key of
    each such field as a position value (by the field's name in the new ordering)."""
    new_ordering, nulls = [], {}
    for order in ordering:
        name, descending = _field(order)
        field = _ordering_field(queryset, name)
        if field is None or not field.null:
            new_ordering.append(order)
            continue
        if isinstance(field, models.DateTimeField):
            below = EARLIEST - timedelta(days=1)
        elif isinstance(field, models.DateField):
            below = (EARLIEST - timedelta(days=1)).date()
        elif isinstance(field, models.IntegerField):
            below = -2_147_483_648          # below any year or count; still an integer on every database
        elif isinstance(field, (models.CharField, models.TextField)):
            below = ""
        else:
            new_ordering.append(order)
            continue
        key = f"cursor_{name}"
        output = models.IntegerField() if isinstance(field, models.IntegerField) else field.__class__()
        queryset = queryset.annotate(**{key: Coalesce(name, models.Value(below, output_field=output),
                                                      output_field=output)})
        new_ordering.append(f"-{key}" if descending else key)
        nulls[key] = str(below)
    return queryset, tuple(new_ordering), nulls


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
