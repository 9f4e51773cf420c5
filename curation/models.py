"""Curation keeps no tables of its own: its audit entries are citations.models.Override rows (the
record reads them), written only by curation/services.py and curation/segmentation.py."""
