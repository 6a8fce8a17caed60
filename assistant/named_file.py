"""A message that is only the path of a file: `tpu-assist ask train.log`, or a log file dragged onto
the terminal (most terminals then paste its path, quoted or with its spaces escaped, some as a
`file://` address). The assistant reads the file instead of searching for the words of its name.

Two functions; their only I/O is looking the path up (the caller reads the file).
"""

from __future__ import annotations

import shlex
from pathlib import Path
from urllib.parse import unquote, urlparse

# Longer than any path a person types or a terminal pastes: a longer message is text, not a path.
MAX_PATH_CHARS = 4096


def named_file(text: str) -> Path | None:
    """The existing regular file `text` names, as typed (`~/runs/train.log`), shell-quoted or
    escaped (`'/tmp/my run.log'`, `/tmp/my\\ run.log`) or as a `file://` address; None when the
    text is anything else (a question, a log, a path to nothing, a directory)."""
    s = text.strip()
    if not s or "\n" in s or len(s) > MAX_PATH_CHARS:
        return None
    candidates = [s]
    try:
        tokens = shlex.split(s)
    except ValueError:  # an unbalanced quote: not a quoted path
        tokens = []
    if len(tokens) == 1:
        candidates.append(tokens[0])
    if s.startswith("file://"):
        candidates.append(unquote(urlparse(s).path))
    for candidate in candidates:
        try:
            path = Path(candidate).expanduser()
            if path.is_file():
                return path
        except (OSError, ValueError, RuntimeError):  # no home to expand, a NUL, a name too long
            continue
    return None


# What a log, a notebook or a script saved to disk is called: a single word ending so, with a
# folder in it, names a file whatever else it could be
_FILE_SUFFIXES = (".log", ".txt", ".out", ".err", ".ipynb", ".py", ".json", ".jsonl")


def missing_file(text: str) -> str | None:
    """The path `text` names when it is only a path to a file that is not there (`~/runs/trian.log`,
    a typo): one word with a folder and a log's, a notebook's or a script's ending. None for
    anything else, a file that exists included (`named_file`), and for a path without such an
    ending ("/tmp/tpu_logs" may be a question about that folder)."""
    s = text.strip()
    if not s or any(c.isspace() for c in s) or len(s) > MAX_PATH_CHARS:
        return None
    if "/" not in s or not s.lower().endswith(_FILE_SUFFIXES) or "://" in s:
        return None
    try:
        exists = Path(s).expanduser().exists()
    except (OSError, ValueError, RuntimeError):
        return None
    return None if exists else s
