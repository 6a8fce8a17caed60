"""The conversation screen. It owns the turn state, runs the slow work in thread workers, and
routes every message its children post (they never reach sideways)."""

from __future__ import annotations

import dataclasses

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import get_current_worker

from ... import history
from ...placeholders import PlaceholderError
from ...walk import WalkError
from ..i18n import STRINGS, t
from ..state import TurnState
from ..widgets.answer import AnswerView, CandidateLink
from ..widgets.findings import CheckTurns  # issue 14: pasted code becomes a findings turn
from ..widgets.message import UserMessage
from ..widgets.prompt import PromptInput
from ..widgets.walkview import ChoiceList, CommandBlock, TypeAhead, WalkView
from .modals import HelpScreen
from .session import SessionActions

LOAD_DELAY = 0.3  # seconds between the first frame and the start of the model load


class EngineReady(Message):
    def __init__(self, warnings: list[str]) -> None:
        super().__init__()
        self.warnings = warnings


class EngineFailed(Message):
    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error


class SearchDone(Message):
    def __init__(self, seq: int, answer=None, error: str = "", keep: bool = False) -> None:
        super().__init__()
        self.seq, self.answer, self.error, self.keep = seq, answer, error, keep


def relabel(node, lang: str) -> None:
    """Binding descriptions in the current language (the footer reads them)."""
    for key, bindings in node._bindings.key_to_bindings.items():
        node._bindings.key_to_bindings[key] = [
            dataclasses.replace(b, description=t(lang, f"key.{b.action.split('(')[0]}"))
            if f"key.{b.action.split('(')[0]}" in STRINGS and b.description
            else b
            for b in bindings
        ]


class MainScreen(SessionActions, CheckTurns, Screen):
    BINDINGS = [
        Binding("f3", "back", "Back"),
        Binding("f4", "restart", "Restart"),
        Binding("f5", "copy", "Copy"),
        Binding("f6", "values", "Values"),
        Binding("f1", "help", "Help"),
        Binding("f2", "language", "Português"),
        Binding("ctrl+o", "history", "History"),
        Binding("ctrl+s", "export", "Export"),
        Binding("alt+1", "candidate(1)", show=False),
        Binding("alt+2", "candidate(2)", show=False),
        Binding("alt+3", "candidate(3)", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.ready = False
        self.failed = ""
        self.turn: TurnState | None = None
        self.turn_index = -1  # index of the active turn in the session
        self.seq = 0
        self.status_key = "status.loading"
        self.walk_kind = ""  # "question" | "fix" | ""

    @property
    def lang(self) -> str:
        return self.app.lang

    @property
    def kb(self):
        return self.app.engine.kb

    # -- layout ------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="statusbar"):
            yield Static("tpu-assist", id="app-name")
            yield Static("", id="status")
            yield Static("", id="lang-tag")
        with VerticalScroll(id="conversation"), Vertical(id="welcome"):
            yield Static("", id="welcome-title")
            yield Static("", id="welcome-body")
            yield Static("", id="welcome-keys")
        yield PromptInput(id="prompt")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.apply_lang()
        self.query_one(PromptInput).focus()
        # Start loading once the first frame is up: importing torch in the worker holds the GIL for
        # a second or so, and the screen should be drawn and answering keys before that begins.
        # An engine handed in already warm (tests, embedding) has nothing slow left to do.
        engine = self.app.engine
        if engine is not None and getattr(getattr(engine, "embedder", None), "loaded", False):
            self.load_engine()
        else:
            self.set_timer(LOAD_DELAY, self.load_engine)

    @property
    def conversation(self) -> VerticalScroll:
        return self.query_one("#conversation", VerticalScroll)

    @property
    def prompt(self) -> PromptInput:
        return self.query_one(PromptInput)

    def active(self, cls):
        """The widget of type `cls` in the active turn, or None."""
        turns = self.query(".turn")
        if not turns:
            return None
        found = turns.last().query(cls)
        return found.first() if found else None

    def set_status(self, key: str, **kw) -> None:
        self.status_key = key
        self.query_one("#status", Static).update(Text(t(self.lang, key, **kw)))
        self.query_one("#status", Static).set_class(key == "status.ready", "ready")

    def apply_lang(self) -> None:
        lang = self.lang
        self.query_one("#lang-tag", Static).update("PT" if lang == "pt" else "EN")
        self.query_one("#welcome-title", Static).update(t(lang, "welcome.title"))
        self.query_one("#welcome-body", Static).update(t(lang, "welcome.body"))
        self.query_one("#welcome-keys", Static).update(t(lang, "welcome.keys"))
        if self.failed:
            self.set_status("status.failed", error=self.failed)
        else:
            self.set_status(self.status_key)
        self.update_placeholder()
        for node in (self, self.prompt, self.app):
            relabel(node, lang)
        self.refresh_bindings()

    def update_placeholder(self) -> None:
        key = {"question-choice": "prompt.choice", "question-number": "prompt.number"}.get(
            self.walk_kind, "prompt.placeholder"
        )
        self.prompt.placeholder = t(self.lang, key)

    # -- workers -----------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load")
    def load_engine(self) -> None:
        try:
            engine = self.app.get_engine()
            engine.warm_up()
            warnings = list(engine.kb.warnings)
        except Exception as exc:  # shown in the status bar, never a crash
            self.post_message(EngineFailed(f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(EngineReady(warnings))

    @work(thread=True, exclusive=True, group="search")
    def search(self, seq: int, text: str, lang: str, keep: bool) -> None:
        worker = get_current_worker()
        try:
            answer = self.app.engine.ask(text, lang=lang)
        except Exception as exc:
            if not worker.is_cancelled:
                self.post_message(SearchDone(seq, error=f"{type(exc).__name__}: {exc}"))
            return
        if not worker.is_cancelled:
            self.post_message(SearchDone(seq, answer, keep=keep))

    def on_engine_ready(self, message: EngineReady) -> None:
        self.ready = True
        self.set_status("status.ready")
        for w in message.warnings:
            self.notify(t(self.lang, "kb.warning", warning=w), severity="warning", markup=False)
        if self.turn is not None and self.turn.answer is None:
            self.start_search()
        self.refresh_bindings()

    def on_engine_failed(self, message: EngineFailed) -> None:
        self.failed = message.error
        self.set_status("status.failed", error=message.error)

    def start_search(self, keep: bool = False) -> None:
        if not keep:
            self.set_status("status.searching")
        self.search(self.seq, self.turn.query, self.lang, keep)

    async def on_search_done(self, message: SearchDone) -> None:
        if message.seq != self.seq or self.turn is None:
            return  # a newer question superseded this one
        self.set_status("status.ready")
        if message.error:
            self.notify(message.error, severity="error", markup=False)
            return
        answer = message.answer
        self.turn.answer = answer
        if not message.keep:
            self.turn.choose(
                None if answer.abstained or not answer.results else answer.results[0].id
            )
        if (msg := self.active(UserMessage)) is not None:
            msg.set_key_lines(answer.facts.key_lines)
        await self.render_turn(focus=not message.keep)
        self.save()

    # -- turns -------------------------------------------------------------------------------------

    async def new_query(self, text: str) -> None:
        for old in self.query(".turn"):
            for view in old.query("AnswerView, WalkView"):
                view.disabled = True
        self.query_one("#welcome").display = False
        self.turn = TurnState(query=text)
        self.seq += 1
        self.turn_index = len(self.app.session.turns)
        self.walk_kind = ""
        self.update_placeholder()
        box = Vertical(classes="turn")
        await self.conversation.mount(box)
        await box.mount(
            UserMessage(text, self.lang),
            AnswerView(None, self.lang, waiting=not self.ready),
            WalkView(None, self.lang),
        )
        self.conversation.scroll_end(animate=False)
        if self.ready:
            self.start_search()
        elif not self.failed:
            self.set_status("status.waiting")
        self.refresh_bindings()

    async def render_turn(self, focus: bool = True) -> None:
        turn, walk, error = self.turn, None, ""
        try:
            walk = turn.current_walk(self.kb)
        except (WalkError, PlaceholderError) as exc:
            error = str(exc)
        answer_view, walk_view = self.active(AnswerView), self.active(WalkView)
        await answer_view.update_view(
            kb=self.kb, lang=self.lang, answer=turn.answer, entry_id=turn.entry_id, waiting=False
        )
        await walk_view.update_view(walk=walk, lang=self.lang, error=turn.error or error)
        self.walk_kind = ""
        if walk is not None:
            self.walk_kind = (
                "fix"
                if walk.kind == "fix"
                else ("question-choice" if walk_view.query(ChoiceList) else "question-number")
            )
        self.update_placeholder()
        self.refresh_bindings()
        if not focus:
            return
        if self.walk_kind == "question-choice":
            walk_view.query_one(ChoiceList).focus()
        elif self.walk_kind == "fix" and walk_view.query(CommandBlock):
            walk_view.query(CommandBlock).first().focus(scroll_visible=False)
        else:
            self.prompt.focus(scroll_visible=False)
        if self.walk_kind == "fix" and walk_view.query(".fix-title"):
            title = walk_view.query_one(".fix-title")  # the fix starts at the top of the view
            self.call_after_refresh(
                self.conversation.scroll_to_widget, title, top=True, animate=False
            )
        else:
            self.call_after_refresh(self.conversation.scroll_end, animate=False)

    def save(self) -> None:
        if self.turn is None or self.turn.answer is None:
            return
        session = self.app.session
        turn = self.turn.to_turn(self.kb)
        if self.turn_index < len(session.turns):
            session.turns[self.turn_index] = turn
        else:
            session.turns.append(turn)
            self.turn_index = len(session.turns) - 1
        session.lang = self.lang
        try:
            history.save_session(session, self.app.history_dir)
        except OSError as exc:
            self.notify(
                t(self.lang, "history.saved_failed", error=str(exc)), severity="error", markup=False
            )

    # -- messages from children ---------------------------------------------------------------------

    async def on_prompt_input_submitted(self, message: PromptInput.Submitted) -> None:
        text = message.text
        if self.turn is not None and self.turn.answer is not None and not message.pasted:
            raw = self.turn.interpret(self.kb, text)
            if raw is not None:
                await self.apply_answer(raw)
                return
        # -- issue 14: Python code or `tpu-assist check` output opens a findings turn --------
        if await self.check_turn(text):
            return
        # -- end of issue 14 -------------------------------------------------------------------
        await self.new_query(text)

    async def on_choice_list_answered(self, message: ChoiceList.Answered) -> None:
        await self.apply_answer(message.value)

    def on_type_ahead(self, message: TypeAhead) -> None:
        self.prompt.focus()
        self.prompt.insert(message.character)

    async def on_candidate_link_chosen(self, message: CandidateLink.Chosen) -> None:
        if self.turn is not None and self.turn.answer is not None:
            await self.choose(message.entry_id)

    def on_command_block_copy(self, message: CommandBlock.Copy) -> None:
        self.app.copy_command(message.command)

    def on_paste(self, event) -> None:
        # A paste while the focus is on a list or a command still becomes a message.
        if not self.prompt.take_paste(event.text):
            self.prompt.focus()
            self.prompt.insert(event.text)

    async def apply_answer(self, raw: str) -> None:
        try:
            self.turn.answer_question(self.kb, raw)
        except WalkError as exc:
            self.turn.error = str(exc)
        await self.render_turn()
        self.save()

    async def choose(self, entry_id: str) -> None:
        self.turn.choose(entry_id)
        await self.render_turn()
        self.save()

    # -- actions -----------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        answered = self.turn is not None and self.turn.answer is not None
        if action in ("back", "restart"):
            return answered and bool(self.turn.path)
        if action == "copy":
            return self.walk_kind == "fix"
        if action == "values":
            return answered
        if action == "candidate":
            return answered and len(self.turn.answer.results) >= parameters[0]
        if action == "export":
            return bool(self.app.session.turns)
        if action == "history":
            return self.ready
        return True

    async def action_back(self) -> None:
        if self.turn is not None and self.turn.back():
            await self.render_turn()
            self.save()

    async def action_restart(self) -> None:
        if self.turn is not None and self.turn.restart():
            await self.render_turn()
            self.save()

    async def action_candidate(self, n: int) -> None:
        if (
            self.turn is not None
            and self.turn.answer is not None
            and len(self.turn.answer.results) >= n
        ):
            await self.choose(self.turn.answer.results[n - 1].id)

    def action_copy(self) -> None:
        block = self.focused if isinstance(self.focused, CommandBlock) else None
        view = self.active(WalkView)
        if block is None and view is not None and view.query(CommandBlock):
            block = view.query(CommandBlock).first()
        if block is None:
            self.notify(t(self.lang, "copy.none"), severity="warning")
            return
        self.app.copy_command(block.command)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.lang))

    async def action_language(self) -> None:
        self.app.lang = "en" if self.lang == "pt" else "pt"
        self.apply_lang()
        for msg in self.query(UserMessage):
            msg.set_lang(self.lang)
        for view in self.query(".turn AnswerView, .turn WalkView"):
            await view.update_view(lang=self.lang)
        if self.turn is not None and self.turn.answer is not None:
            self.start_search(keep=True)  # the reasons ("why") in the new language
        self.notify(t(self.lang, "lang.switched"), timeout=2)

    def action_toggle(self) -> None:
        msgs = self.query(UserMessage)
        if msgs:
            msgs.last().action_toggle()

    def action_prompt(self) -> None:
        self.prompt.focus()
