"""The findings turn (issue 14): Python code pasted into the assistant — or the output of
`tpu-assist check` — is checked in a worker and shown as a list of findings; choosing one (Enter
or a click) opens its entry's guided fix with the values the check found already filled in.

The views live here; the screen starts the check in a worker and routes `FindingChosen` to
`finding_turn`, which makes the turn state of the finding's guided fix.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...errors import WalkError
from ...placeholders import PlaceholderError, validate_value
from ...strings import t
from ..messages import FindingChosen
from ..state import TurnState
from .answer import AnswerView
from .base import RecomposingView

if TYPE_CHECKING:
    # The check package and the knowledge modules (pydantic) are imported where they are used —
    # a check runs in a worker, a finding is chosen once the engine is loaded — not at start-up.
    from ...check import Finding
    from ...kb import KnowledgeBase

MAX_SHOWN = 200  # findings listed in one turn (a pasted 10,000-line file stays responsive)


class FindingList(OptionList):
    """One line per finding: `line:col CODE message [entry]`."""

    DEFAULT_CSS = """
    FindingList { height: auto; max-height: 12; border: none; padding: 0; margin-left: 1;
                  background: transparent; }
    FindingList:focus { border: none; background: $boost; }
    """


class FindingsView(RecomposingView):
    """Attributes: `findings` (None while the check runs), `lang`, `source` ("code" or
    "output"), `chosen` (index of the finding being walked, or None)."""

    DEFAULT_CSS = """
    FindingsView { height: auto; padding: 0 1; margin-top: 1; border-left: thick $warning; }
    FindingsView:disabled { opacity: 0.8; }
    FindingsView .findings-title { text-style: bold; }
    FindingsView .findings-hint { color: $text-muted; }
    FindingsView .pending { color: $text-warning; text-style: italic; }
    """

    def __init__(
        self,
        lang: str,
        source: str = "code",
        findings: list[Finding] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.lang, self.source, self.findings = lang, source, findings
        self.chosen: int | None = None

    def compose(self) -> ComposeResult:
        if self.findings is None:
            yield Static(t(self.lang, "check.turn.checking"), classes="pending")
            return
        n = len(self.findings)
        if not n:
            yield Static(t(self.lang, "check.turn.clean"), classes="findings-title")
            return
        key = "check.turn.output" if self.source == "output" else "check.turn.title"
        yield Static(t(self.lang, key, n=n), classes="findings-title")
        yield Static(t(self.lang, "check.turn.hint"), classes="findings-hint")
        options = []
        for i, f in enumerate(self.findings[:MAX_SHOWN]):
            label = Text()
            label.append(f"{f.line}:{f.col} ", "dim")
            label.append(f.code, "bold")
            label.append(" " + f.message(self.lang))
            label.append(f" [{f.entry}]" if f.entry else "", "dim")
            if i == self.chosen:
                label.stylize("reverse", 0, len(f"{f.line}:{f.col}"))
            options.append(Option(label, id=f"finding-{i}"))
        yield FindingList(*options)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.findings and event.option_index < len(self.findings):
            self.chosen = event.option_index
            self.post_message(FindingChosen(self, self.findings[event.option_index]))


class CheckAnswerView(AnswerView):
    """Stands where an answer stands in a search turn: the chosen finding's entry, rule and
    values (a rule found it, so there is no ranking or confidence to show). Hidden until a
    finding is chosen. Its language switch also relabels the findings above it."""

    def __init__(self, kb: KnowledgeBase | None, lang: str, **kwargs: Any) -> None:
        super().__init__(kb, lang, **kwargs)
        self.finding: Finding | None = None
        self.display = False

    def compose(self) -> ComposeResult:
        f, entry = self.finding, None
        if f is not None and f.entry and self.kb is not None:
            entry = self.kb.get(f.entry)
        if f is None or entry is None:
            return
        from ...check import RULES  # a finding is shown: the check that found it imported it

        head = Text()
        head.append(entry.title.get(self.lang), "bold")
        head.append(f"  [{entry.id}]", "dim")
        yield Static(head, classes="title")
        why = Text(f"• {f.code} {f.line}:{f.col}: {f.message(self.lang)}")
        if f.code in RULES:
            why.append(f"\n  {RULES[f.code].rationale(self.lang)}")
        yield Static(why, classes="why")
        yield from self._values()

    async def update_view(self, **attrs: object) -> None:
        relabel = "lang" in attrs and attrs["lang"] != self.lang
        await super().update_view(**attrs)
        if relabel and self.parent is not None:
            for view in self.parent.query(FindingsView):
                await view.update_view(lang=attrs["lang"])


def run_check(text: str, kind: str) -> list[Finding]:
    """The findings of pasted code (`kind` "code") or of pasted `tpu-assist check` output."""
    from ...check import check_snippet
    from ...check import report as check_report

    try:
        if kind == "output":
            return check_report.parse_output(text)
        return check_snippet(text, "<pasted>")
    except Exception:  # the checker reports problems as findings; this is a last resort
        return []


def finding_turn(finding: Finding, kb: KnowledgeBase, lang: str, query: str) -> TurnState | None:
    """The turn state of a finding's guided fix: its entry chosen, the values the check found
    (those that are valid) filled in, and what the code told answered wherever the walk reaches
    it (after the generation question, say), not only on the way from the start. None when the
    finding names no entry of the knowledge base."""
    from ...answer import Answer, Result  # the engine's types: not needed at start-up
    from ...check.prefill import prefill_answers
    from ...text.parse import Facts

    entry = kb.get(finding.entry) if finding.entry else None
    if entry is None:
        return None
    values = {}
    for k, v in finding.values.items():
        try:
            values[k] = validate_value(k, v)
        except PlaceholderError:
            continue
    why = f"{finding.code} {finding.line}:{finding.col}: {finding.message(lang)}"
    result = Result(entry.id, entry.title.get(lang), 1.0, 1.0, [why], source="check")
    turn = TurnState(query=query, answer=Answer(False, [result], Facts(), lang, values=values))
    turn.choose(entry.id, preset=prefill_answers(entry, values, dict(finding.answers)))
    try:
        turn.current_walk(kb)
    except (WalkError, PlaceholderError):
        turn.preset = {}
    return turn
