"""Run every benchmark (each in its own process and environment); figures go to results/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

MODULES = sorted(
    p.stem
    for p in Path(__file__).parent.glob("*.py")
    # local_model needs a model server built first: `make check-local-model` runs it.
    if p.stem not in {"__init__", "__main__", "environment", "local_model"}
)

if __name__ == "__main__":
    failed = [
        m for m in MODULES if subprocess.run([sys.executable, "-m", f"benchmarks.{m}"]).returncode
    ]
    sys.exit(f"failed: {', '.join(failed)}" if failed else 0)
