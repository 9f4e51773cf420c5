"""The admin site of Pith: every admin refuses lookups that would fail as a 500, and the home page shows what registered admins add to it (the curation queues, from the
curation app's reference admin). Installed as Django's default site by pith.apps.PithAdminConfig,
so every app registers on `admin.site` as usual and none imports another's admin. (Not inside the
citations.admin package: Django imports this module while it makes `admin.site`, and that
package registers admins on `admin.site` as it is imported.)"""
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import ValidationError

from citations.validation import EARLIEST, LATEST


class RefuseUnsafeLookups:
    """Changelists filter on any local field from the query string (?raw_text__regex=...): a
    pattern the database cannot compile fails only when the page is rendered, as a 500. No link
    of the admin makes a regex lookup, so refuse them all (Django answers 400). The same for a
    year outside the one range of stored times (citations/validation.py): Django computes the
    bounds of ?created_at__year=99999 (or of the date hierarchy's 9999-12) and overflows."""

    def lookup_allowed(self, lookup, value, request=None):
        last = lookup.split("__")[-1]
        if last in ("regex", "iregex"):
            return False
        if last in ("year", "iso_year") and not _is_stored_year(value):
            return False
        return super().lookup_allowed(lookup, value, request)

    def response_action(self, request, queryset):
        """A bulk action's selection is posted ids, which Django puts straight into `pk__in`: one
        that is not a primary key (`_selected_action=x` for a UUID or an integer) fails there, as a
        500. Leave the malformed ids out, as Django leaves out ids of rows that no longer exist, and
        say so; with none left, Django's own message for an empty selection answers."""
        selected = request.POST.getlist(ACTION_CHECKBOX_NAME)
        well_formed = [value for value in selected if _is_primary_key(self.model, value)]
        if len(well_formed) != len(selected):
            post = request.POST.copy()
            post.setlist(ACTION_CHECKBOX_NAME, well_formed)
            request.POST = post
            messages.warning(request, f"{len(selected) - len(well_formed)} selected id(s) named no "
                                      f"{self.model._meta.verbose_name} and were left out.")
        return super().response_action(request, queryset)


def _is_primary_key(model, value: str) -> bool:
    field = model._meta.pk
    try:
        field.run_validators(field.to_python(value))      # integers: the database's range
    except (ValidationError, TypeError, ValueError, OverflowError):
        return False
    return "\x00" not in value


def _is_stored_year(value) -> bool:
    try:
        return EARLIEST.year <= int(str(value).strip()) < LATEST.year
    except ValueError:
        return False



class PithAdminSite(admin.AdminSite):
    # Lists need their width at 1280 px (the filters take a column already); the home page and the
    # breadcrumbs lead to every model the sidebar listed.
    enable_nav_sidebar = False

    def register(self, model_or_iterable, admin_class=None, **options):
        """Every admin refuses unsafe lookups, those of Django's own apps (users, groups, tokens) too."""
        admin_class = admin_class or admin.ModelAdmin
        if not issubclass(admin_class, RefuseUnsafeLookups):
            admin_class = type(admin_class.__name__, (RefuseUnsafeLookups, admin_class),
                               {"__module__": admin_class.__module__})
        super().register(model_or_iterable, admin_class, **options)

    def index(self, request, extra_context=None):
        """The admin home, with what each registered admin adds for this user (index_context())."""
        extra_context = dict(extra_context or {})
        for model_admin in self._registry.values():
            add = getattr(model_admin, "index_context", None)
            if add is not None:
                extra_context.update(add(request))
        return super().index(request, extra_context)
