"""The state of one conversation turn: the answer, the entry being walked, the answers given and
the values the person set. Plain Python over the core (no textual), so the screen stays thin."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..history import Turn, clip_query
from ..kb import KnowledgeBase
from ..kb.schema import ChoiceNode, NumberNode
from ..placeholders import PlaceholderError, validate_value
from ..walk import Walk, WalkError, walk

_NUMBERISH = re.compile(r"^[-+]?[0-9][0-9_,]*(?:\.[0-9]+)?$")


@dataclass
class TurnState:
    query: str
    answer: object = None  # engine.Answer once the search is done
    entry_id: str | None = None
    path: list[tuple[str, str]] = field(default_factory=list)
    overrides: dict[str, str] = field(default_factory=dict)
    error: str = ""  # the last refused answer, shown under the question

    # -- derived ---------------------------------------------------------------------------------

    def facts_values(self) -> dict[str, str]:
        return dict(getattr(self.answer, "values", None) or {})

    def current_walk(self, kb: KnowledgeBase) -> Walk | None:
        entry = kb.get(self.entry_id) if self.entry_id else None
        if entry is None:
            return None
        return walk(entry, dict(self.path), values=self.facts_values(), overrides=self.overrides)

    def node(self, kb: KnowledgeBase):
        w = self.current_walk(kb)
        return w.node if w is not None and w.kind == "question" else None

    # -- changes -----------------------------------------------------------------------------------

    def choose(self, entry_id: str) -> None:
        self.entry_id = entry_id
        self.path = []
        self.error = ""

    def answer_question(self, kb: KnowledgeBase, raw: str) -> Walk:
        """Apply an answer to the open question; raises WalkError with a message to show."""
        w = self.current_walk(kb)
        if w is None or w.kind != "question":
            raise WalkError("there is no open question")
        nxt = walk(
            w.entry,
            {**dict(self.path), w.node_id: str(raw).strip()},
            values=self.facts_values(),
            overrides=self.overrides,
        )
        self.path = list(nxt.path)
        self.error = ""
        return nxt

    def back(self) -> bool:
        self.error = ""
        if not self.path:
            return False
        self.path.pop()
        return True

    def restart(self) -> bool:
        self.error = ""
        had = bool(self.path)
        self.path = []
        return had

    def set_values(self, values: dict[str, str]) -> None:
        """Replace the person's values (validated by the caller); empty means 'use the facts'."""
        for name, value in values.items():
            if value:
                self.overrides[name] = validate_value(name, value)
            else:
                self.overrides.pop(name, None)

    def interpret(self, kb: KnowledgeBase, text: str) -> str | None:
        """Free text typed while a question is open: the answer it clearly is, or None (a query)."""
        node = self.node(kb)
        s = text.strip()
        if node is None or not s or "\n" in s:
            return None
        if isinstance(node, NumberNode):
            return s if _NUMBERISH.match(s) else None
        if isinstance(node, ChoiceNode):
            low = s.lower().rstrip(".)")
            if low.isdigit() and len(low) <= 2:
                return low  # a bare small number is an option number (refused if out of range)
            for opt in node.options:
                labels = {opt.label.en.lower(), opt.label.pt.lower()}
                if low == opt.value.lower() or low in labels:
                    return opt.value
        return None

    # -- persistence ---------------------------------------------------------------------------------

    def to_turn(self, kb: KnowledgeBase) -> Turn:
        query, cut = clip_query(self.query)
        turn = Turn(
            query=query,
            query_truncated=cut,
            answer=self.answer.to_dict() if self.answer is not None else {},
            entry_id=self.entry_id,
            path=[list(p) for p in self.path],
            overrides=dict(self.overrides),
        )
        entry = kb.get(self.entry_id) if self.entry_id else None
        if entry is not None:
            turn.titles = {"en": entry.title.en, "pt": entry.title.pt}
            try:
                w = self.current_walk(kb)
                turn.walk = {lang: w.to_dict(lang) for lang in ("en", "pt")}
            except (WalkError, PlaceholderError):
                turn.walk = {}
        return turn

    @classmethod
    def from_turn(cls, turn: Turn) -> TurnState:
        answer = answer_from_dict(turn.answer) if turn.answer else None
        return cls(
            query=turn.query,
            answer=answer,
            entry_id=turn.entry_id,
            path=[(a, b) for a, b in turn.path],
            overrides=dict(turn.overrides),
        )


def answer_from_dict(d: dict):
    """An `Answer` rebuilt from its `to_dict()` (a saved session)."""
    from ..answer import Answer

    return Answer.from_dict(d)
