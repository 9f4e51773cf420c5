"""`manage.py check --deploy`: what the database itself should guard in production.

The append-only triggers (citations/append_only.py) stand between Pith and its observations only if
Pith's database role cannot remove them: a superuser can drop or disable a trigger, and bypasses row
security. docs/operations.md says which role to run as."""
from django.core.checks import Warning, register
from django.db import DatabaseError, connection


@register(deploy=True)
def database_role_is_not_superuser(app_configs=None, **kwargs) -> list[Warning]:
    if connection.vendor != "postgresql":
        return []
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user")
            row = cursor.fetchone()
    except DatabaseError as error:
        return [Warning(f"could not ask PostgreSQL which role Pith runs as: {error}".strip(), id="pith.W002")]
    if row and row[1]:
        return [Warning(
            f"Pith connects to PostgreSQL as {row[0]!r}, a superuser: it could drop the triggers that keep "
            "observations append-only, so published records could change.",
            hint="Run Pith as a role that owns its tables but is not a superuser (docs/operations.md, "
                 "'The database role').", id="pith.W001")]
    return []


@register(deploy=True)
def records_are_signed(app_configs=None, **kwargs) -> list[Warning]:
    """Without a signing key nothing is signed and the log publishes no checkpoint (docs/verification.md)."""
    from django.conf import settings

    from citations.signing import signing_key

    try:
        key = signing_key()
    except (OSError, ValueError) as error:
        return [Warning(f"the signing key {settings.SIGNING_KEY_FILE} cannot be read: {error}", id="pith.W004")]
    if key is None:
        return [Warning(f"no signing key at {settings.SIGNING_KEY_FILE}: records are served unsigned and the "
                        "transparency log publishes no checkpoint.",
                        hint="manage.py create_signing_key (or set PITH_SIGNING_KEY to the key's file).",
                        id="pith.W003")]
    return []
