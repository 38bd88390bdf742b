"""A small text progress bar for long-running commands (written to stderr)."""

from __future__ import annotations

import sys


def progress_bar(done: int, total: int, label: str = "", width: int = 30) -> None:
    filled = int(width * done / total) if total else width
    sys.stderr.write(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()
