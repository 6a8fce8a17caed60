"""The knowledge base: validated entries from the built-in directory and the user's own."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from .. import paths
from . import cache
from .lint import lint_collection, lint_entry, validate
from .loader import LoadedEntry, load_paths
from .problems import Problem
from .schema import Entry

__all__ = ["Entry", "KnowledgeBase", "LoadedEntry", "Problem", "load_knowledge", "validate"]


@dataclass
class KnowledgeBase:
    entries: list[LoadedEntry]
    warnings: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._by_id = {le.entry.id: le for le in self.entries}

    def __len__(self) -> int:
        return len(self.entries)

    def ids(self) -> list[str]:
        return [le.entry.id for le in self.entries]

    def get(self, entry_id: str) -> Entry | None:
        le = self._by_id.get(entry_id)
        return le.entry if le else None

    def loaded(self, entry_id: str) -> LoadedEntry | None:
        return self._by_id.get(entry_id)

    def content_hash(self) -> str:
        """Hash of every entry's file bytes and source, independent of where the files live."""
        h = hashlib.sha256()
        for le in sorted(self.entries, key=lambda le: le.entry.id):
            h.update(f"{le.entry.id}\0{le.source}\0{le.digest}\n".encode())
        return h.hexdigest()


def load_knowledge(
    builtin: Path | None = None, user_dirs: list[Path] | None = None
) -> KnowledgeBase:
    """Load the built-in entries (must be valid) and the user's (broken ones are skipped, warned).

    A user entry with the id of a built-in one is skipped too: built-in ids are stable contracts.
    """
    builtin = builtin or paths.builtin_knowledge_dir()
    entries, warnings = _load_builtin(builtin)
    ids = {le.entry.id for le in entries}
    for d in user_dirs or []:
        if not d.is_dir():
            continue
        res = load_paths([d], "user")
        warnings.extend(f"skipped user entry: {p}" for p in res.problems)
        bad_files = {p.path for p in res.problems}
        for le in res.entries:
            probs = lint_entry(le) + lint_collection([le], ids)
            if le.entry.id in ids:
                warnings.append(f"skipped user entry: {le.path}: id '{le.entry.id}' already exists")
            elif probs or str(le.path) in bad_files:
                warnings.extend(f"skipped user entry: {p}" for p in probs)
            else:
                entries.append(le)
                ids.add(le.entry.id)
    return KnowledgeBase(entries, warnings)


def _load_builtin(directory: Path) -> tuple[list[LoadedEntry], list[str]]:
    """The built-in entries and their warnings: from the cache when it holds these very files
    (validated and linted by this very code), else loaded, linted and cached."""
    cache_file = paths.index_dir() / cache.NAME
    cached = cache.read(directory, cache_file)
    if cached is not None:
        return cached
    base = load_paths([directory], "builtin")
    warnings = [f"built-in knowledge: {p}" for p in base.problems]
    for le in base.entries:
        warnings.extend(f"built-in knowledge: {p}" for p in lint_entry(le))
    if not base.problems:  # then every file gave an entry, in the order they are listed
        cache.write(cache_file, base.entries, warnings)
    return list(base.entries), warnings
