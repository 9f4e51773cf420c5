"""Observations, never records: a record is derived from these rows (citations/record.py)."""
from citations.models.papers import Paper, PaperSnapshot, PaperVersion
from citations.models.references import PaperReference, ReferenceExtraction
from citations.models.resolution import CitedWork, PaperReferenceLink, ResolutionState
from citations.models.standing import (
    CitationMeasurement,
    EventType,
    ReceiptEvent,
    RetractionStatusReceipt,
    ScholarlyWorkEvent,
    StandingSourceSync,
    SyncStatus,
)

__all__ = [
    "CitationMeasurement", "CitedWork", "EventType", "Paper", "PaperReference", "PaperReferenceLink",
    "PaperSnapshot", "PaperVersion", "ReceiptEvent", "ReferenceExtraction", "ResolutionState",
    "RetractionStatusReceipt",
    "ScholarlyWorkEvent", "StandingSourceSync", "SyncStatus",
]
