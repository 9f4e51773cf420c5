"""Observations, never records: a record is derived from these rows (citations/records/build.py)."""
from citations.models.current import CurrentResolution, PaperCurrent
from citations.models.generations import RecordGeneration
from citations.models.jobs import Job, JobChunk, JobState
from citations.models.overrides import (
    SEGMENTATION_FIELDS,
    VALUE_FIELDS,
    Override,
    OverrideAction,
    OverrideField,
)
from citations.models.papers import Paper, PaperSnapshot, PaperVersion
from citations.models.purges import ObservationPurge
from citations.models.references import ListReading, PaperReference, ReferenceExtraction
from citations.models.resolution import (
    CitedWork,
    IdentifierKind,
    PaperReferenceLink,
    PaperTitleKey,
    ResolutionState,
    WaitingReferenceKey,
    WorkIdentifier,
    WorkRevision,
    WorkTitleKey,
)
from citations.models.standing import (
    CitationMeasurement,
    EventType,
    ReceiptEvent,
    RetractionStatusReceipt,
    ScholarlyWorkEvent,
    StandingSourceSync,
    SyncStatus,
)
from citations.models.transparency import LeafKind, LogCheckpoint, LogLeaf, LogPending, note_written

__all__ = [
    "CitationMeasurement", "CurrentResolution", "CitedWork", "EventType", "Job", "JobChunk", "JobState", "ListReading", "ObservationPurge", "Override", "OverrideAction", "OverrideField", "Paper", "PaperReference", "PaperReferenceLink",
    "PaperCurrent", "PaperSnapshot", "PaperVersion", "ReceiptEvent", "RecordGeneration", "ReferenceExtraction", "ResolutionState",
    "RetractionStatusReceipt", "PaperTitleKey", "WaitingReferenceKey", "WorkTitleKey",
    "ScholarlyWorkEvent", "StandingSourceSync", "SyncStatus", "IdentifierKind", "WorkIdentifier", "WorkRevision",
    "SEGMENTATION_FIELDS", "VALUE_FIELDS", "LeafKind", "LogCheckpoint", "LogLeaf", "LogPending", "note_written",
]
