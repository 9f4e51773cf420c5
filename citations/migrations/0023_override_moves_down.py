"""The override model moves from curation down to citations, keeping its table (curation_overrides),
its rows and its triggers: only Django's state moves, with the content type, so the permissions
groups hold (add_override, view_override, withdraw_any_override) keep their rows and grants.

Why: the record and the resolver read which overrides are in force, and citations may not import
the curation layer above it. Curation still writes every entry (curation/services.py)."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def _relabel(apps, old: str, new: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label=old, model="override").update(app_label=new)


def move_content_type(apps, schema_editor):
    _relabel(apps, "curation", "citations")


def move_content_type_back(apps, schema_editor):
    _relabel(apps, "citations", "curation")


class Migration(migrations.Migration):

    dependencies = [
        ('citations', '0022_identifiers_compare_as_bytes'),
        ('curation', '0003_segmentation_corrections'),
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
                migrations.CreateModel(
                    name='Override',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('field', models.CharField(choices=[('title', 'title'), ('year', 'year'), ('not_a_work', 'not a scholarly work'), ('link', 'link'), ('split', 'split in two'), ('join', 'joined with the next')], max_length=16)),
                        ('action', models.CharField(choices=[('set', 'set'), ('withdraw', 'withdraw')], max_length=8)),
                        ('value_text', models.TextField(blank=True, help_text='The new title.', null=True)),
                        ('value_year', models.SmallIntegerField(blank=True, help_text='The new year.', null=True)),
                        ('previous_text', models.TextField(blank=True, help_text='What the field showed before.', null=True)),
                        ('previous_year', models.SmallIntegerField(blank=True, null=True)),
                        ('split_at', models.PositiveIntegerField(blank=True, help_text='A split: where, in the raw text, the second reference begins.', null=True)),
                        ('reason', models.TextField()),
                        ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('carried_from', models.ForeignKey(blank=True, help_text='The entry of the corrected list this one carries over, unchanged.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='carried_to', to='citations.override')),
                        ('curator', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='overrides', to=settings.AUTH_USER_MODEL)),
                        ('join_with', models.ForeignKey(blank=True, help_text='A join: the next reference, joined to this one.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='citations.paperreference')),
                        ('link_paper', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='citations.paper')),
                        ('link_work', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='citations.citedwork')),
                        ('reference', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='overrides', to='citations.paperreference')),
                        ('result_list', models.ForeignKey(blank=True, help_text='A split or join: the corrected list it wrote.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='citations.referenceextraction')),
                        ('withdraws', models.OneToOneField(blank=True, help_text='The set entry this entry withdraws.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='withdrawal', to='citations.override')),
                    ],
                    options={
                        'db_table': 'curation_overrides',
                        'ordering': ['-created_at', '-id'],
                        'permissions': [('withdraw_any_override', "Can withdraw any curator's override")],
                        'indexes': [models.Index(fields=['reference', 'field', 'created_at'], name='override_newest_per_field'), models.Index(fields=['curator', 'created_at'], name='override_by_curator')],
                        'constraints': [models.CheckConstraint(condition=models.Q(('field__in', ['title', 'year', 'not_a_work', 'link', 'split', 'join'])), name='override_field_is_known'), models.CheckConstraint(condition=models.Q(('action__in', ['set', 'withdraw'])), name='override_action_is_known'), models.CheckConstraint(condition=models.Q(('reason', ''), _negated=True), name='override_has_reason'), models.CheckConstraint(condition=models.Q(models.Q(('action', 'withdraw'), ('withdraws__isnull', False)), models.Q(('action', 'set'), ('withdraws__isnull', True)), _connector='OR'), name='withdrawal_names_its_entry'), models.CheckConstraint(condition=models.Q(models.Q(('action', 'set'), ('field', 'title'), _negated=True), models.Q(('value_text__isnull', False), models.Q(('value_text', ''), _negated=True)), _connector='OR'), name='title_override_has_title'), models.CheckConstraint(condition=models.Q(models.Q(('action', 'set'), ('field', 'year'), _negated=True), models.Q(('value_year__gte', 1600), ('value_year__lte', 2200)), _connector='OR'), name='year_override_in_range'), models.CheckConstraint(condition=models.Q(models.Q(('action', 'set'), ('field', 'link'), _negated=True), ('link_paper__isnull', False), ('link_work__isnull', False), _connector='OR'), name='link_override_has_target'), models.CheckConstraint(condition=models.Q(models.Q(('field', 'split'), _negated=True), models.Q(('action', 'set'), ('result_list__isnull', False), ('split_at__gt', 0)), _connector='OR'), name='split_names_its_place_and_list'), models.CheckConstraint(condition=models.Q(models.Q(('field', 'join'), _negated=True), models.Q(('action', 'set'), ('join_with__isnull', False), ('result_list__isnull', False)), _connector='OR'), name='join_names_its_partner_and_list')],
                    },
                ),
        ]),
        migrations.RunPython(move_content_type, move_content_type_back),
    ]
