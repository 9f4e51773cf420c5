import os
from pathlib import Path

import pytest

DATA_DIR = Path(os.environ.get("PITH_DATA_DIR") or Path(__file__).resolve().parents[2].parent / "shared" / "data")
needs_data = pytest.mark.skipif(not (DATA_DIR / "grobid-citation-corpus").is_dir(),
                                reason=f"the training data is not at {DATA_DIR}")
