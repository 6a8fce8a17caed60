"""The two bars above the conversation: the status bar (what the assistant is doing, the language)
and the context header (the active turn's match, confidence and first reason, shown while the
answer itself is scrolled out of view, and the values found in the text while those are). Both only
show what the screen sets on them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import Static

from ...strings import t


@dataclass(frozen=True)
class ContextLines:
    """The header's content (see widgets/answer.py `context_lines`): the match's title, its
    confidence and that confidence's class, a second line (the first reason, or the entry walked
    instead), and the values found in the text (None: no row for them)."""

    head: Text
    confidence: str
    confidence_class: str
    second: Text
    values: Text | None = None


class StatusBar(Horizontal):
    """Reactives (bound to the screen's): `lang`, `status_key` (a `status.*` string) and `failed`
    (the error that stopped the engine from loading: shown instead of any status)."""

    lang = reactive("en", repaint=False)
    status_key = reactive("status.loading", repaint=False)
    failed = reactive("", repaint=False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._status = Static("", id="status")
        self._lang_tag = Static("", id="lang-tag")

    def compose(self) -> ComposeResult:
        yield Static("tpu-assist", id="app-name")
        yield self._status
        yield self._lang_tag

    def on_mount(self) -> None:
        self._show()

    def watch_lang(self) -> None:
        self._show()

    def watch_status_key(self) -> None:
        self._show()

    def watch_failed(self) -> None:
        self._show()

    def _show(self) -> None:
        if self.failed:
            text, ready = t(self.lang, "status.failed", error=self.failed), False
        else:
            text, ready = t(self.lang, self.status_key), self.status_key == "status.ready"
        self._status.update(Text(text))
        self._status.set_class(ready, "ready")
        self._lang_tag.update("PT" if self.lang == "pt" else "EN")


class ContextHeader(Vertical):
    """Hidden until `show` gets lines."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.display = False
        self._title = Static("", id="context-title")
        self._confidence = Static("", id="context-confidence")
        self._why = Static("", id="context-why")
        self._values = Static("", id="context-values")
        self._values.display = False
        self._lines: ContextLines | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="context-head"):
            yield self._title
            yield self._confidence
        yield self._why
        yield self._values

    def show(self, lines: ContextLines | None) -> bool:
        """Show `lines`, or hide the header (None). Returns whether anything changed: the header
        may have changed height (appeared, disappeared, its values row shown or hidden), and with
        it the conversation under it."""
        if lines == self._lines:
            return False
        self._lines = lines
        if lines is not None:
            self._title.update(lines.head)
            self._confidence.update(Text(lines.confidence))
            for cls in ("conf-high", "conf-mid", "conf-low"):
                self._confidence.set_class(cls == lines.confidence_class, cls)
            self._why.update(lines.second)
            self._values.update(lines.values or "")
            self._values.display = lines.values is not None
        self.display = lines is not None
        return True
