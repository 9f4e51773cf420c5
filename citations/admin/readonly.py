"""Observations in admin: shown, never changed. Times show their zone."""
import functools

from django.contrib import admin
from django.core.exceptions import FieldDoesNotExist
from django.db.models import DateTimeField
from django.utils import timezone
from django.utils.html import format_html

from citations.admin_site import RefuseUnsafeLookups


def zoned(value) -> str:
    """A stored time to the minute, with its zone; the exact value on hover."""
    if value is None:
        return "—"
    local = timezone.localtime(value)
    return format_html('<time datetime="{}" title="{}">{} {}</time>', value.isoformat(), local.isoformat(),
                       f"{local:%Y-%m-%d %H:%M}", local.tzname())


@functools.cache
def _zoned_column(model, name):
    """The column (or read-only field) of a model's time, shown with its zone; any other name as it is.
    One callable per field, so the list, the fields and the read-only fields name the same one."""
    if not isinstance(name, str):
        return name
    try:
        field = model._meta.get_field(name)
    except FieldDoesNotExist:
        return name
    if not isinstance(field, DateTimeField):
        return name

    def column(obj):
        return zoned(getattr(obj, name))

    column.__name__ = name
    column.short_description = field.verbose_name
    column.admin_order_field = name
    return column


class ZonedTimes:
    """Times with their zone: Django's admin writes "Aug. 4, 2026, 5:12 p.m." and no zone, which a
    curator or operator elsewhere misreads."""

    def get_list_display(self, request):
        return [_zoned_column(self.model, name) for name in super().get_list_display(request)]

    def get_fields(self, request, obj=None):
        return [_zoned_column(self.model, name) for name in super().get_fields(request, obj)]

    def get_readonly_fields(self, request, obj=None):
        return [_zoned_column(self.model, name) for name in super().get_readonly_fields(request, obj)]


class ReadOnlyAdmin(RefuseUnsafeLookups, ZonedTimes, admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(admin.TabularInline):
    """Observations shown under the row they belong to: every field read-only, none added or deleted."""

    extra = 0
    can_delete = False

    def get_readonly_fields(self, request, obj=None):
        return self.fields

    def has_add_permission(self, request, obj=None):
        return False

