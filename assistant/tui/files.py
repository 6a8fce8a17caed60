"""The text of a file a message named (`assistant.named_file`), as the TUI shows and routes it:
a notebook's saved errors (searched) or, where no cell failed, its code cells as the person wrote
them (checked); any other file (a log, a script) decoded as text.
Called from a thread worker of the main screen; returns values, never raises."""

from __future__ import annotations

import contextlib
from pathlib import Path

from ..strings import t

FILE_LIMIT_MB = 10  # as big a paste as the assistant is tested with


def file_text(path: Path, lang: str) -> tuple[str | None, str]:
    """(the text of the file at `path`, "") or (None, why not, in `lang`): a notebook's saved
    errors (`check.notebook.error_text`) or else its code cells (`code_text`), any other file
    decoded as text."""
    from ..check import notebook
    from ..check.runner import decode

    try:
        size = path.stat().st_size
        if size > FILE_LIMIT_MB * 1_000_000:
            mb = f"{size / 1_000_000:.0f}"
            return None, t(lang, "file.too_large", path=path, mb=mb, limit=FILE_LIMIT_MB)
        data = path.read_bytes()
    except OSError as exc:
        return None, t(lang, "file.unreadable", path=path, error=exc.strerror or exc)
    text = None
    if path.suffix == ".ipynb":
        with contextlib.suppress(notebook.NotANotebook):  # else read as the text it is
            # a failed run's saved errors are what to answer; without any, the code to check
            text = notebook.error_text(data) or notebook.code_text(data)
    if text is None:
        text = decode(data)
    if not text.strip():
        return None, t(lang, "file.empty", path=path)
    return text, ""
