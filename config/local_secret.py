"""A secret generated once for this machine and kept in a file only its owner can read."""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path


def read_or_create_secret(path: Path) -> str:
    """The secret in `path`, written first (mode 0600) if there is none yet.

    Several processes start at once (web, worker, beat): the file is created exclusively, so
    the first one writes it and the others read the same value."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _attempt in range(50):  # the writer may not have written it yet
            value = path.read_text(encoding="ascii").strip()
            if value:
                return value
            time.sleep(0.02)
        raise RuntimeError(f"{path} is empty: delete it and start again") from None
    value = secrets.token_hex(24)  # hex: safe in a URL without quoting
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(value + "\n")
    return value
