"""Curation services: applying and withdrawing overrides (filled in with the curation models)."""


def active_overrides(*, reference_ids) -> dict:
    """reference id -> {field: value} of the overrides in force. No overrides exist yet."""
    return {}
