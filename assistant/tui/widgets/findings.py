"""The findings turn (issue 14): Python code pasted into the assistant — or the output of
`tpu-assist check` — is checked in a worker and shown as a list of findings; choosing one (Enter
or a click) opens its entry's guided fix with the values the check found already filled in.

Kept apart from the screen on purpose: the screen's only hook is one call, `check_turn(text)`,
where a submitted message is dispatched (`CheckTurns` is mixed into `MainScreen`).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...check import RULES, Finding, check_source
from ...check import detect as check_detect
from ...check import report as check_report
from ...check.prefill import prefill_answers
from ...placeholders import PlaceholderError, validate_value
from ...strings import t
from ...walk import WalkError
from ..i18n import t as ui_t
from .answer import AnswerView
from .message import UserMessage
from .walkview import WalkView

MAX_SHOWN = 200  # findings listed in one turn (a pasted 10,000-line file stays responsive)


class FindingList(OptionList):
    """One line per finding: `line:col CODE message [entry]`."""

    DEFAULT_CSS = """
    FindingList { height: auto; max-height: 12; border: none; padding: 0; margin-left: 1;
                  background: transparent; }
    FindingList:focus { border: none; background: $boost; }
    """


class FindingsView(Vertical):
    """Attributes: `findings` (None while the check runs), `lang`, `source` ("code" or
    "output"), `chosen` (index of the finding being walked, or None)."""

    DEFAULT_CSS = """
    FindingsView { height: auto; padding: 0 1; margin-top: 1; border-left: thick $warning; }
    FindingsView:disabled { opacity: 0.8; }
    FindingsView .findings-title { text-style: bold; }
    FindingsView .findings-hint { color: $text-muted; }
    FindingsView .pending { color: $text-warning; text-style: italic; }
    """

    class Chosen(Message):
        def __init__(self, view: FindingsView, finding: Finding) -> None:
            super().__init__()
            self.view, self.finding = view, finding

    def __init__(self, lang: str, source: str = "code", findings=None, **kwargs) -> None:
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
            self.post_message(self.Chosen(self, self.findings[event.option_index]))

    async def update_view(self, **attrs) -> None:
        for k, v in attrs.items():
            setattr(self, k, v)
        await self.recompose()


class CheckAnswerView(AnswerView):
    """Stands where an answer stands in a search turn: the chosen finding's entry, rule and
    values (a rule found it, so there is no ranking or confidence to show). Hidden until a
    finding is chosen. Its language switch also relabels the findings above it."""

    def __init__(self, kb, lang: str, **kwargs) -> None:
        super().__init__(kb, lang, **kwargs)
        self.finding: Finding | None = None
        self.display = False

    def compose(self) -> ComposeResult:
        f, entry = self.finding, None
        if f is not None and f.entry and self.kb is not None:
            entry = self.kb.get(f.entry)
        if f is None or entry is None:
            return
        head = Text()
        head.append(entry.title.get(self.lang), "bold")
        head.append(f"  [{entry.id}]", "dim")
        yield Static(head, classes="title")
        why = Text(f"• {f.code} {f.line}:{f.col}: {f.message(self.lang)}")
        if f.code in RULES:
            why.append(f"\n  {RULES[f.code].rationale(self.lang)}")
        yield Static(why, classes="why")
        yield from self._values()

    async def update_view(self, **attrs) -> None:
        relabel = "lang" in attrs and attrs["lang"] != self.lang
        await super().update_view(**attrs)
        if relabel and self.parent is not None:
            for view in self.parent.query(FindingsView):
                await view.update_view(lang=attrs["lang"])


class CheckDone(Message):
    def __init__(self, seq: int, findings: list[Finding]) -> None:
        super().__init__()
        self.seq, self.findings = seq, findings


class CheckTurns:
    """Mixed into `MainScreen`: what a findings turn needs from the screen is only what a
    search turn uses (`turn`, `seq`, `render_turn`, `save`, the conversation)."""

    async def check_turn(self, text: str) -> bool:
        """Start a findings turn if `text` is Python code or `tpu-assist check` output;
        False when it is a question for the search."""
        kind = check_detect.kind(text)
        if kind == "query":
            return False
        screen: Any = self
        for old in screen.query(".turn"):
            for view in old.query("AnswerView, WalkView, FindingsView"):
                view.disabled = True
        screen.query_one("#welcome").display = False
        screen.turn = None
        screen.seq += 1
        screen.turn_index = len(screen.app.session.turns)
        screen.walk_kind = ""
        screen.update_placeholder()
        box = Vertical(classes="turn check-turn")
        await screen.conversation.mount(box)
        await box.mount(
            UserMessage(text, screen.lang),
            FindingsView(screen.lang, source=kind),
            CheckAnswerView(None, screen.lang),
            WalkView(None, screen.lang),
        )
        screen.conversation.scroll_end(animate=False)
        screen.run_check(screen.seq, text, kind)
        screen.refresh_bindings()
        return True

    @work(thread=True, exclusive=True, group="check")
    def run_check(self, seq: int, text: str, kind: str) -> None:
        try:
            if kind == "output":
                findings = check_report.parse_output(text)
            else:
                findings = check_source(text, "<pasted>")
        except Exception:  # the checker reports problems as findings; this is a last resort
            findings = []
        screen: Any = self
        screen.post_message(CheckDone(seq, findings))

    async def on_check_done(self, message: CheckDone) -> None:
        screen: Any = self
        if message.seq != screen.seq:
            return  # a newer message superseded this one
        view = screen.active(FindingsView)
        if view is None:
            return
        await view.update_view(findings=message.findings)
        msg = screen.active(UserMessage)
        if msg is not None and view.source == "code":
            lines = msg.text.splitlines()
            key = sorted({f.line for f in message.findings if 0 < f.line <= len(lines)})
            msg.set_key_lines([{"line": n, "text": lines[n - 1]} for n in key[:12]])
        if view.query(FindingList):
            view.query_one(FindingList).focus()
        screen.call_after_refresh(screen.conversation.scroll_end, animate=False)

    async def on_findings_view_chosen(self, message: FindingsView.Chosen) -> None:
        screen: Any = self
        if message.view is not screen.active(FindingsView) or message.view.disabled:
            return
        f = message.finding
        if screen.app.engine is None:  # the first moments after launch: the KB is on its way
            screen.notify(ui_t(screen.lang, "status.loading"), severity="warning")
            return
        kb = screen.kb
        entry = kb.get(f.entry) if f.entry else None
        if entry is None:
            screen.notify(t(screen.lang, "check.turn.no_entry"), severity="warning")
            return
        from ...answer import Answer, Result
        from ...text.parse import Facts

        values = {}
        for k, v in f.values.items():
            try:
                values[k] = validate_value(k, v)
            except PlaceholderError:
                continue
        why = f"{f.code} {f.line}:{f.col}: {f.message(screen.lang)}"
        result = Result(entry.id, entry.title.get(screen.lang), 1.0, 1.0, [why], source="check")
        answer = Answer(False, [result], Facts(), screen.lang, values=values)
        from ..state import TurnState

        turn = TurnState(query=screen.active(UserMessage).text, answer=answer)
        # What the code told is answered wherever the walk reaches it (after the generation
        # question, say), not only on the way from the start.
        turn.choose(entry.id, preset=prefill_answers(entry, values, dict(f.answers)))
        try:
            turn.current_walk(kb)
        except (WalkError, PlaceholderError):
            turn.preset = {}
        screen.turn = turn
        view = screen.active(CheckAnswerView)
        if view is not None:
            view.finding, view.kb, view.display = f, kb, True
        await message.view.update_view()  # the chosen finding marked
        await screen.render_turn()
        screen.save()
