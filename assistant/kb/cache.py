"""The built-in knowledge, validated and linted once, kept as JSON so that a one-shot `ask` does
not parse 19 YAML files and lint them on every call (~0.12 s of a ~0.8 s run on 2 cores).

The cache is only a faster way to the same entries, never a source of truth: its key is the
sha256 of every knowledge file (name and bytes) and of the code that decides what a valid entry
is (the schema, the loader, the linter and what the linter reads). Any change to either is a
miss; a miss, an unreadable file or a cache that no longer validates falls back to the YAML
files, and a fresh cache is written atomically beside the index. Nothing here can make the
assistant serve other entries than the files hold.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .loader import LoadedEntry, knowledge_files
from .schema import Entry

FORMAT = 1
NAME = "knowledge-cache.json"
# The modules whose code decides whether an entry loads and which warnings it gets.
_CODE = (
    "kb/schema.py",
    "kb/loader.py",
    "kb/lint.py",
    "kb/patterns.py",
    "kb/problems.py",
    "kb/cache.py",
    "advice.py",
    "placeholders.py",
    "tpu_generations.py",
)
_PACKAGE = Path(__file__).resolve().parent.parent


def cache_key(files: list[tuple[str, str]]) -> str:
    """The key of a cache of these files, given as (file name, sha256 of its bytes) in order."""
    h = hashlib.sha256(f"tpu-assist knowledge cache {FORMAT}\n".encode())
    for rel in _CODE:
        try:
            h.update(rel.encode() + b"\0" + (_PACKAGE / rel).read_bytes() + b"\0")
        except OSError:
            h.update(rel.encode() + b"\0missing\0")
    for name, digest in files:
        h.update(f"{name}\0{digest}\n".encode())
    return h.hexdigest()


def read(
    directory: Path, cache_file: Path, source: str = "builtin"
) -> tuple[list[LoadedEntry], list[str]] | None:
    """The entries and warnings of `directory` from `cache_file`, or None when the cache is
    missing, stale or unreadable (the caller then loads the files)."""
    paths = knowledge_files([directory])
    try:
        digests = [hashlib.sha256(f.read_bytes()).hexdigest() for f in paths]
        data = json.loads(cache_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    key = cache_key([(f.name, d) for f, d in zip(paths, digests, strict=True)])
    if not isinstance(data, dict) or data.get("key") != key:
        return None
    by_name = {f.name: (f, d) for f, d in zip(paths, digests, strict=True)}
    try:
        entries = []
        for item in data["entries"]:
            path, digest = by_name[item["file"]]
            entries.append(LoadedEntry(Entry.model_validate(item["entry"]), path, source, digest))
        warnings = [str(w) for w in data["warnings"]]
    except (KeyError, TypeError, ValueError):  # a cache from a damaged write: rebuilt
        return None
    return entries, warnings


def write(cache_file: Path, entries: list[LoadedEntry], warnings: list[str]) -> None:
    """Keep what was just loaded, one entry per file of its directory, under the key of the
    bytes it was loaded from (a file edited since is a miss next time); best effort: a
    read-only cache directory only costs the next call the YAML parse."""
    payload: dict[str, Any] = {
        "format": FORMAT,
        "key": cache_key([(le.path.name, le.digest) for le in entries]),
        "entries": [
            {"file": le.path.name, "entry": le.entry.model_dump(mode="json")} for le in entries
        ],
        "warnings": list(warnings),
    }
    try:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-kb-", dir=cache_file.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(payload, fh, ensure_ascii=False, separators=(",", ":"))
            os.replace(tmp, cache_file)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return
