"""Modal screens: help, history (reopen a session), export (Markdown file) and values."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, OptionList, Static
from textual.widgets.option_list import Option

from ... import history
from ...placeholders import KNOWN, PlaceholderError, described, validate_value
from ...strings import t


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f1,q", "dismiss", "Close")]

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        # Textual's Markdown widget imports markdown-it (~50 ms): at F1, not at start-up.
        from textual.widgets import Markdown

        with Vertical(id="dialog", classes="dialog wide"):
            yield Static(t(self.lang, "help.title"), classes="dialog-title")
            with VerticalScroll():
                yield Markdown(t(self.lang, "help.body", data=str(history.sessions_dir())))
            yield Button(t(self.lang, "close"), id="close")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)


def _when(iso: str) -> str:
    return iso.replace("T", " ")[:16]


class HistoryScreen(ModalScreen[str | None]):
    """Lists saved sessions (newest first); dismisses with the chosen session id."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss", "Close")]

    def __init__(self, lang: str, base: Path | None = None) -> None:
        super().__init__()
        self.lang, self.base = lang, base
        self.sessions, self.warnings = history.list_sessions(base)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog wide"):
            yield Static(t(self.lang, "history.title"), classes="dialog-title")
            for w in self.warnings:
                yield Static(Text(t(self.lang, "history.corrupt", warning=w)), classes="warning")
            if not self.sessions:
                yield Static(t(self.lang, "history.empty"), classes="hint")
            else:
                options = []
                for s in self.sessions:
                    label = Text(_when(s.updated) + "  ", "bold")
                    if s.outcome:
                        mark = "✔ " if s.outcome == "solved" else "✗ "
                        label.append(mark + t(self.lang, f"outcome.{s.outcome}") + "  ")
                    turn = s.main_turn()
                    title = turn.entry_title(self.lang) if turn is not None else ""
                    if title:
                        label.append(title + " — ")
                    label.append((turn.key_line() if turn is not None else "") or "…", "dim")
                    options.append(Option(label, id=s.id))
                yield OptionList(*options, id="sessions")
            yield Static(t(self.lang, "history.help"), classes="hint")

    def on_mount(self) -> None:
        for w in self.warnings:
            self.notify(
                t(self.lang, "history.corrupt", warning=w),
                severity="warning",
                markup=False,
                timeout=10,
            )

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    async def action_dismiss(self, result: str | None = None) -> None:
        self.dismiss(None)


class FormDialog(ModalScreen):
    """A dialog with inputs and OK / Cancel: Enter or OK submits (`_ok`), Escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def _ok(self) -> None:
        raise NotImplementedError

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._ok()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "ok":
            self._ok()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ExportScreen(FormDialog):
    def __init__(self, lang: str, default: Path) -> None:
        super().__init__()
        self.lang, self.default = lang, default

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog"):
            yield Static(t(self.lang, "export.title"), classes="dialog-title")
            yield Static(t(self.lang, "export.path"), classes="label")
            yield Input(str(self.default), id="path")
            yield Checkbox(t(self.lang, "export.redact"), value=False, id="redact")
            with Horizontal(classes="buttons"):
                yield Button(t(self.lang, "export.ok"), id="ok", variant="primary")
                yield Button(t(self.lang, "cancel"), id="cancel")

    def on_mount(self) -> None:
        self.query_one("#path", Input).focus()

    def _ok(self) -> None:
        text = self.query_one("#path", Input).value.strip()
        if text:
            self.dismiss((Path(text).expanduser(), self.query_one("#redact", Checkbox).value))


class ValuesScreen(FormDialog):
    """One input per value; refuses a value the command could not safely use."""

    def __init__(
        self, lang: str, names: list[str], current: dict[str, str], found: dict[str, str]
    ) -> None:
        super().__init__()
        self.lang, self.names, self.current, self.found = lang, names, current, found

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog"):
            yield Static(t(self.lang, "values.title"), classes="dialog-title")
            yield Static(t(self.lang, "values.help"), classes="hint")
            with VerticalScroll(id="value-list"):
                for name in self.names:
                    desc = t(self.lang, described(name)) if name in KNOWN else ""
                    yield Static(Text(name, "bold") + Text(f"  {desc}", "dim"), classes="label")
                    yield Input(
                        self.current.get(name, ""),
                        id=f"v-{name}",
                        placeholder=self.found.get(name, ""),
                    )
                    yield Static("", id=f"e-{name}", classes="error")
            with Horizontal(classes="buttons"):
                yield Button(t(self.lang, "values.save"), id="ok", variant="primary")
                yield Button(t(self.lang, "cancel"), id="cancel")

    def on_mount(self) -> None:
        self.query(Input).first().focus()

    def _ok(self) -> None:
        out: dict[str, str] = {}
        bad = False
        for name in self.names:
            value = self.query_one(f"#v-{name}", Input).value.strip()
            err = self.query_one(f"#e-{name}", Static)
            try:
                out[name] = validate_value(name, value) if value else ""
                err.update("")
            except PlaceholderError as exc:
                err.update(Text("✗ " + exc.message(self.lang)))
                bad = True
        if not bad:
            self.dismiss(out)


def value_names(
    walk_data: dict | None, found: dict[str, str], overrides: dict[str, str]
) -> list[str]:
    """The values worth editing: the usual three and the framework (it picks the variant of a
    code change), those the fix still misses, those in use."""
    names = ["tpu_name", "zone", "project", "framework"]
    for name in (walk_data or {}).get("missing", []):
        names.append(name)
    for name in list(found) + list(overrides):
        if name in KNOWN:
            names.append(name)
    return list(dict.fromkeys(names))


def default_export_path(session_id: str) -> Path:
    return Path.cwd() / f"tpu-assist-{session_id}.md"
