"""The curators group, and (on PostgreSQL) triggers that make the audit log and the observations append-only."""
from django.db import migrations

CURATORS = "curators"
# The permissions as they were named when this migration was written (the override model was
# curation's then; citations' migration 0023 moves it, and its permissions with it).
CURATOR_PERMISSIONS = [
    ("curation", "override", ["add_override", "view_override"]),
    ("citations", "paperreference", ["view_paperreference"]),
    ("citations", "paperreferencelink", ["view_paperreferencelink"]),
    ("citations", "paper", ["view_paper"]),
    ("citations", "citedwork", ["view_citedwork"]),
]


def grant_curator_permissions(group, permission_model) -> None:
    for app_label, model, codenames in CURATOR_PERMISSIONS:
        group.permissions.add(*permission_model.objects.filter(
            content_type__app_label=app_label, content_type__model=model, codename__in=codenames))

APPEND_ONLY = ["curation_overrides", "paper_references", "paper_reference_links"]


def create_curators(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, verbosity=0, apps=apps)   # the models as of this migration
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=CURATORS)
    grant_curator_permissions(group, Permission)


def remove_curators(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=CURATORS).delete()


def append_only(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return      # SQLite has no such trigger here; the services and admin never update or delete
    schema_editor.execute("""
        CREATE OR REPLACE FUNCTION pith_append_only() RETURNS trigger AS $$
        BEGIN
            RAISE EXCEPTION '% is append-only: rows are added, never changed or deleted', TG_TABLE_NAME;
        END $$ LANGUAGE plpgsql""", params=None)   # None: the '%' is PL/pgSQL's, not a placeholder
    for table in APPEND_ONLY:
        schema_editor.execute(f"""CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}
                                  FOR EACH ROW EXECUTE FUNCTION pith_append_only()""")


def drop_append_only(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in APPEND_ONLY:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
    schema_editor.execute("DROP FUNCTION IF EXISTS pith_append_only()")


class Migration(migrations.Migration):
    dependencies = [
        ("curation", "0001_initial"),
        ("citations", "0003_jobs"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.RunPython(create_curators, remove_curators),
        migrations.RunPython(append_only, drop_append_only),
    ]
