"""API token authentication in one plain statement.

DRF's TokenAuthentication reads `Token.objects.select_related("user").get(key=...)`: right, but on a
cached list page that ORM query's building was half the request (profiled on the demo store). This is
the same check, the token's user read by one indexed SQL statement and made a User as the ORM would:
still read on every request, so a deleted token or a deactivated user is refused at the next one.
It is a read, the request's first statement: when the connection under it was lost (the server
killed the backend after the connection's health check, a failover) and the request has nothing
uncommitted (no transaction open), it is read again once, on a new connection.
The same statement reads the API lists' generations (citations/records/cache.py), which a cached page
is checked against, and the model permissions the user holds (citations/api/permissions.py): a token
client's cached page then costs this one statement, the jobs list's included.
"""
from django.contrib.auth import get_user_model
from django.db import InterfaceError, OperationalError, connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from citations.api.page_cache import remember_generations
from citations.api.permissions import HELD, held_permissions_sql, only_model_backend
from citations.api.throttles import AddressThrottle
from citations.models.generations import GENERATIONS, JOB_KEYS, LIST_KEYS, jobs_generation, lists_generation


def _user_columns():
    user_model = get_user_model()
    return user_model, [field.attname for field in user_model._meta.concrete_fields]


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate(self, request):
        self._request = request
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            # Answered before DRF's throttles run: count it as an anonymous request of its address,
            # so guessing tokens (or sending a wrong one on every request) is limited as browsing is.
            throttle = AddressThrottle("anon")
            if not throttle.allow_request(request, None):
                raise exceptions.Throttled(throttle.wait()) from None
            raise
        finally:
            self._request = None

    def authenticate_credentials(self, key):
        user_model, columns = _user_columns()
        sums = ", ".join(f"(SELECT SUM(value) FROM {GENERATIONS} WHERE key IN ({', '.join(['%s'] * len(keys))}))"
                         for keys in (LIST_KEYS, JOB_KEYS))
        row = _read_once_more_if_lost(
            f"SELECT {', '.join(f'u.{connection.ops.quote_name(c)}' for c in columns)}, {sums}, "
            f"{held_permissions_sql('u.id')} "
            f"FROM {Token._meta.db_table} t JOIN {user_model._meta.db_table} u ON u.id = t.user_id "
            "WHERE t.key = %s", [*LIST_KEYS, *JOB_KEYS, key])
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        *row, lists, jobs, held = row
        if getattr(self, "_request", None) is not None:
            remember_generations(self._request, {lists_generation: lists or 0, jobs_generation: jobs or 0})
        user = user_model.from_db(connection.alias, columns, row)
        if only_model_backend():
            setattr(user, HELD, frozenset((held or "").split()))
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, key


def _read_once_more_if_lost(sql: str, params: list):
    """The one row `sql` reads; on a lost connection (OperationalError, InterfaceError) read again once on
    a new one, unless a transaction is open: what it holds would be lost with the connection."""
    for attempt in (1, 2):
        try:
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                return cursor.fetchone()
        except (OperationalError, InterfaceError):
            if attempt == 2 or connection.in_atomic_block or connection.is_usable():
                raise
            connection.close()
    raise AssertionError("unreachable")
