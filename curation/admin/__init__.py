"""Admin of curation: the reference pages curators work from, and the read-only audit trail."""
from curation.admin import overrides, references  # noqa: F401 - registers them
