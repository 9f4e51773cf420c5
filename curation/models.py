"""Curation: audited overrides layered over observations."""
