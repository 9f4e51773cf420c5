"""Which process runs a command's job, and whether it still does: a job a command runs in its own
process (task_records.command_job) has no worker or broker to notice that the process was killed, so
it names the process, and the sweep fails the job once that process is gone."""
import os
import socket
from pathlib import Path


def this_process() -> dict:
    """This process as a job names it: its host, its pid and when it started (a reused pid differs)."""
    return {"host": socket.gethostname(), "pid": os.getpid(), "start": _start_ticks(os.getpid())}


def process_gone(process: dict | None) -> bool:
    """True when the named process surely ended; False when it runs, or when this host cannot tell
    (another host's process, or no process named)."""
    if not isinstance(process, dict) or process.get("host") != socket.gethostname():
        return False
    pid = process.get("pid")
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        pass                        # it runs, as another user
    start = _start_ticks(pid)
    return start is not None and process.get("start") is not None and start != process["start"]


def _start_ticks(pid: int) -> int | None:
    # Field 22 of /proc/PID/stat: when the process started, in clock ticks since boot (Linux).
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[19])
