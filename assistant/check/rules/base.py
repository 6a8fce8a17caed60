"""What every rule gets: the module's facts and analysis, and a way to make a finding."""

from __future__ import annotations

from typing import Any

from ..analysis import Analysis
from ..facts import Facts
from ..model import Finding, Rule


class Context:
    def __init__(self, facts: Facts, rules: dict[str, Rule]) -> None:
        self.facts = facts
        self.an = Analysis(facts)
        self.rules = rules

    def finding(
        self,
        code: str,
        line: int,
        col: int,
        args: dict[str, Any] | None = None,
        values: dict[str, Any] | None = None,
        answers: dict[str, str] | None = None,
    ) -> Finding:
        rule = self.rules[code]
        return Finding(
            path="",
            line=line,
            col=col,
            code=code,
            entry=rule.entry,
            args=dict(args or {}),
            values={k: str(v) for k, v in (values or {}).items() if v is not None},
            answers=dict(answers or {}),
        )
