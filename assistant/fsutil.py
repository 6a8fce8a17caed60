"""Durable file-system updates, shared by the index store and the session history."""

from __future__ import annotations

import os
from pathlib import Path


def fsync_dir(path: Path) -> None:
    """Make a rename or a new entry in directory `path` durable (best effort: where a directory
    cannot be opened or synced, as on some file systems, the data itself was already synced)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
