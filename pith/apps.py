from django.contrib.admin.apps import AdminConfig


class PithAdminConfig(AdminConfig):
    """Django's admin, with Pith's site (citations/admin_site.py) as `admin.site`."""

    default_site = "citations.admin_site.PithAdminSite"
