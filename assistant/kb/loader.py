"""Read knowledge files into validated entries, turning every failure into a `Problem`."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from .problems import Problem
from .schema import LANGS, Entry

SUFFIXES = (".yaml", ".yml")
# The safe loader, in C when PyYAML was built with libyaml (10x faster; same safe constructors).
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str) -> Any:
    """`yaml.safe_load`, through the C implementation of the same safe loader when available."""
    return yaml.load(text, Loader=SAFE_LOADER)  # noqa: S506 - SafeLoader/CSafeLoader only


@dataclass(frozen=True)
class LoadedEntry:
    entry: Entry
    path: Path
    source: str  # "builtin" or "user"
    digest: str  # sha256 of the file bytes


@dataclass
class LoadResult:
    entries: list[LoadedEntry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def knowledge_files(paths: list[Path]) -> list[Path]:
    """Expand directories into their entry files (sorted); keep files as given."""
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            files.extend(sorted(f for f in p.iterdir() if f.suffix in SUFFIXES and f.is_file()))
        else:
            files.append(p)
    return files


def _location(loc: tuple[Any, ...]) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        else:
            # Discriminated unions add the tag to the location ("nodes.start.choice.prompt").
            parts.append(("." if parts else "") + str(item))
    return "".join(parts) or "<root>"


def _strip_union_tags(loc: tuple[Any, ...], raw: object) -> tuple[Any, ...]:
    """Drop the discriminator tags pydantic inserts into locations, keeping real keys."""
    out: list[Any] = []
    node = raw
    for item in loc:
        if isinstance(node, dict):
            if item in node:
                out.append(item)
                node = node[item]
                continue
            if isinstance(item, str) and node.get("kind") == item:
                continue  # a union tag, not a key
            out.append(item)
            node = None
        elif isinstance(node, list) and isinstance(item, int) and item < len(node):
            out.append(item)
            node = node[item]
        else:
            if isinstance(item, str) and isinstance(node, dict) and node.get("kind") == item:
                continue
            out.append(item)
            node = None
    return tuple(out)


def _pydantic_problems(path: str, err: ValidationError, raw: object) -> list[Problem]:
    problems: list[Problem] = []
    for e in err.errors(include_url=False):
        loc = _strip_union_tags(tuple(e["loc"]), raw)
        where = _location(loc)
        kind = e["type"]
        if kind == "missing" and loc and loc[-1] in LANGS:
            problems.append(Problem(path, where, "E040", f"missing the '{loc[-1]}' text"))
        elif kind == "missing":
            problems.append(Problem(path, where, "E002", "required field is missing"))
        elif kind == "extra_forbidden":
            problems.append(Problem(path, where, "E003", "unknown field"))
        elif kind == "string_too_short" and loc and loc[-1] in LANGS:
            problems.append(Problem(path, where, "E040", f"the '{loc[-1]}' text is empty"))
        else:
            problems.append(Problem(path, where, "E004", e["msg"]))
    return problems


def load_file(path: Path, source: str = "builtin") -> tuple[LoadedEntry | None, list[Problem]]:
    """Parse and validate one file. Never raises for bad content."""
    shown = str(path)
    try:
        data = path.read_bytes()
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [Problem(shown, "1", "E005", f"cannot read file: {exc}")]
    try:
        raw = safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = str(mark.line + 1) if mark is not None else "1"
        reason = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return None, [Problem(shown, line, "E001", f"invalid YAML: {reason}")]
    if not isinstance(raw, dict):
        return None, [Problem(shown, "<root>", "E005", "the file must hold a mapping (an entry)")]
    try:
        entry = Entry.model_validate(raw)
    except ValidationError as exc:
        return None, _pydantic_problems(shown, exc, raw)
    problems: list[Problem] = []
    if entry.id != path.stem:
        problems.append(
            Problem(shown, "id", "E010", f"id '{entry.id}' must equal the file name '{path.stem}'")
        )
    digest = hashlib.sha256(data).hexdigest()
    return LoadedEntry(entry, path, source, digest), problems


def load_paths(paths: list[Path], source: str = "builtin") -> LoadResult:
    result = LoadResult()
    for f in knowledge_files(paths):
        loaded, problems = load_file(f, source)
        result.problems.extend(problems)
        if loaded is not None:
            result.entries.append(loaded)
    return result
