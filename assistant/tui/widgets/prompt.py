"""The message box: a multi-line TextArea where Enter sends and Ctrl+J adds a new line.

A large paste (a stack trace, a log) is sent at once as one message, with whatever was already
typed in front of it, so a 300-line trace — or 10 MB — never fills the editor line by line.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import TextArea

BIG_PASTE_LINES = 8
BIG_PASTE_CHARS = 2000


class PromptInput(TextArea):
    BINDINGS = [
        Binding("enter", "submit", "Send", priority=True, show=False),
        Binding("ctrl+j,shift+enter", "newline", "New line", priority=True),
    ]

    class Submitted(Message):
        def __init__(self, text: str, pasted: bool = False) -> None:
            super().__init__()
            self.text = text
            self.pasted = pasted

    def __init__(self, **kwargs) -> None:
        super().__init__(soft_wrap=True, show_line_numbers=False, tab_behavior="focus", **kwargs)

    def on_mount(self) -> None:
        if self.app.is_headless:  # tests and snapshots: a steady cursor, never half a blink
            self.cursor_blink = False

    def action_submit(self) -> None:
        text = self.text
        if not text.strip():
            return
        self.clear()
        self.post_message(self.Submitted(text))

    def action_newline(self) -> None:
        self.insert("\n")

    def take_paste(self, text: str) -> bool:
        """Send a big paste as one message; return False when it should go into the editor."""
        # Terminals (and tmux) often send a paste's line breaks as CR.
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        if text.count("\n") < BIG_PASTE_LINES and len(text) < BIG_PASTE_CHARS:
            return False
        typed = self.text.strip()
        self.clear()
        self.post_message(self.Submitted(f"{typed}\n{text}" if typed else text, pasted=True))
        return True

    async def _on_paste(self, event: events.Paste) -> None:
        if self.take_paste(event.text):
            event.prevent_default()
            event.stop()
