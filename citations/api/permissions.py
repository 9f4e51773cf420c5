"""API permission checks in one plain statement per request.

Django's ModelBackend answers `user.has_perm("app.codename")` by loading every permission of the
user and of each of their groups (two queries, their rows turned into strings), which profiled as a
large share of a list request (docs/performance.md). The question asked here is the
one permission, by one EXISTS over the same tables, whatever the number of users, groups or tokens.
It is ModelBackend's rule (active users; superusers have every permission), so it is used only when
ModelBackend is the sole backend; any other configuration asks Django as before.
"""
from django.conf import settings
from django.contrib.auth.models import Group, Permission, User
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from rest_framework import permissions

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _sql() -> str:
    perm, ct = Permission._meta.db_table, ContentType._meta.db_table
    user_perms = User.user_permissions.through._meta.db_table
    user_groups = User.groups.through._meta.db_table
    group_perms = Group.permissions.through._meta.db_table
    return f"""SELECT EXISTS (SELECT 1 FROM {perm} p JOIN {ct} ct ON ct.id = p.content_type_id
        WHERE ct.app_label = %s AND p.codename = %s AND (
            EXISTS (SELECT 1 FROM {user_perms} up WHERE up.permission_id = p.id AND up.user_id = %s)
            OR EXISTS (SELECT 1 FROM {user_groups} ug JOIN {group_perms} gp ON gp.group_id = ug.group_id
                       WHERE ug.user_id = %s AND gp.permission_id = p.id)))"""


def held_permissions_sql(user_id: str) -> str:
    """A subquery of every model permission the user `user_id` (an SQL expression) holds, itself or by
    its groups, as "app_label.codename" words separated by spaces: what the token statement reads
    (citations/api/authentication.py), so that a permission check costs no statement of its own."""
    perm, ct = Permission._meta.db_table, ContentType._meta.db_table
    user_perms = User.user_permissions.through._meta.db_table
    user_groups = User.groups.through._meta.db_table
    group_perms = Group.permissions.through._meta.db_table
    joined = "string_agg({}, ' ')" if connection.vendor == "postgresql" else "group_concat({}, ' ')"
    return f"""(SELECT {joined.format("ct.app_label || '.' || p.codename")} FROM {perm} p
        JOIN {ct} ct ON ct.id = p.content_type_id
        WHERE p.id IN (SELECT up.permission_id FROM {user_perms} up WHERE up.user_id = {user_id}
                       UNION SELECT gp.permission_id FROM {user_groups} ug JOIN {group_perms} gp
                             ON gp.group_id = ug.group_id WHERE ug.user_id = {user_id}))"""


HELD = "_pith_held_permissions"       # set on a user by the token statement


def only_model_backend() -> bool:
    return list(getattr(settings, "AUTHENTICATION_BACKENDS", [MODEL_BACKEND])) == [MODEL_BACKEND]


def user_has_perm(user, perm: str) -> bool:
    """Whether an authenticated user holds one model permission ("app_label.codename")."""
    if not only_model_backend():
        return user.has_perm(perm)
    if not user.is_active:
        return False
    if user.is_superuser:
        return True
    held = getattr(user, HELD, None)
    if held is not None:                    # read with the token, in the same request
        return perm in held
    app_label, _, codename = perm.partition(".")
    with connection.cursor() as cursor:
        cursor.execute(_sql(), [app_label, codename, user.pk, user.pk])
        return bool(cursor.fetchone()[0])


class HasPerm(permissions.BasePermission):
    """The named model permission (tokens carry their user's groups)."""

    perm = ""

    def has_permission(self, request, view):
        user = request.user
        return bool(user and user.is_authenticated and user_has_perm(user, self.perm))
