"""The audit trail of curation, read-only for everyone: entries are added by the services only."""
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from citations.admin_site import RefuseUnsafeLookups
from citations.models import Override


@admin.register(Override)
class OverrideAdmin(RefuseUnsafeLookups, admin.ModelAdmin):
    list_display = ("id", "created_at", "curator", "action", "field", "reference_link", "from_value", "to_value",
                    "reason", "public_link")
    list_filter = ("curator", "field", "action", ("created_at", admin.DateFieldListFilter))
    date_hierarchy = "created_at"
    search_fields = ("reason", "value_text", "=reference__id", "reference__raw_text")
    list_select_related = ("curator", "reference", "link_paper")
    readonly_fields = [f.name for f in Override._meta.fields]

    def has_add_permission(self, request):
        return False          # overrides are made from a reference's page, through the services

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="reference")
    def reference_link(self, obj):
        url = reverse("admin:citations_paperreference_change", args=[obj.reference_id])
        return format_html('<a href="{}">[{}]</a>', url, obj.reference.reference_index)

    @admin.display(description="from")
    def from_value(self, obj):
        return obj.shown_previous

    @admin.display(description="to")
    def to_value(self, obj):
        return "(withdrawn)" if obj.action == "withdraw" else obj.shown_value

    @admin.display(description="public")
    def public_link(self, obj):
        return format_html('<a href="{}">page</a>', obj.get_absolute_url())
