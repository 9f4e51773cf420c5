"""The override model's state leaves curation for citations (citations' migration 0023); the table stays."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('curation', '0003_segmentation_corrections'),
        ('citations', '0023_override_moves_down'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.DeleteModel(name='Override'),
        ]),
    ]
