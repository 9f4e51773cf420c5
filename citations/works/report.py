"""What a works import tells its caller: the lines kept and rejected, and what it sent on."""
from dataclasses import dataclass

from citations.input_files import IngestReport


@dataclass
class WorksReport(IngestReport):
    stopped: str = ""           # a problem with the file itself: what was read before it is kept
    referencing: int = 0        # references naming a new identifier, sent for resolution (those waiting
                                # for a new title are found by a job queued with each batch)
