"""API token authentication in one plain statement.

DRF's TokenAuthentication reads `Token.objects.select_related("user").get(key=...)`: right, but on a
cached list page that ORM query's building was half the request (profiled on the demo store). This is
the same check, the token's user read by one indexed SQL statement and made a User as the ORM would:
still read on every request, so a deleted token or a deactivated user is refused at the next one.
"""
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token


def _user_columns():
    user_model = get_user_model()
    return user_model, [field.attname for field in user_model._meta.concrete_fields]


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key):
        user_model, columns = _user_columns()
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {', '.join(f'u.{connection.ops.quote_name(c)}' for c in columns)} "
                f"FROM {Token._meta.db_table} t JOIN {user_model._meta.db_table} u ON u.id = t.user_id "
                "WHERE t.key = %s", [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user = user_model.from_db(connection.alias, columns, row)
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, key
