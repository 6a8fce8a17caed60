"""The guided fix: the breadcrumb of answers, computed advice, the open question (choices by
number or arrows; numbers typed in the message box) — then the fix: commands with their risk,
code changes as coloured diffs, notes and the check. Nothing here is ever executed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...placeholders import PlaceholderError
from ...render import RenderedStep, step_head
from ...strings import pct, t
from ..messages import CommandClicked, OptionClicked
from ..state import Alternative
from .base import RecomposingView

if TYPE_CHECKING:  # the walk and knowledge modules (pydantic) load with the engine
    from ...walk import Walk


class ChoiceList(OptionList, can_focus=False):
    """Options of a choice question (or of "did this fix it?" and what to try next).

    It never takes the focus — the message box keeps it, so no key typed while the list is
    shown goes astray: the box turns digits, and ↑↓ Enter after Tab, into messages for the
    screen, which asks `choice()`. A click picks an option (`OptionClicked`). `purpose` says
    what picking one means: "answer" (the open question), "outcome" (yes / no) or "alternative"
    (what to try instead).
    """

    def __init__(
        self, values: list[str], labels: list[str], purpose: str = "answer", **kwargs: Any
    ) -> None:
        options = [
            Option(Text(f"{i}. ") + Text(label), id=f"opt-{i}")
            for i, label in enumerate(labels, start=1)
        ]
        super().__init__(*options, **kwargs)
        self.values = values
        self.purpose = purpose

    def choice(self, number: int) -> str | None:
        """The value of option `number` (1-based), highlighted; None when there is none. The
        screen calls this for a digit typed into the empty box and acts on it at once — never
        through a message round trip, which keys typed behind the digit would overtake."""
        if 1 <= number <= len(self.values):
            self.highlighted = number - 1
            return self.values[number - 1]
        return None

    def highlighted_choice(self) -> str | None:
        return None if self.highlighted is None else self.choice(self.highlighted + 1)

    def move(self, step: int) -> None:
        if not self.values:
            return
        at = self.highlighted if self.highlighted is not None else -1 if step > 0 else 0
        self.highlighted = max(0, min(len(self.values) - 1, at + step))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(OptionClicked(self.values[event.option_index], self.purpose))


class CommandBlock(Widget):
    """One shell command with its risk label. The selected one (class `selected`) is what
    F5 / `c` copy; a click selects it."""

    def __init__(self, number: int, step: RenderedStep, lang: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.number, self.step, self.lang = number, step, lang

    @property
    def command(self) -> str:
        return self.step.command or ""

    def compose(self) -> ComposeResult:
        yield Static(_head(self.number, self.step), classes="step-text")
        risk = self.step.risk or ""
        yield Static(Text(t(self.lang, f"risk.{risk}")), classes=f"risk risk-{risk}")
        yield Static(Text("$ " + self.command), classes="command")

    def on_click(self) -> None:
        self.post_message(CommandClicked(self))


def _head(number: int, step: RenderedStep) -> Text:
    """`step_head` with the number in bold."""
    number_part = f"{number}. "
    head = Text(number_part, "bold")
    head.append(step_head(number, step)[len(number_part) :])
    return head


def diff_lines(diff: str) -> ComposeResult:
    for line in diff.splitlines():
        if line.startswith(("+++", "---")):
            cls = "diff-file"
        elif line.startswith("@@"):
            cls = "diff-hunk"
        elif line.startswith("+"):
            cls = "diff-add"
        elif line.startswith("-"):
            cls = "diff-del"
        else:
            cls = "diff-ctx"
        yield Static(Text(line or " "), classes=f"diff-line {cls}")


class WalkView(RecomposingView):
    """Attributes: `walk`, `lang`, `error` (the last refused answer), `selected` (index of the
    selected command), and at a fix `feedback` (the answer to "did this fix it?": "", "solved" or
    "not_solved") with `alternatives` (shown after a "no")."""

    def __init__(self, walk: Walk | None, lang: str, error: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.walk, self.lang, self.error = walk, lang, error
        self.selected = 0
        self.feedback = ""
        self.alternatives: list[Alternative] = []

    def compose(self) -> ComposeResult:
        w = self.walk
        if w is None:
            return
        yield Static(t(self.lang, "walk.title"), classes="section")
        if w.path:
            crumb = Text(t(self.lang, "walk.path") + ": ", "bold")
            crumb.append(" › ".join(f"{node} = {value}" for node, value in w.path))
            yield Static(crumb, classes="breadcrumb")
        for line in w.advice.lines(self.lang):
            yield Static(Text("» " + line), classes="advice")
        if w.kind == "question":
            yield from self._question(w)
        else:
            yield from self._fix(w)

    def _question(self, w: Walk) -> ComposeResult:
        from ...kb.schema import ChoiceNode, NumberNode  # imported by the walk already

        data = w.to_dict(self.lang)
        yield Static(Text("? " + data["prompt"]), classes="prompt")
        if data.get("help"):
            yield Static(Text(data["help"]), classes="help")
        if isinstance(w.node, ChoiceNode):
            opts = data["options"]
            yield ChoiceList(
                [o["value"] for o in opts], [o["label"] for o in opts], classes="choices"
            )
            yield Static(t(self.lang, "walk.choice_hint", n=len(opts)), classes="hint")
        else:
            # a number the report states (a batch size…) is shown, not taken: a pasted batch may
            # be per process where the question asks for the global one
            found = w.values.get(w.node.variable) if isinstance(w.node, NumberNode) else None
            if found:
                yield Static(Text(t(self.lang, "walk.number_found", value=found)), classes="hint")
            else:
                yield Static(t(self.lang, "walk.number_hint"), classes="hint")
        if self.error:
            yield Static(Text("✗ " + self.error), classes="error")

    def _fix(self, w: Walk) -> ComposeResult:
        """The fix's steps, from the `RenderedStep`s every output renders (assistant.render)."""
        try:
            steps = w.steps(self.lang)
            data = w.to_dict(self.lang)
        except PlaceholderError as exc:
            yield Static(
                Text(t(self.lang, "walk.error", error=exc.message(self.lang))), classes="error"
            )
            return
        yield Static(Text("✔ " + data["title"]), classes="fix-title")
        n_commands = sum(1 for s in steps if s.kind == "command")
        selected = min(max(self.selected, 0), max(n_commands - 1, 0))
        command_index = 0
        for i, step in enumerate(steps, start=1):
            if step.kind == "command":
                classes = "step" + (" selected" if command_index == selected else "")
                command_index += 1
                yield CommandBlock(i, step, self.lang, classes=classes)
            elif step.kind == "code":
                with Vertical(classes="step code-step"):
                    yield Static(_head(i, step), classes="step-text")
                    yield from diff_lines(step.diff or "")
            else:
                yield Static(Text(step_head(i, step)), classes="step note")
        yield Static(
            Text(t(self.lang, "walk.check") + ": ", "bold") + Text(data["check"]), classes="check"
        )
        if data.get("missing"):
            yield Static(
                t(self.lang, "walk.missing", names=", ".join(data["missing"])), classes="missing"
            )
        if n_commands:
            yield Static(t(self.lang, "walk.copy_hint"), classes="hint")
        if self.error:
            yield Static(Text("✗ " + self.error), classes="error")
        yield from self._loop()

    def _loop(self) -> ComposeResult:
        """Closing the loop: "did this fix it?", then what to try when it did not."""
        with Vertical(classes="loop"):
            if self.feedback == "solved":
                yield Static(Text("✔ " + t(self.lang, "loop.solved")), classes="loop-solved")
                return
            if self.feedback == "not_solved":
                yield Static(t(self.lang, "loop.not_solved"), classes="loop-title")
                if not self.alternatives:
                    yield Static(t(self.lang, "loop.nothing_else"), classes="hint")
                    return
                labels = []
                for alt in self.alternatives:
                    label = t(self.lang, f"loop.kind.{alt.kind}") + ": " + alt.title
                    if alt.confidence is not None:
                        label += f"  ({pct(alt.confidence)})"
                    labels.append(label)
                yield ChoiceList(
                    [str(i) for i in range(len(self.alternatives))],
                    labels,
                    purpose="alternative",
                    classes="choices alternatives",
                )
                yield Static(
                    t(self.lang, "loop.alt_hint", n=len(self.alternatives)), classes="hint"
                )
                return
            yield Static(t(self.lang, "loop.ask"), classes="loop-title")
            yield ChoiceList(
                ["solved", "not_solved"],
                [t(self.lang, "loop.yes"), t(self.lang, "loop.no")],
                purpose="outcome",
                classes="choices outcome",
            )
            yield Static(t(self.lang, "loop.ask_hint"), classes="hint")
