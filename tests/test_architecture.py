"""The architecture a newcomer reads in the README holds: pith <- citations <- curation, a lower layer
never importing a higher one, and no import cycle anywhere, imports inside functions included
(the contracts are in pyproject.toml, [tool.importlinter])."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_layers_hold_and_no_import_cycle_exists():
    lint = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert ", 0 broken." in run.stdout


def test_no_module_is_over_500_lines():
    """Small modules with one job each: a module past 500 lines is doing two (migrations aside)."""
    long = {str(path.relative_to(ROOT)): lines for package in ("pith", "citations", "curation")
            for path in (ROOT / package).rglob("*.py") if "migrations" not in path.parts
            and (lines := len(path.read_text(encoding="utf-8").splitlines())) > 500}
    assert long == {}
