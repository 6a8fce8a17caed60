"""What the checker reports: a `Rule` (code, entry, rationale) and a `Finding` (where, what, and
the values it found, named like the variables of the entry's decision tree)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..strings import t


@dataclass(frozen=True)
class Rule:
    code: str  # TPU101
    entry: str | None  # knowledge entry id the finding opens (None: not a TPU problem)
    name: str  # kebab-case, e.g. batch-without-drop-remainder
    tpu_only: bool  # silent in a script that shows no TPU evidence

    def summary(self, lang: str = "en") -> str:
        """What the rule finds, one line (the README's rule table)."""
        return t(lang, f"check.{self.code}.summary")

    def rationale(self, lang: str = "en") -> str:
        """Why the guide advises against it."""
        return t(lang, f"check.{self.code}.why")


@dataclass
class Finding:
    path: str
    line: int  # 1-based
    col: int  # 1-based, like ruff
    code: str
    entry: str | None
    args: dict[str, Any] = field(default_factory=dict)  # what the message is formatted with
    values: dict[str, str] = field(default_factory=dict)  # tree variables: feature_dim=200
    answers: dict[str, str] = field(default_factory=dict)  # choice nodes known: source=batch
    cell: int | None = None  # a notebook's code cell (1-based) `line` is in; None in a script

    def message(self, lang: str = "en") -> str:
        """In `lang`; a finding read back from printed output keeps the text it had."""
        if "_text" in self.args:
            return str(self.args["_text"])
        try:
            return t(lang, f"check.{self.code}", **self.args)
        except (KeyError, IndexError):
            return self.code

    @property
    def sort_key(self) -> tuple[str, int, int, int, str]:
        return (self.path, self.cell or 0, self.line, self.col, self.code)

    @property
    def where(self) -> str:
        """`path:line:col`, or `path:cell N:line:col` in a notebook (as ruff writes them)."""
        cell = f":cell {self.cell}" if self.cell is not None else ""
        return f"{self.path}{cell}:{self.line}:{self.col}"

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "path": self.path,
            "cell": self.cell,
            "line": self.line,
            "col": self.col,
            "code": self.code,
            "entry": self.entry,
            "message": self.message(lang),
            "values": dict(self.values),
            "answers": dict(self.answers),
        }

    def walk_command(self) -> str | None:
        """The `tpu-assist walk` line that opens this finding's fix pre-answered."""
        if not self.entry:
            return None
        parts = ["tpu-assist", "walk", self.entry]
        parts += [f"--answer {k}={v}" for k, v in self.answers.items()]
        parts += [f"--set {k}={v}" for k, v in self.values.items()]
        return " ".join(parts)
