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
