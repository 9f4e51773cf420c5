"""Query parameters a list does not know are refused (400), not silently ignored.

A consumer who writes `?stat=unresolved` or `?ordering=title` and gets the whole list, unfiltered or
in another order than asked, syncs the wrong data without knowing it. So every list names what it
takes: its filters, `ordering` (over the fields served by an index), `cursor`, `page_size`, `format`.
"""
from rest_framework.exceptions import ValidationError
from rest_framework.filters import BaseFilterBackend, OrderingFilter

ALWAYS = {"cursor", "page_size", "format"}


def known_parameters(view) -> set[str]:
    known = set(ALWAYS)
    filterset = getattr(view, "filterset_class", None)
    if filterset is not None:
        known |= set(filterset.base_filters)
    known |= set(getattr(view, "filterset_fields", None) or ())
    if getattr(view, "ordering_fields", None):
        known.add("ordering")
    known |= set(getattr(view, "extra_query_parameters", ()))
    return known


class UnknownParameters(BaseFilterBackend):
    def filter_queryset(self, request, queryset, view):
        unknown = sorted(set(request.query_params) - known_parameters(view))
        if unknown:
            raise ValidationError({name: [f"this list takes no “{name}” parameter; it takes: "
                                          f"{', '.join(sorted(known_parameters(view)))}"] for name in unknown[:5]})
        return queryset


class StrictOrdering(OrderingFilter):
    """DRF's ordering, except that a field it cannot order by is a 400, not the default order."""

    def get_ordering(self, request, queryset, view):
        params = request.query_params.get(self.ordering_param)
        if params:
            fields = [f.strip() for f in params.split(",") if f.strip()]
            allowed = {name for name, _ in self.get_valid_fields(queryset, view, {"request": request})}
            wrong = [f for f in fields if f.lstrip("-") not in allowed]
            if wrong:
                raise ValidationError({"ordering": [f"cannot order by {', '.join(wrong)}; this list orders by: "
                                                    f"{', '.join(sorted(allowed))} (prefix - for descending)"]})
        return super().get_ordering(request, queryset, view)

    def get_schema_operation_parameters(self, view):
        """`ordering` with the values the list takes (each field, ascending or, with -, descending)."""
        fields = list(getattr(view, "ordering_fields", None) or ())
        if not fields:
            return []
        default = ", ".join(getattr(view, "ordering", None) or ())
        return [{
            "name": self.ordering_param, "required": False, "in": "query",
            "description": (f"Order by {' or '.join(fields)}; prefix - for descending."
                            + (f" Default: {default}." if default else "")),
            "schema": {"type": "string", "enum": [value for field in fields for value in (field, f"-{field}")]},
        }]
