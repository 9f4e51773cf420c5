"""The filters of the audit entries list."""
import django_filters as filters

from citations.models import Override, OverrideAction, OverrideField


class OverrideFilter(filters.FilterSet):
    reference = filters.UUIDFilter(field_name="reference_id")
    field = filters.ChoiceFilter(choices=OverrideField.choices)
    action = filters.ChoiceFilter(choices=OverrideAction.choices)

    class Meta:
        model = Override
        fields = ["reference", "field", "action"]
