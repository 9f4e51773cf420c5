"""The curators group and what it may do; made by a migration, and again where a flushed test
database or a demo needs it."""

# (app label, model, permission codenames)
CURATOR_PERMISSIONS = [
    ("citations", "override", ["add_override", "view_override"]),
    ("citations", "paperreference", ["view_paperreference"]),
    ("citations", "paperreferencelink", ["view_paperreferencelink"]),
    ("citations", "paper", ["view_paper"]),
    ("citations", "citedwork", ["view_citedwork"]),
]
CURATORS = "curators"


def grant_curator_permissions(group, permission_model) -> None:
    for app_label, model, codenames in CURATOR_PERMISSIONS:
        group.permissions.add(*permission_model.objects.filter(
            content_type__app_label=app_label, content_type__model=model, codename__in=codenames))


def curators_group():
    """The curators group with its permissions, made if missing."""
    from django.contrib.auth.models import Group, Permission

    group, created = Group.objects.get_or_create(name=CURATORS)
    if created:
        grant_curator_permissions(group, Permission)
    return group
