"""Forms of the curation admin; validation of values lives in curation/services.py."""
from django import forms

from citations.models import OverrideField
from curation.services import MAX_REASON


class OverrideForm(forms.Form):
    field = forms.ChoiceField(choices=[(OverrideField.TITLE, "Title"), (OverrideField.YEAR, "Year"),
                                       (OverrideField.LINK, "Link to a work (DOI or arXiv id)"),
                                       (OverrideField.INDEX, "Reference number")])
    value = forms.CharField(max_length=1000, required=True, widget=forms.TextInput(attrs={"size": 70}),
                            help_text="For a link: a DOI (10.1145/…, doi.org address) or an arXiv id. A work the "
                                      "store does not hold yet is created from it, and filled when its metadata "
                                      "arrives.")
    reason = forms.CharField(max_length=MAX_REASON, widget=forms.Textarea(attrs={"rows": 2, "cols": 70}),
                             help_text="Required. Shown publicly with the change.")
    revision = forms.IntegerField(widget=forms.HiddenInput)


class ReasonForm(forms.Form):
    """For one-click decisions (not a work, accept a candidate, withdraw): only the why and the revision."""

    reason = forms.CharField(max_length=MAX_REASON, widget=forms.TextInput(attrs={"size": 60}))
    revision = forms.IntegerField(widget=forms.HiddenInput)
    value = forms.CharField(max_length=100, required=False, widget=forms.HiddenInput)


class BulkReasonForm(forms.Form):
    reason = forms.CharField(max_length=MAX_REASON, widget=forms.Textarea(attrs={"rows": 2, "cols": 70}),
                             help_text="Required; recorded on each reference's audit entry.")


class SplitForm(forms.Form):
    """"Split here": the words the second reference begins with, as the raw text shows them."""

    before = forms.CharField(max_length=300, widget=forms.TextInput(attrs={"size": 50}),
                             help_text="Copy the first words of the second reference from the raw text above.")
    reason = forms.CharField(max_length=MAX_REASON, widget=forms.TextInput(attrs={"size": 50}))
    revision = forms.IntegerField(widget=forms.HiddenInput)
