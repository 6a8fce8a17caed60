"""Errors shared across layers that must be importable without the knowledge schema (pydantic):
the TUI catches them at start-up time without loading the walk.

Their messages are the person's to read, so they come from the catalogue (assistant/strings.py)
like every other user-facing string: an error keeps its key and values, `message(lang)` says it in
the person's language, and `str()` says it in English (logs, tracebacks, tests)."""

from __future__ import annotations

from .strings import t


class CatalogueError(ValueError):
    """An error whose message is the catalogue string `key` formatted with `values`. A value named
    in `phrases` is itself a catalogue key, said in the same language (a name's description)."""

    def __init__(self, key: str, *, phrases: dict[str, str] | None = None, **values: object):
        self.key, self.phrases, self.values = key, dict(phrases or {}), values
        super().__init__(self.message("en"))

    def message(self, lang: str) -> str:
        said = {name: t(lang, key) for name, key in self.phrases.items()}
        return t(lang, self.key, **self.values, **said)


class WalkError(CatalogueError):
    """An answer or node the tree does not have; the message says what would be valid."""
