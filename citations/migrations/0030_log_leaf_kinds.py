from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('citations', '0029_measurement_recorded_at'),
    ]

    operations = [
        migrations.RenameField(model_name='logpending', old_name='link_ids', new_name='ids'),
        migrations.AlterField(
            model_name='logpending',
            name='ids',
            field=models.JSONField(help_text="The rows' ids, in the order written."),
        ),
        migrations.AddField(
            model_name='logpending',
            name='kind',
            field=models.CharField(choices=[('reference', 'reference observation (paper_references)'), ('link', 'resolution link (paper_reference_links)'), ('work', 'a work as first written (cited_works)'), ('work_revision', 'a later statement of a work (work_revisions)'), ('snapshot', "a paper's metadata snapshot (paper_snapshots)"), ('standing_event', 'a standing event (scholarly_work_events)'), ('receipt', 'a standing check receipt and the events it found (retraction_status_cache)'), ('measurement', 'an external citation measurement (external_citation_measurements)')], default='link', help_text='A link brings its reference; the other kinds are logged alone.', max_length=16),
        ),
        migrations.AlterField(
            model_name='logleaf',
            name='kind',
            field=models.CharField(choices=[('reference', 'reference observation (paper_references)'), ('link', 'resolution link (paper_reference_links)'), ('work', 'a work as first written (cited_works)'), ('work_revision', 'a later statement of a work (work_revisions)'), ('snapshot', "a paper's metadata snapshot (paper_snapshots)"), ('standing_event', 'a standing event (scholarly_work_events)'), ('receipt', 'a standing check receipt and the events it found (retraction_status_cache)'), ('measurement', 'an external citation measurement (external_citation_measurements)')], max_length=16),
        ),
    ]
