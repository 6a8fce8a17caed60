"""The guided fix: the breadcrumb of answers, computed advice, the open question (choices by
number or arrows; numbers typed in the message box) — then the fix: commands with their risk,
code changes as coloured diffs, notes and the check. Nothing here is ever executed."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...kb.schema import ChoiceNode
from ...placeholders import PlaceholderError
from ..i18n import t


class TypeAhead(Message):
    """A printable key typed on a list: the screen sends it to the message box."""

    def __init__(self, character: str) -> None:
        super().__init__()
        self.character = character


class ChoiceList(OptionList):
    """Options of a choice question: digits pick directly; other typing goes to the message box."""

    class Answered(Message):
        def __init__(self, value: str) -> None:
            super().__init__()
            self.value = value

    def __init__(self, values: list[str], labels: list[str], **kwargs) -> None:
        options = [
            Option(Text(f"{i}. ") + Text(label), id=f"opt-{i}")
            for i, label in enumerate(labels, start=1)
        ]
        super().__init__(*options, **kwargs)
        self.values = values

    def on_key(self, event: events.Key) -> None:
        ch = event.character
        if ch and ch.isdigit() and 1 <= int(ch) <= len(self.values):
            event.stop()
            event.prevent_default()
            self.highlighted = int(ch) - 1
            self.post_message(self.Answered(self.values[int(ch) - 1]))
        elif event.is_printable and ch and ch not in " ":
            event.stop()
            event.prevent_default()
            self.post_message(TypeAhead(ch))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Answered(self.values[event.option_index]))


class CommandBlock(Widget, can_focus=True):
    """One shell command with its risk label; focus selects it, `c` copies it."""

    BINDINGS = [
        Binding("c", "copy", "Copy", show=False),
        Binding("down,j", "next", show=False),
        Binding("up,k", "previous", show=False),
    ]

    class Copy(Message):
        def __init__(self, command: str) -> None:
            super().__init__()
            self.command = command

    def __init__(self, number: int, command: str, risk: str, text: str, lang: str, **kwargs):
        super().__init__(**kwargs)
        self.number, self.command, self.risk, self.text, self.lang = (
            number,
            command,
            risk,
            text,
            lang,
        )

    def compose(self) -> ComposeResult:
        head = Text(f"{self.number}. ", "bold")
        head.append(self.text or "")
        yield Static(head, classes="step-text")
        yield Static(Text(t(self.lang, f"risk.{self.risk}")), classes=f"risk risk-{self.risk}")
        yield Static(Text("$ " + self.command), classes="command")

    def action_copy(self) -> None:
        self.post_message(self.Copy(self.command))

    def action_next(self) -> None:
        self.screen.focus_next("CommandBlock")

    def action_previous(self) -> None:
        self.screen.focus_previous("CommandBlock")

    def on_click(self) -> None:
        self.focus()


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


class WalkView(Vertical):
    """Attributes: `walk` (assistant.walk.Walk), `lang`, `error` (the last refused answer)."""

    def __init__(self, walk, lang: str, error: str = "", **kwargs) -> None:
        super().__init__(**kwargs)
        self.walk, self.lang, self.error = walk, lang, error

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

    def _question(self, w) -> ComposeResult:
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
            yield Static(t(self.lang, "walk.number_hint"), classes="hint")
        if self.error:
            yield Static(Text("✗ " + self.error), classes="error")

    def _fix(self, w) -> ComposeResult:
        try:
            data = w.to_dict(self.lang)
        except PlaceholderError as exc:
            yield Static(Text(t(self.lang, "walk.error", error=str(exc))), classes="error")
            return
        yield Static(Text("✔ " + data["title"]), classes="fix-title")
        for i, step in enumerate(data["steps"], start=1):
            if step["kind"] == "command":
                yield CommandBlock(
                    i,
                    step["command"],
                    step["risk"],
                    step.get("text", ""),
                    self.lang,
                    classes="step",
                )
            elif step["kind"] == "code":
                head = Text(f"{i}. ", "bold")
                head.append(step.get("text", ""))
                with Vertical(classes="step code-step"):
                    yield Static(head, classes="step-text")
                    yield from diff_lines(step.get("diff", ""))
            else:
                yield Static(Text(f"{i}. ") + Text(step.get("text", "")), classes="step note")
        yield Static(
            Text(t(self.lang, "walk.check") + ": ", "bold") + Text(data["check"]), classes="check"
        )
        if data.get("missing"):
            yield Static(
                t(self.lang, "walk.missing", names=", ".join(data["missing"])), classes="missing"
            )
        if any(s["kind"] == "command" for s in data["steps"]):
            yield Static(t(self.lang, "walk.copy_hint"), classes="hint")
        if self.error:
            yield Static(Text("✗ " + self.error), classes="error")

    async def update_view(self, **attrs) -> None:
        for k, v in attrs.items():
            setattr(self, k, v)
        await self.recompose()
