"""The state of one conversation turn: the answer, the entry being walked, the answers given and
the values the person set. Plain Python over the core (no textual), so the screen stays thin."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import WalkError
from ..history import Turn, clip_query
from ..placeholders import PlaceholderError, validate_value
from ..render import render_text

if TYPE_CHECKING:
    # The knowledge and walk modules (pydantic, YAML) are imported by the engine's load worker,
    # and by the methods below where they need them: a turn has an answer (so a loaded engine)
    # before any of those runs. Start-up stays light; `Answer` is imported when a saved session
    # is read.
    from ..answer import Answer
    from ..kb import KnowledgeBase
    from ..walk import Walk

_NUMBERISH = re.compile(r"^[-+]?[0-9][0-9_,]*(?:\.[0-9]+)?$")
_YES = {
    "y",
    "yes",
    "yes it works",
    "it works",
    "fixed",
    "solved",
    "s",
    "sim",
    "resolvido",
    "funcionou",
}
_NO = {"n", "no", "not", "nope", "still failing", "não", "nao", "ainda não", "ainda nao"}
SOLVED, NOT_SOLVED = "solved", "not_solved"
MAX_BRANCHES, MAX_RELATED, MAX_CANDIDATES = 4, 3, 2


@dataclass(frozen=True)
class Alternative:
    """Something else to try when a fix did not work: another branch of the same tree
    (`path` leads to its fix), a related entry, or a runner-up candidate (walked from its start)."""

    kind: str  # "branch" | "related" | "candidate"
    entry_id: str
    title: str
    path: tuple[tuple[str, str], ...] = ()
    confidence: float | None = None

    @property
    def value(self) -> str:
        return f"{self.kind}:{self.entry_id}:" + "|".join(f"{n}={v}" for n, v in self.path)


@dataclass
class TurnState:
    query: str
    answer: Answer | None = None  # once the search is done
    entry_id: str | None = None
    path: list[tuple[str, str]] = field(default_factory=list)
    overrides: dict[str, str] = field(default_factory=dict)
    error: str = ""  # the last refused answer, shown under the question
    feedback: dict[str, str] = field(default_factory=dict)  # "entry/fix node" -> solved|not_solved
    outcome: str = ""  # the last "did this fix it?" answer of the turn: solved | not_solved | ""
    # Answers known before the person gave them (values a code check found): node id -> answer.
    # They apply wherever the walk reaches their question, under the person's own answers, and
    # one that the person steps back over is dropped, so the question is asked again.
    preset: dict[str, str] = field(default_factory=dict)
    # Questions the walk answered by itself from a value (`answer_from`) that the person stepped
    # back over: they are asked instead (node ids).
    asked: list[str] = field(default_factory=list)
    # What the TPU VM the TUI runs on says of itself (`machine.values_here`): under the answer's
    # values, which are under the person's (`overrides`). Not saved: read again at each start.
    machine: dict[str, str] = field(default_factory=dict)

    # -- derived -----------------------------------------------------------------------------------

    def facts_values(self) -> dict[str, str]:
        if self.answer is None:
            return {}
        return {**self.machine, **self.answer.values}

    def current_walk(self, kb: KnowledgeBase) -> Walk | None:
        from ..walk import walk

        entry = kb.get(self.entry_id) if self.entry_id else None
        if entry is None:
            return None
        w = walk(
            entry,
            self._answers(),
            values=self.facts_values(),
            overrides=self.overrides,
            ask=self.asked,
        )
        w.unused = [u for u in w.unused if u not in self.preset]
        return w

    def _answers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        return {**self.preset, **dict(self.path), **(extra or {})}

    def node(self, kb: KnowledgeBase):
        w = self.current_walk(kb)
        return w.node if w is not None and w.kind == "question" else None

    def _walk_or_none(self, kb: KnowledgeBase) -> Walk | None:
        """`current_walk`, or None where the saved answers no longer fit the tree."""
        try:
            return self.current_walk(kb)
        except (WalkError, PlaceholderError):
            return None

    def fix_key(self, kb: KnowledgeBase) -> str | None:
        """ "entry/node" of the fix reached, or None while a question is open."""
        w = self._walk_or_none(kb)
        return f"{w.entry.id}/{w.node_id}" if w is not None and w.kind == "fix" else None

    def fix_feedback(self, kb: KnowledgeBase) -> str:
        """The answer to "did this fix it?" for the fix shown now ("" if not asked yet)."""
        key = self.fix_key(kb)
        return self.feedback.get(key, "") if key else ""

    def alternatives(self, kb: KnowledgeBase, lang: str) -> list[Alternative]:
        """What to try when the fix shown did not work, best first: the other fixes of the same
        tree (reached by the answers closest to the person's), the entries the fix and the entry
        name as related, and the runner-up candidates of the answer."""
        from ..kb.schema import FixNode
        from ..walk import all_paths, walk

        try:
            w = self.current_walk(kb)
        except (WalkError, PlaceholderError):
            return []
        if w is None:
            return []
        entry, out, seen = w.entry, [], {w.entry.id}
        mine = set(self.path)
        branches: dict[str, tuple[int, tuple[tuple[str, str], ...], str]] = {}
        for answers in all_paths(entry):
            try:
                other = walk(entry, answers, values=self.facts_values(), overrides=self.overrides)
            except (WalkError, PlaceholderError):
                continue
            if other.kind != "fix" or other.node_id == w.node_id:
                continue
            shared = len(mine & set(other.path))
            best = branches.get(other.node_id)
            if (best is None or shared > best[0]) and isinstance(other.node, FixNode):
                title = render_text(other.node.title.get(lang), other.values)
                branches[other.node_id] = (shared, tuple(other.path), title)
        for _node, (_shared, path, title) in list(branches.items())[:MAX_BRANCHES]:
            out.append(Alternative("branch", entry.id, title, path))
        node = w.node
        related = list(node.related) if isinstance(node, FixNode) else []
        n = 0
        for rid in [*related, *entry.related]:
            other_entry = kb.get(rid)
            if other_entry is None or rid in seen or n >= MAX_RELATED:
                continue
            seen.add(rid)
            n += 1
            out.append(Alternative("related", rid, other_entry.title.get(lang)))
        n = 0
        for result in self.answer.results if self.answer is not None else []:
            if result.id in seen or n >= MAX_CANDIDATES:
                continue
            other_entry = kb.get(result.id)
            seen.add(result.id)
            n += 1
            title = other_entry.title.get(lang) if other_entry else result.title
            out.append(Alternative("candidate", result.id, title, confidence=result.confidence))
        return out

    # -- changes -----------------------------------------------------------------------------------

    def choose(self, entry_id: str | None, preset: dict[str, str] | None = None) -> None:
        self.entry_id = entry_id
        self.path = []
        self.preset = dict(preset or {})
        self.asked = []
        self.error = ""

    def answer_question(self, kb: KnowledgeBase, raw: str) -> Walk:
        """Apply an answer to the open question; raises WalkError with a message to show."""
        from ..walk import walk

        w = self.current_walk(kb)
        if w is None or w.kind != "question":
            raise WalkError("error.walk.no_open_question")
        nxt = walk(
            w.entry,
            self._answers({w.node_id: str(raw).strip()}),
            values=self.facts_values(),
            overrides=self.overrides,
            ask=self.asked,
        )
        self.path = list(nxt.path)
        self.error = ""
        return nxt

    def set_outcome(self, kb: KnowledgeBase, value: str) -> bool:
        """Record the answer to "did this fix it?" for the fix shown now."""
        key = self.fix_key(kb)
        if key is None or value not in (SOLVED, NOT_SOLVED):
            return False
        self.feedback[key] = value
        self.outcome = value
        self.error = ""
        return True

    def try_alternative(self, alt: Alternative) -> None:
        if alt.kind == "branch":
            self.entry_id = alt.entry_id
            self.path = [tuple(p) for p in alt.path]  # type: ignore[misc]
            self.asked = []
            self.error = ""
        else:
            self.choose(alt.entry_id)

    def back(self, kb: KnowledgeBase) -> bool:
        """One step back: the last answer is taken back and its question asked again — also where
        the walk gave that answer itself from a value of the text (`answer_from`), which would
        otherwise come straight back."""
        self.error = ""
        shown = self._walk_or_none(kb)
        steps = shown.path if shown is not None else self.path  # a walk that fails: the answers
        if not steps:
            return False
        node_id = steps[-1][0]
        self.path = [p for p in self.path if p[0] != node_id]
        self.preset.pop(node_id, None)
        again = self._walk_or_none(kb)
        answered_again = again is not None and again.node_id != node_id  # by a value of the text
        if answered_again and node_id not in self.asked:
            self.asked.append(node_id)
        return True

    def restart(self) -> bool:
        """Back to the first question, every answer asked again (the preset ones too)."""
        self.error = ""
        had = bool(self.path) or bool(self.asked)
        self.path = []
        self.preset = {}
        self.asked = []
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
        from ..kb.schema import ChoiceNode, NumberNode

        node = self.node(kb)
        s = text.strip()
        if not s or "\n" in s:
            return None
        if node is None:
            return self.interpret_outcome(kb, s)
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

    def interpret_outcome(self, kb: KnowledgeBase, text: str) -> str | None:
        """At a fix: "yes" / "no" (English or Portuguese) answer "did this fix it?"; once answered
        "no", a bare number picks what to try next. Returns "outcome:<value>" / "alt:<n>"."""
        if self.fix_key(kb) is None:
            return None
        low = text.strip().lower().rstrip(".!)")
        if low in _YES:
            return f"outcome:{SOLVED}"
        if low in _NO:
            return f"outcome:{NOT_SOLVED}"
        if low.isdigit() and len(low) <= 2:
            if self.fix_feedback(kb) == NOT_SOLVED:
                return f"alt:{low}"
            return {"1": f"outcome:{SOLVED}", "2": f"outcome:{NOT_SOLVED}"}.get(low)
        return None

    # -- persistence -------------------------------------------------------------------------------

    def to_turn(self, kb: KnowledgeBase | None) -> Turn:
        query, cut = clip_query(self.query)
        turn = Turn(
            query=query,
            query_truncated=cut,
            answer=self.answer.to_dict() if self.answer is not None else {},
            entry_id=self.entry_id,
            path=[list(p) for p in self.path],
            overrides=dict(self.overrides),
            outcome=self.outcome,
            feedback=dict(self.feedback),
            asked=list(self.asked),
        )
        entry = kb.get(self.entry_id) if self.entry_id and kb is not None else None
        if entry is not None and kb is not None:
            turn.titles = {"en": entry.title.en, "pt": entry.title.pt}
            try:
                w = self.current_walk(kb)
                turn.walk = {lang: w.to_dict(lang) for lang in ("en", "pt")} if w else {}
            except (WalkError, PlaceholderError):
                turn.walk = {}
        return turn

    @classmethod
    def from_turn(cls, turn: Turn) -> TurnState:
        from ..answer import Answer

        answer = Answer.from_dict(turn.answer) if turn.answer else None
        return cls(
            query=turn.query,
            answer=answer,
            entry_id=turn.entry_id,
            path=[(a, b) for a, b in turn.path],
            overrides=dict(turn.overrides),
            feedback=dict(turn.feedback),
            outcome=turn.outcome,
            asked=list(turn.asked),
        )
