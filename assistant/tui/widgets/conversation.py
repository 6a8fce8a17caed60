"""The conversation: the welcome text, then one `TurnBox` per question — the person's message and
what answers it (an answer and a guided fix, or the findings of a checked paste). Turns are added
here and only here (`add_turn`); earlier turns stay readable but are disabled."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from ...errors import WalkError
from ...placeholders import PlaceholderError
from ...strings import t
from ..state import NOT_SOLVED, TurnState
from .answer import AnswerView
from .walkview import ChoiceList, WalkView

if TYPE_CHECKING:  # the knowledge modules (pydantic) load with the engine
    from ...kb import KnowledgeBase

W = TypeVar("W", bound=Widget)

# The views of a turn that an answer, a walk or a finding acts on (disabled in earlier turns).
LIVE_VIEWS = "AnswerView, WalkView, FindingsView"


class Welcome(Vertical):
    lang = reactive("en", repaint=False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._parts = {key: Static("", id=f"welcome-{key}") for key in ("title", "body", "keys")}

    def compose(self) -> ComposeResult:
        yield from self._parts.values()

    def watch_lang(self, lang: str) -> None:
        for key, part in self._parts.items():
            part.update(t(lang, f"welcome.{key}"))


@dataclass(frozen=True)
class Shown:
    """What `TurnBox.show` put on screen: the kind of step ("question-choice", "question-number",
    "fix" or "" when nothing is walked) and, at a fix, the "did this fix it?" answer so far."""

    walk_kind: str
    feedback: str = ""
    steps: int = 0  # questions answered on the way, by the person or by a value of the text


class TurnBox(Vertical):
    """One turn. Holds a `UserMessage`, then an `AnswerView` (or a `FindingsView` and a
    `CheckAnswerView`) and a `WalkView`."""

    def view(self, cls: type[W]) -> W | None:
        found = self.query(cls)
        return found.first() if found else None

    async def show(self, turn: TurnState, kb: KnowledgeBase, lang: str) -> Shown:
        """Show `turn` as its state says: the answer (or the chosen finding), the walk's step."""
        walk, error = None, ""
        try:
            walk = turn.current_walk(kb)
        except (WalkError, PlaceholderError) as exc:
            error = exc.message(lang)
        answer_view, walk_view = self.view(AnswerView), self.view(WalkView)
        if answer_view is None or walk_view is None:
            raise LookupError("a turn without its answer and walk views")
        await answer_view.update_view(
            kb=kb, lang=lang, answer=turn.answer, entry_id=turn.entry_id, waiting=False
        )
        feedback = turn.fix_feedback(kb) if walk is not None and walk.kind == "fix" else ""
        alternatives = turn.alternatives(kb, lang) if feedback == NOT_SOLVED else []
        await walk_view.update_view(
            walk=walk,
            lang=lang,
            error=turn.error or error,
            selected=0,
            feedback=feedback,
            alternatives=alternatives,
        )
        for title in answer_view.query("CollapsibleTitle"):
            title.can_focus = False  # clicked, not focused: the box keeps the keyboard
        if walk is None:
            return Shown("")
        steps = len(walk.path)
        if walk.kind == "fix":
            return Shown("fix", feedback, steps)
        kind = "question-choice" if walk_view.query(ChoiceList) else "question-number"
        return Shown(kind, steps=steps)

    def disable(self) -> None:
        for view in self.query(LIVE_VIEWS):
            view.disabled = True


class Conversation(VerticalScroll, can_focus=False):
    """Reactive: `lang` (bound to the screen's; the welcome text follows it)."""

    lang = reactive("en", repaint=False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.welcome = Welcome(id="welcome")

    def compose(self) -> ComposeResult:
        yield self.welcome.data_bind(Conversation.lang)

    @property
    def turns(self) -> list[TurnBox]:
        return list(self.query(TurnBox))

    @property
    def active_turn(self) -> TurnBox | None:
        turns = self.query(TurnBox)
        return turns.last() if turns else None

    def active(self, cls: type[W]) -> W | None:
        """The widget of type `cls` in the active (last) turn, or None."""
        turn = self.active_turn
        return turn.view(cls) if turn is not None else None

    async def add_turn(self, *views: Widget, classes: str = "") -> TurnBox:
        """A new turn holding `views`, at the end; the earlier turns are disabled."""
        for old in self.turns:
            old.disable()
        self.welcome.display = False
        box = TurnBox(classes=f"turn {classes}".strip())
        await self.mount(box)
        await box.mount(*views)
        return box

    async def clear(self, welcome: bool = True) -> None:
        self.anchor(False)
        await self.query(TurnBox).remove()
        self.welcome.display = welcome

    def follow_end(self) -> None:
        """Show the end (the open question) and keep it in view while the layout settles: the
        sticky header appearing a refresh later shortens the conversation, and a single scroll to
        the end could then land a line or two short, the question's hint cut off. An anchored
        container follows such changes (Textual's `Widget.anchor`), and the person's own
        scrolling releases it, so it is never undone. Anchored only when the conversation is
        taller than the view: a short one stays at the top instead of sinking to the bottom."""
        if self.max_scroll_y > 0:
            self.anchor()
        else:
            self.anchor(False)
            self.scroll_end(animate=False)

    @property
    def at_end(self) -> bool:
        return self.scroll_y >= self.max_scroll_y - 1

    def in_view(self, widgets: list[Widget]) -> bool:
        """Whether every one of `widgets` is wholly on screen (False for none).

        Read from where each widget sits in the conversation (its virtual region, and its
        containers', which a scroll does not move) against the scroll offset now: the widgets'
        screen regions follow a scroll only once the screen has redrawn, and a look taken in
        between would see where they were."""
        if not widgets:
            return False
        top, height = self.scroll_y, self.scrollable_content_region.height
        for widget in widgets:
            span = self._virtual_span(widget)
            if span is None or span[0] < top or span[1] > top + height:
                return False
        return True

    def _virtual_span(self, widget: Widget) -> tuple[int, int] | None:
        """The rows `widget` takes in the conversation's scrollable area (first, one past the
        last), or None when it is not laid out in it."""
        size = widget.virtual_region.height
        y = 0
        for node in widget.ancestors_with_self:
            if node is self:
                return (y, y + size) if size else None
            if not isinstance(node, Widget):
                return None
            y += node.virtual_region.y
        return None
