"""Curators' overrides: audited entries layered over observations, never edits of them.

An Override row is one audit entry: a curator set a field of a reference (title, year, "not a
scholarly work", or its link) from one value to another, for a reason, at a time; or withdrew
such an entry; or corrected the list's segmentation (split one reference in two, joined one
with the next: curation/segmentation.py), which writes a corrected list the entry names. Rows are
only ever added (PostgreSQL enforces it with a trigger; admin and the services never update or
delete). For each reference and field, the newest entry decides: a `set` is in force, a
`withdraw` means the observed value shows again.

The model lives here, below curation, because the record and the resolver read which entries
are in force; curation (the layer above) writes them, through curation/services.py.
"""
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from citations import time_rules
from citations.models.papers import Paper
from citations.models.references import PaperReference, ReferenceExtraction
from citations.models.resolution import CitedWork


class OverrideField(models.TextChoices):
    TITLE = "title", "title"
    YEAR = "year", "year"
    NOT_A_WORK = "not_a_work", "not a scholarly work"
    LINK = "link", "link"
    CHECKED = "checked", "checked, read correctly"
    INDEX = "index", "reference number"
    SPLIT = "split", "split in two"
    JOIN = "join", "joined with the next"


# Fields whose newest `set` entry is a value in force over the observation. A split or a join is
# not: it is an event that wrote a corrected list, undone by the opposite correction, not withdrawn.
VALUE_FIELDS = tuple(OverrideField(field) for field in time_rules.VALUE_FIELDS)
SEGMENTATION_FIELDS = (OverrideField.SPLIT, OverrideField.JOIN)


class OverrideAction(models.TextChoices):
    SET = "set", "set"
    WITHDRAW = "withdraw", "withdraw"


class Override(models.Model):
    reference = models.ForeignKey(PaperReference, on_delete=models.PROTECT, related_name="overrides")
    field = models.CharField(max_length=16, choices=OverrideField.choices)
    action = models.CharField(max_length=8, choices=OverrideAction.choices)
    value_text = models.TextField(null=True, blank=True, help_text="The new title.")
    value_year = models.SmallIntegerField(null=True, blank=True, help_text="The new year.")
    value_index = models.PositiveIntegerField(null=True, blank=True, help_text="The reference number as printed.")
    link_paper = models.ForeignKey(Paper, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    link_work = models.ForeignKey(CitedWork, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    previous_text = models.TextField(null=True, blank=True, help_text="What the field showed before.")
    previous_year = models.SmallIntegerField(null=True, blank=True)
    split_at = models.PositiveIntegerField(null=True, blank=True,
                                           help_text="A split: where, in the raw text, the second reference begins.")
    # DO_NOTHING on the three below: a purge removes a version's lists, their references and these
    # entries together (citations/purge.py), and PostgreSQL checks the constraints at commit.
    join_with = models.ForeignKey(PaperReference, on_delete=models.DO_NOTHING, null=True, blank=True, related_name="+",
                                  help_text="A join: the next reference, joined to this one.")
    result_list = models.ForeignKey(ReferenceExtraction, on_delete=models.DO_NOTHING, null=True, blank=True,
                                    related_name="+", help_text="A split or join: the corrected list it wrote.")
    carried_from = models.ForeignKey("self", on_delete=models.DO_NOTHING, null=True, blank=True,
                                     related_name="carried_to",
                                     help_text="The entry of the corrected list this one carries over, unchanged.")
    withdraws = models.OneToOneField("self", on_delete=models.PROTECT, null=True, blank=True,
                                     related_name="withdrawal", help_text="The set entry this entry withdraws.")
    reason = models.TextField()
    curator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="overrides")
    created_at = models.DateTimeField(default=timezone.now)

    objects = time_rules.OverrideQuerySet.as_manager()

    class Meta:
        db_table = "curation_overrides"
        ordering = ["-created_at", "-id"]
        permissions = [("withdraw_any_override", "Can withdraw any curator's override")]
        constraints = [
            models.CheckConstraint(condition=Q(field__in=OverrideField.values), name="override_field_is_known"),
            models.CheckConstraint(condition=Q(action__in=OverrideAction.values), name="override_action_is_known"),
            models.CheckConstraint(condition=~Q(reason=""), name="override_has_reason"),
            models.CheckConstraint(
                condition=Q(action="withdraw", withdraws__isnull=False) | Q(action="set", withdraws__isnull=True),
                name="withdrawal_names_its_entry"),
            models.CheckConstraint(
                condition=~Q(action="set", field="title") | (Q(value_text__isnull=False) & ~Q(value_text="")),
                name="title_override_has_title"),
            models.CheckConstraint(
                condition=~Q(action="set", field="year") | Q(value_year__gte=1600, value_year__lte=2200),
                name="year_override_in_range"),
            models.CheckConstraint(
                condition=~Q(action="set", field="link") | Q(link_paper__isnull=False) | Q(link_work__isnull=False),
                name="link_override_has_target"),
            models.CheckConstraint(condition=~Q(action="set", field="index") | Q(value_index__gte=1),
                                   name="index_override_has_number"),
            models.CheckConstraint(
                condition=~Q(field="split") | Q(action="set", split_at__gt=0, result_list__isnull=False),
                name="split_names_its_place_and_list"),
            models.CheckConstraint(
                condition=~Q(field="join") | Q(action="set", join_with__isnull=False, result_list__isnull=False),
                name="join_names_its_partner_and_list"),
        ]
        indexes = [
            # The record's and the resolver's lookups: newest entry per reference and field.
            models.Index(fields=["reference", "field", "created_at"], name="override_newest_per_field"),
            models.Index(fields=["curator", "created_at"], name="override_by_curator"),
        ]

    def __str__(self) -> str:
        if self.action == OverrideAction.WITHDRAW:
            return f"withdrawal of override #{self.withdraws_id}"
        return f"{self.get_field_display()} of {self.reference_id} → {self.shown_value}"

    @property
    def is_segmentation(self) -> bool:
        """A split or a join: a correction that wrote a new list, not a value over the observation."""
        return self.field in SEGMENTATION_FIELDS

    @property
    def shown_value(self) -> str:
        """The value this entry set, as people read it."""
        if self.field == OverrideField.TITLE:
            return self.value_text or ""
        if self.field == OverrideField.YEAR:
            return str(self.value_year)
        if self.field == OverrideField.NOT_A_WORK:
            return "not a scholarly work"
        if self.field == OverrideField.CHECKED:
            return "checked: read correctly"
        if self.field == OverrideField.INDEX:
            return f"[{self.value_index}]"
        if self.field == OverrideField.SPLIT:
            return f"split in two, the second beginning “{self.value_text}”"
        if self.field == OverrideField.JOIN:
            return f"joined with the next reference, “{self.value_text}”"
        if self.link_paper_id:
            return f"arXiv:{self.link_paper.arxiv_id}"
        return f"work {self.link_work_id}"

    @property
    def previous_value(self) -> str | None:
        """The value before this entry, None where there was none (the API's null)."""
        if self.field == OverrideField.YEAR:
            return None if self.previous_year is None else str(self.previous_year)
        return self.previous_text or None

    @property
    def shown_previous(self) -> str:
        """previous_value as people read it: a dash for none."""
        previous = self.previous_value
        return "—" if previous is None else previous

    def get_absolute_url(self) -> str:
        return f"/curation/overrides/{self.pk}"


def active_overrides(*, reference_ids) -> dict:
    """reference id -> {field: value, "ids": {field: override id}} for the overrides in force."""
    found: dict = {}
    for entry in Override.objects.in_force().filter(reference_id__in=list(reference_ids)):
        values = found.setdefault(entry.reference_id, {"ids": {}})
        values["ids"][entry.field] = entry.pk
        if entry.field == OverrideField.TITLE:
            values["title"] = entry.value_text
        elif entry.field == OverrideField.YEAR:
            values["year"] = entry.value_year
        elif entry.field == OverrideField.NOT_A_WORK:
            values["not_a_work"] = True
        elif entry.field == OverrideField.CHECKED:
            values["checked"] = True
        elif entry.field == OverrideField.INDEX:
            values["index"] = entry.value_index
        elif entry.field == OverrideField.LINK:
            values["link"] = {"paper_id": entry.link_paper_id, "work_id": entry.link_work_id}
    return found
