"""The message box: the one owner of the keyboard on the main screen.

Every key typed on the main screen lands here, in the order it was typed, because this widget
keeps the focus for the whole session (nothing else on the screen can take it) and handles every
key it uses inside its own `on_key` — never through a binding. Why that matters: Textual runs a
*priority* binding when the app dequeues the key, before the keys typed ahead of it reach the
focused widget's queue, and runs an ordinary binding only after the key has bubbled up to the app,
after the keys typed behind it. Either way a burst (tmux `send-keys`, a fast typist, a terminal
without bracketed paste) comes out reordered: Enter sent the message without its last word, a
Backspace removed the wrong character. Handled here, each key is applied before the next one.

What the keys do (attributes set by the screen: `choices`, `candidates`, `list_kind`, `recall`;
reactives bound to the screen's: `lang`, and `mode`, what the box is waiting for, which picks its
placeholder):

- printable keys type into the box; Enter sends what it holds; Ctrl+J adds a new line;
- a digit typed into an *empty* box while options are shown picks that option (`Pick`);
- alt+1…3 from a terminal that sends ESC 1 (xterm's, GNOME's, tmux), which Textual reads as the
  character macOS types for Option+1 ("¡", "™", "£"), walks that nearest entry while an answer
  shows them (`Candidate`; `candidates`, set by the screen); otherwise the character is typed;
- Ctrl+U clears the box, Ctrl+W deletes the word before the cursor;
- Up / Down at an empty box (or while showing a recalled question) recall earlier questions;
- PageUp / PageDown scroll the conversation (Ctrl+Home / Ctrl+End: to its top / end);
- Tab enters the list above (options or commands; `ListKey` messages), Tab / Esc leave it; in
  the list ↑↓ move, Enter picks (or copies a command), `c` copies, and any other key types here.

A large paste (a stack trace, a log) is sent at once as one message, with whatever was already
typed in front of it, so a 300-line trace — or 10 MB — never fills the editor line by line.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.widgets import TextArea

from ...strings import t
from ..bindings import described, hidden_by_language
from ..messages import Candidate, ListKey, Pick, Scroll, Submitted

BIG_PASTE_LINES = 8
BIG_PASTE_CHARS = 2000
RECALL_MAX = 100_000  # characters: a bigger earlier question is not put back into the editor

# TextArea bindings left to the screen: F6 / F7 are the screen's keys here, not "select line/all".
_YIELDED_ACTIONS = {"select_line", "select_all"}

# What Textual makes of alt+1, alt+2, alt+3 from a terminal that sends ESC 1 … ESC 3 (it reads them
# as macOS's Option+digit characters), so a binding on "alt+1" never sees them.
ALT_DIGITS = {"¡": 1, "™": 2, "£": 3}

# What the box waits for (`mode`) -> its placeholder.
PLACEHOLDERS = {
    "": "prompt.placeholder",
    "choice": "prompt.choice",
    "number": "prompt.number",
    "outcome": "prompt.outcome",
    "alternative": "prompt.alternative",
}


def _text_area_keys() -> dict[str, str]:
    """TextArea's own key → action table, so those keys run in order inside `on_key`."""
    out: dict[str, str] = {}
    for binding in Binding.make_bindings(TextArea.BINDINGS):
        if binding.action not in _YIELDED_ACTIONS:
            out.setdefault(binding.key, binding.action)
    return out


class PromptInput(TextArea):
    BINDINGS: ClassVar[list[BindingType]] = [
        # Shown in the footer and the help; the keys themselves are handled in `on_key`.
        *described("ctrl+j", "newline"),
    ]

    lang = reactive("en", repaint=False)
    mode = reactive("", repaint=False)  # a key of PLACEHOLDERS

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(soft_wrap=True, show_line_numbers=False, tab_behavior="focus", **kwargs)
        self.choices = 0  # options a digit can pick (0: none shown)
        self.candidates = 0  # nearest entries alt+1…3 can walk (0: no answer shown)
        self.list_kind = ""  # "choice" | "commands" | "": what Tab can enter
        self.in_list = False
        self.recall: list[str] = []  # earlier questions of the session, oldest first
        self._recall_at: int | None = None  # index into `recall` being shown
        self._keys = _text_area_keys()

    def on_mount(self) -> None:
        if self.app.is_headless:  # tests and snapshots: a steady cursor, never half a blink
            self.cursor_blink = False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in _YIELDED_ACTIONS or hidden_by_language(parameters, self.lang):
            return False  # let F6 / F7 reach the screen; the other language's description
        return super().check_action(action, parameters)

    def watch_lang(self) -> None:
        self.placeholder = t(self.lang, PLACEHOLDERS[self.mode])

    def watch_mode(self) -> None:
        self.placeholder = t(self.lang, PLACEHOLDERS[self.mode])

    # -- attributes set by the screen --------------------------------------------------------------

    def set_list(self, kind: str, choices: int, candidates: int = 0) -> None:
        """What is shown above the box: the kind of list Tab enters, the options digits pick and
        the nearest entries alt+1…3 walk."""
        self.list_kind, self.choices, self.candidates = kind, choices, candidates
        self._leave_list()  # new content above: the list starts unselected

    def _enter_list(self) -> None:
        self.in_list = True
        self.add_class("-in-list")
        self.post_message(ListKey("enter"))

    def _leave_list(self) -> None:
        if self.in_list:
            self.in_list = False
            self.remove_class("-in-list")
            self.post_message(ListKey("leave"))

    # -- keys --------------------------------------------------------------------------------------

    async def on_key(self, event: events.Key) -> None:
        handled = await self._key(event)
        if handled:
            event.stop()
            event.prevent_default()  # TextArea's own `_on_key` must not insert it again

    async def _key(self, event: events.Key) -> bool:
        key, ch = event.key, event.character
        if key not in ("up", "down"):
            self._recall_at = None
        if self.in_list:
            moves = ("up", "down", "k", "j") if self.list_kind == "commands" else ("up", "down")
            if key in moves:
                self.post_message(ListKey("down" if key in ("down", "j") else "up"))
                return True
            if key in ("escape", "tab", "shift+tab"):
                self._leave_list()
                return True
            if key == "enter" and not self.text.strip():
                if self.list_kind == "choice":
                    self.choices = 0
                    self._leave_list()
                self.post_message(ListKey("select"))
                return True
            if key == "c" and self.list_kind == "commands" and not self.text:
                self.post_message(ListKey("copy"))
                return True
            if event.is_printable or key in ("enter", "backspace", "delete"):
                self._leave_list()  # typing leaves the list; the key goes on below
        if key == "enter":
            self.action_submit()
            return True
        if key in ("ctrl+j", "shift+enter"):
            self.action_newline()
            return True
        if key == "ctrl+u":
            self.action_clear_box()
            return True
        if key in ("pageup", "pagedown", "ctrl+home", "ctrl+end"):
            self.post_message(Scroll(key))
            return True
        if key in ("tab", "shift+tab"):
            if self.list_kind:
                self._enter_list()
            return True  # nothing else on this screen takes the focus
        if key in ("up", "down") and self._recalling():
            self._recall(-1 if key == "up" else 1)
            return True
        if ch and ch in "123456789" and not self.text and int(ch) <= self.choices:
            # The question is answered: until the screen shows the next one, digits are text.
            self.choices = 0
            self.post_message(Pick(int(ch)))
            return True
        nearest = ALT_DIGITS.get(ch or "")
        if nearest is not None and nearest <= self.candidates:
            self.post_message(Candidate(nearest))
            return True
        action = self._keys.get(key)
        if action is not None:
            await self.run_action(action)
            return True
        return False  # printable keys: TextArea inserts them

    # -- recall ------------------------------------------------------------------------------------

    def _recalling(self) -> bool:
        if not self.recall:
            return False
        if not self.text:
            return True
        return self._recall_at is not None and self.text == self.recall[self._recall_at]

    def _recall(self, step: int) -> None:
        """Show the previous (step -1) or next (+1) earlier question; past the newest: empty."""
        usable = [i for i, q in enumerate(self.recall) if len(q) <= RECALL_MAX]
        if not usable:
            return
        current = self._recall_at if self.text and self._recall_at in usable else None
        if current is None:
            if step > 0:
                return  # Down at an empty box: nothing newer
            at = usable[-1]
        else:
            nxt = usable.index(current) + step
            if nxt >= len(usable):
                self.action_clear_box()
                return
            at = usable[max(nxt, 0)]
        self.load_text(self.recall[at])
        self._recall_at = at
        self.move_cursor(self.document.end)

    # -- actions -----------------------------------------------------------------------------------

    def action_submit(self) -> None:
        text = self.text
        if not text.strip():
            return
        self.clear()
        self._recall_at = None
        self.post_message(Submitted(text))

    def action_newline(self, lang: str = "") -> None:
        self.insert("\n")

    def action_clear_box(self) -> None:
        self.clear()
        self._recall_at = None

    def take_paste(self, text: str) -> bool:
        """Send a big paste as one message; return False when it should go into the editor."""
        # Terminals (and tmux) often send a paste's line breaks as CR.
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        if text.count("\n") < BIG_PASTE_LINES and len(text) < BIG_PASTE_CHARS:
            return False
        typed = self.text.strip()
        self.clear()
        self._leave_list()
        self.post_message(Submitted(f"{typed}\n{text}" if typed else text, pasted=True))
        return True

    def on_paste(self, event: events.Paste) -> None:
        """Runs before TextArea's own paste handler, which `prevent_default` skips: a big paste
        is sent whole instead of going into the editor. Either way the paste stops here: the
        screen's own paste handler is for a paste that found no focus, and inserted a small paste
        a second time when it bubbled up to it."""
        self._leave_list()
        event.stop()
        if self.take_paste(event.text):
            event.prevent_default()
