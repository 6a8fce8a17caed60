"""The tpu-assist TUI application. `make_app(...)` builds it for the CLI and for the tests."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from textual import events
from textual.app import App, SystemCommand
from textual.binding import BindingType
from textual.notifications import SeverityLevel
from textual.screen import Screen

from .. import history
from ..strings import LANGS, locale_lang, t
from .bindings import described, hidden_by_language
from .screens.main import AssistantApp, EngineLike, MainScreen

# Palette entries: (action, catalogue key of the title, catalogue key of the help)
PALETTE = [
    ("help", "key.help", "cmd.help"),
    ("language", "key.language", "cmd.language"),
    ("history", "key.history", "cmd.history"),
    ("export", "key.export", "cmd.export"),
    ("back", "key.back", "cmd.back"),
    ("restart", "key.restart", "cmd.restart"),
    ("copy", "key.copy", "cmd.copy"),
    ("script", "key.script", "cmd.script"),
    ("values", "key.values", "cmd.values"),
    ("toggle", "key.toggle", "cmd.expand"),
    ("new", "key.new", "cmd.new"),
]


class TpuAssistApp(App):
    TITLE = "tpu-assist"
    CSS_PATH = "app.tcss"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS: ClassVar[list[BindingType]] = [
        *described("ctrl+q", "quit", priority=True),
        *described("ctrl+p", "command_palette", show=False, priority=True),
    ]

    def __init__(
        self,
        engine: Any = None,
        lang: str | None = None,
        history_dir: Path | None = None,
        user_dirs: list[Path] | None = None,
        typed_ahead: str = "",
    ) -> None:
        super().__init__()
        # Complete lines typed before the program took the terminal (cli/terminal.py): sent as
        # the first question once the screen is up.
        self.typed_ahead = typed_ahead
        self.engine: EngineLike | None = engine
        self.lang = lang if lang in LANGS else locale_lang()
        # Set by --lang (or TPU_ASSIST_LANG), or by F2: the answers then stay in that language;
        # until then a question written in Portuguese switches them to Portuguese
        self.lang_chosen = lang in LANGS
        self.history_dir = Path(history_dir) if history_dir is not None else None
        self.user_dirs = user_dirs
        self.session = history.new_session(self.lang)
        self._tmux_clipboard: bool | None = None
        self.notices: list[Notice] = []  # every notification shown, oldest first

    def get_engine(self) -> EngineLike:
        """The engine, created on first use (called from the loading worker, off the UI thread)."""
        if self.engine is None:
            from ..engine import Engine

            self.engine = Engine(user_dirs=self.user_dirs)
        return self.engine

    async def on_event(self, event: events.Event) -> None:
        # Keys typed in the first moments, before the screen has focused its message box, would be
        # routed to the screen's own queue while the keys after them go straight to the box: two
        # queues, and the first keys could land after the later ones (a burst at launch was cut
        # in two and sent back to front). Focusing the box here, in the app's own ordered queue
        # and before the event is routed, keeps every key in one queue from the first one on.
        if (
            isinstance(event, (events.Key, events.Paste))
            and not event.is_forwarded
            and self.focused is None
            and isinstance(self.screen, MainScreen)
        ):
            self.screen.focus_box()
        await super().on_event(event)

    def get_default_screen(self) -> MainScreen:
        # The first screen from the start (not pushed later): no key can arrive before it.
        return MainScreen(self.lang)

    # -- notifications and bindings ----------------------------------------------------------------

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Textual's notification, also recorded in `notices` (thread-safe: a list append)."""
        self.notices.append(Notice(message, severity))
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if hidden_by_language(parameters, self.lang):
            return False  # the other language's description of the same key (bindings.py)
        return super().check_action(action, parameters)

    async def action_quit(self, lang: str = "") -> None:
        await super().action_quit()

    def action_command_palette(self, lang: str = "") -> None:
        super().action_command_palette()

    def action_help_quit(self) -> None:
        """Ctrl+C: say which key quits (Textual's own looks for an action named exactly `quit`;
        ours carries the language)."""
        for key, active in self.active_bindings.items():
            if active.binding.action.partition("(")[0] in ("quit", "app.quit"):
                self.notify(f"Press [b]{key}[/b] to quit the app", title="Do you want to quit?")
                return

    # -- clipboard ---------------------------------------------------------------------------------

    def tmux_clipboard(self) -> bool:
        """Whether tmux passes OSC 52 from applications to the outer terminal."""
        if self._tmux_clipboard is None:
            try:
                out = subprocess.run(
                    ["tmux", "show-options", "-gv", "set-clipboard"],
                    capture_output=True,
                    text=True,
                    timeout=2,
                ).stdout.strip()
            except (OSError, subprocess.SubprocessError):
                out = ""
            self._tmux_clipboard = out == "on"
        return self._tmux_clipboard

    def copy_command(self, command: str, what: str = "command") -> None:
        """Copy with OSC 52, and say plainly when the terminal cannot receive it. `what`:
        "command" or "script" (the whole fix), for the message."""
        if os.environ.get("TERM", "") == "dumb":
            self.notify(t(self.lang, "copy.dumb"), severity="warning", markup=False, timeout=8)
            return
        self.copy_to_clipboard(command)
        if os.environ.get("TMUX") and not self.tmux_clipboard():
            self.notify(t(self.lang, "copy.tmux"), severity="warning", markup=False, timeout=10)
        elif self.is_headless:
            self.notify(t(self.lang, "copied.script" if what == "script" else "copied"))
        else:
            key = "copy.sent.script" if what == "script" else "copy.sent"
            self.notify(t(self.lang, key), timeout=4)

    # -- command palette ---------------------------------------------------------------------------

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if not isinstance(screen, MainScreen):
            return
        for action, title, help_key in PALETTE:
            if screen.check_action(action, ()) is False:
                continue
            yield SystemCommand(
                t(self.lang, title), t(self.lang, help_key), partial(screen.run_action, action)
            )
        answer = screen.turn.answer if screen.turn is not None else None
        for n, result in enumerate(answer.results[:3] if answer else [], start=1):
            title = t(self.lang, "cmd.candidate", n=n) + f": {result.title}"
            yield SystemCommand(title, result.id, partial(screen.run_action, f"candidate({n})"))


def _contract(app: TpuAssistApp) -> AssistantApp:
    return app  # mypy checks here that the app is what MainScreen expects of it


@dataclass(frozen=True)
class Notice:
    message: str
    severity: str = "information"


def make_app(
    engine: Any = None,
    lang: str | None = None,
    history_dir: Path | None = None,
    user_dirs: list[Path] | None = None,
    typed_ahead: str = "",
) -> TpuAssistApp:
    """Build the app. `history_dir` holds `sessions/` (default: `paths.data_dir()`); `engine`
    defaults to a new, lazily loaded Engine over the built-in and `user_dirs` knowledge;
    `typed_ahead` is text typed before the program started, sent as the first question."""
    return TpuAssistApp(
        engine=engine,
        lang=lang,
        history_dir=history_dir,
        user_dirs=user_dirs,
        typed_ahead=typed_ahead,
    )


def run(lang: str | None = None, user_dirs: list[Path] | None = None, typed_ahead: str = "") -> int:
    app = make_app(lang=lang, user_dirs=user_dirs, typed_ahead=typed_ahead)
    app.run()
    return app.return_code or 0
