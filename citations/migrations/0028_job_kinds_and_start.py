"""Job kinds named one way (without the app: "resolve_waiting_for_works", like "resolve"), and no job
started before it was made (a command's job took its start time before its creation time)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('citations', '0027_checked_and_index_overrides'),
    ]

    operations = [
        migrations.RunSQL(
            ["UPDATE jobs SET kind = substr(kind, 11) WHERE kind LIKE 'citations.%'",
             "UPDATE jobs SET kind = substr(kind, 10) WHERE kind LIKE 'curation.%'",
             "UPDATE jobs SET started_at = created_at WHERE started_at < created_at"],
            reverse_sql=migrations.RunSQL.noop),
        migrations.AddConstraint(
            model_name='job',
            constraint=models.CheckConstraint(condition=models.Q(('started_at__isnull', True), ('started_at__gte', models.F('created_at')), _connector='OR'), name='job_starts_after_created'),
        ),
        migrations.AddConstraint(
            model_name='job',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('kind__startswith', 'citations.'), _negated=True), models.Q(('kind__startswith', 'curation.'), _negated=True)), name='job_kind_without_app'),
        ),
    ]
