"""Serializers of curation's API: audit entries, and what curators send to make them."""
from rest_framework import serializers

from citations.models import VALUE_FIELDS, Override
from curation.services import MAX_REASON


class OverrideSerializer(serializers.ModelSerializer):
    """An audit entry's public fields; the curator's name only for staff."""

    reference = serializers.UUIDField(source="reference_id")
    value = serializers.SerializerMethodField()
    previous = serializers.SerializerMethodField()
    withdraws = serializers.IntegerField(source="withdraws_id", allow_null=True)
    curator = serializers.SerializerMethodField()
    url = serializers.CharField(source="get_absolute_url")

    class Meta:
        model = Override
        fields = ("id", "reference", "field", "action", "value", "previous", "reason", "created_at", "withdraws",
                  "curator", "url")

    def get_value(self, entry) -> str | None:
        return entry.shown_value if entry.action == "set" else None

    def get_previous(self, entry) -> str | None:
        return entry.previous_value

    def get_curator(self, entry) -> str | None:
        request = self.context.get("request")
        return entry.curator.get_username() if request and request.user.is_staff else None


class FollowUpSerializer(serializers.Serializer):
    job = serializers.IntegerField()
    kind = serializers.CharField()
    state = serializers.CharField()
    dispatched = serializers.BooleanField(help_text="False: committed, and waiting for the broker (sent by the sweep).")
    message = serializers.CharField()


class OverrideCommittedSerializer(OverrideSerializer):
    """A committed audit entry, with the follow-up work (re-resolution) it started."""

    follow_up = FollowUpSerializer(allow_null=True, read_only=True)

    class Meta(OverrideSerializer.Meta):
        fields = OverrideSerializer.Meta.fields + ("follow_up",)


class OverrideCreateSerializer(serializers.Serializer):
    reference = serializers.UUIDField(help_text="The observation id of the reference.")
    field = serializers.ChoiceField(choices=list(VALUE_FIELDS))
    value = serializers.CharField(required=False, allow_blank=True, max_length=1000,
                                  help_text="New title, year, reference number (index), or link (DOI, arXiv id "
                                            "or work id); omit for not_a_work and checked.")
    reason = serializers.CharField(max_length=MAX_REASON)
    revision = serializers.IntegerField(min_value=0, help_text="The reference's revision as you read it "
                                                               "(GET /api/v1/observations/{id}/revision).")


class WithdrawSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=MAX_REASON)
    revision = serializers.IntegerField(min_value=0)


class CorrectionSerializer(serializers.Serializer):
    """A join with the next reference of the list: the why, and the reference's revision as read."""

    reason = serializers.CharField(max_length=MAX_REASON)
    revision = serializers.IntegerField(min_value=0)


class SplitSerializer(CorrectionSerializer):
    before = serializers.CharField(max_length=300, help_text="The words the second reference begins with, as the "
                                                             "raw text gives them (spaces and line breaks may differ).")


class CorrectionCommittedSerializer(OverrideCommittedSerializer):
    """The correction's audit entry, and the observation ids of the references it cut anew."""

    observations = serializers.ListField(child=serializers.UUIDField(), read_only=True)

    class Meta(OverrideCommittedSerializer.Meta):
        fields = OverrideCommittedSerializer.Meta.fields + ("observations",)
