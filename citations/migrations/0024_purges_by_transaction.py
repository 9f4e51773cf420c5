"""Purges are recognised by their audit entry, not by a session setting: the purge writes its entry
first with its transaction's id, and the trigger lets a row be deleted only in such a transaction.
Test databases are recognised by their name and by the database's own setting, which no session can
give itself. (Before, `SET LOCAL pith.purge = 'on'` let any session delete, unaudited.)"""
from django.db import migrations, models

from citations import append_only


def guard(apps, schema_editor):
    append_only.replace_guard(schema_editor)


def unguard(apps, schema_editor):
    append_only.replace_guard(schema_editor, function=append_only.SESSION_SETTING_GENERIC)


class Migration(migrations.Migration):

    dependencies = [
        ('citations', '0023_override_moves_down'),
    ]

    operations = [
        migrations.AddField(
            model_name='observationpurge',
            name='transaction_id',
            field=models.BigIntegerField(blank=True, editable=False, help_text="PostgreSQL's id of the purge's transaction (txid_current()).", null=True),
        ),
        migrations.RunPython(guard, unguard),
    ]
