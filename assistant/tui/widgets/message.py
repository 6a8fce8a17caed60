"""The person's message in the transcript, folded to its key lines with a way to expand.

Everything pasted is shown literally: ANSI escapes and control characters are stripped for display
and the text goes through `rich.text.Text`, never through markup, so `[bold]` stays `[bold]`.
"""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Static

from ...strings import t
from ...text.normalize import strip_ansi

SHORT = 12  # messages up to this many lines are shown whole
EXPANDED_MAX = 2000  # lines shown when expanded (a 10 MB paste stays responsive)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean(line: str, width: int = 400) -> str:
    line = _CONTROL.sub("", strip_ansi(line.replace("\t", "    ")))
    return line if len(line) <= width else line[: width - 1] + "…"


def count_lines(text: str) -> int:
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def head_tail(text: str, n: int = 4) -> tuple[list[str], list[str]]:
    """First and last n lines, reading only the ends of a possibly huge text."""
    return text[:20_000].splitlines()[:n], text[-20_000:].splitlines()[-n:]


class UserMessage(Widget):
    """Attributes: the text, `key_lines` once the answer is known, `lang`, `expanded`.
    A click (or the palette's "Expand") folds and unfolds it; it never takes the focus."""

    def __init__(self, text: str, lang: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.text = text
        self.lang = lang
        self.key_lines: list[dict[str, Any]] = []
        self.expanded = False
        self.n_lines = count_lines(text)

    def compose(self) -> ComposeResult:
        yield Static(t(self.lang, "you"), classes="who")
        yield Static(self._body(), classes="body")
        yield Static(self._toggle_label(), classes="toggle" + ("" if self.foldable else " empty"))

    @property
    def foldable(self) -> bool:
        return self.n_lines > SHORT

    def _toggle_label(self) -> Text:
        if not self.foldable:
            return Text("")
        key = "msg.collapse" if self.expanded else "msg.expand"
        return Text(t(self.lang, key, n=self.n_lines))

    def _body(self) -> Text:
        out = Text(no_wrap=False)
        if not self.foldable:
            lines = [clean(line) for line in self.text.splitlines()] or [""]
            out.append("\n".join(lines))
            return out
        if self.expanded:
            lines = self.text[:400_000].splitlines()[:EXPANDED_MAX]
            out.append("\n".join(clean(line) for line in lines))
            if self.n_lines > len(lines):
                out.append("\n" + t(self.lang, "msg.cut", n=self.n_lines - len(lines)), "dim")
            return out
        if self.key_lines:
            out.append(t(self.lang, "msg.key_lines", n=self.n_lines) + "\n", "dim")
            prev = 0
            for k in self.key_lines:
                if k["line"] > prev + 1:
                    out.append("  ⋮\n", "dim")
                out.append(f"{k['line']:>5} ", "dim")
                out.append(clean(k["text"], 300) + "\n")
                prev = k["line"]
            out.rstrip()
            return out
        head, tail = head_tail(self.text)
        out.append(t(self.lang, "msg.lines", n=self.n_lines) + "\n", "dim")
        out.append("\n".join(clean(line, 300) for line in head) + "\n")
        out.append("  ⋮\n", "dim")
        out.append("\n".join(clean(line, 300) for line in tail))
        return out

    def refresh_content(self) -> None:
        if not self.is_mounted:
            return
        self.query_one(".who", Static).update(t(self.lang, "you"))
        self.query_one(".body", Static).update(self._body())
        self.query_one(".toggle", Static).update(self._toggle_label())

    def set_key_lines(self, key_lines: list[dict[str, Any]]) -> None:
        self.key_lines = list(key_lines)
        self.refresh_content()

    def set_lang(self, lang: str) -> None:
        self.lang = lang
        self.refresh_content()

    # Not DOMNode's `action_toggle(attribute)`: the message's own fold, called by a click, the
    # screen's F8 and the tests (synchronously, hence the differing signature).
    def action_toggle(self) -> None:  # type: ignore[override]
        if self.foldable:
            self.expanded = not self.expanded
            self.refresh_content()

    def on_click(self) -> None:
        self.action_toggle()
