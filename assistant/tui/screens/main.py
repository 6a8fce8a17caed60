"""The conversation screen. It owns the turn state, runs the slow work in thread workers, and
routes every message its children post (they never reach sideways)."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import get_current_worker

from ... import history
from ...placeholders import PlaceholderError
from ...walk import WalkError
from ..i18n import STRINGS, t
from ..state import NOT_SOLVED, TurnState
from ..widgets.answer import AnswerView, CandidateLink, context_lines
from ..widgets.findings import CheckTurns, FindingList  # issue 14: pasted code -> findings
from ..widgets.message import UserMessage
from ..widgets.prompt import PromptInput
from ..widgets.walkview import ChoiceList, CommandBlock, WalkView
from .modals import HelpScreen
from .session import SessionActions


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


# Keys that type into the message box: if one reaches the screen itself, nothing had the focus
# yet (the very first moments after launch) and the screen hands it to the box.
TYPING_KEYS = frozenset({"enter", "backspace", "delete", "ctrl+j", "ctrl+u", "ctrl+w", "tab"})


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
    AUTO_FOCUS = "#prompt"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f3", "back", "Back"),
        Binding("f4", "restart", "Restart"),
        Binding("f5", "copy", "Copy"),
        Binding("f7", "script", "Script"),
        Binding("f8", "toggle", "Expand", show=False),
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
        """The knowledge base — None until the engine exists (the first moments after launch)."""
        engine = self.app.engine
        return engine.kb if engine is not None else None

    # -- layout ------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="statusbar"):
            yield Static("tpu-assist", id="app-name")
            yield Static("", id="status")
            yield Static("", id="lang-tag")
        with Vertical(id="context"):
            with Horizontal(id="context-head"):
                yield Static("", id="context-title")
                yield Static("", id="context-confidence")
            yield Static("", id="context-why")
        # Nothing but the message box takes the focus on this screen (see widgets/prompt.py).
        with VerticalScroll(id="conversation", can_focus=False), Vertical(id="welcome"):
            yield Static("", id="welcome-title")
            yield Static("", id="welcome-body")
            yield Static("", id="welcome-keys")
        yield PromptInput(id="prompt")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.apply_lang()
        self.set_focus(self.prompt, scroll_visible=False)  # at once: no key may find no focus
        self.query_one("#context").display = False
        self.watch(self.conversation, "scroll_y", self.update_context, init=False)
        # Start loading as soon as the first frame is up: the screen is drawn and answers keys
        # before the loading worker competes for the interpreter. (The query path imports no
        # torch; the ONNX model loads in a few tenths of a second, so a fixed delay here only
        # made the person wait.) An engine handed in already warm has nothing slow left to do.
        engine = self.app.engine
        if engine is not None and getattr(getattr(engine, "embedder", None), "loaded", False):
            self.load_engine()
        else:
            self.call_after_refresh(self.load_engine)

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
        if self.walk_kind == "fix":
            view = self.active(WalkView)
            lists = list(view.query(ChoiceList)) if view is not None else []
            purpose = lists[-1].purpose if lists else ""
            key = {"outcome": "prompt.outcome", "alternative": "prompt.alternative"}.get(
                purpose, key
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

    def session_queries(self) -> list[str]:
        """The questions of the session, oldest first (Up at an empty box recalls them)."""
        queries = [turn.query for turn in self.app.session.turns]
        if self.turn is not None and self.turn_index >= len(self.app.session.turns):
            queries.append(self.turn.query)  # asked, not answered (so not saved) yet
        return queries

    async def new_query(self, text: str) -> None:
        pending = self.active(AnswerView)
        if pending is not None and self.turn is not None and self.turn.answer is None:
            # superseded before its answer came: say so (it stays in the session, unanswered)
            await pending.update_view(superseded=True)
        for old in self.query(".turn"):
            for view in old.query("AnswerView, WalkView"):
                view.disabled = True
        self.query_one("#welcome").display = False
        self.turn = TurnState(query=text)
        self.seq += 1
        self.turn_index = len(self.app.session.turns)
        self.walk_kind = ""
        self.prompt.set_list("", 0)
        self.prompt.recall = self.session_queries()
        self.update_placeholder()
        self.update_context()
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
        self.save()  # what was asked is in the session at once, answered or not
        self.refresh_bindings()

    async def render_turn(self, focus: bool = True) -> None:
        """Show the active turn as its state says. `focus`: also scroll to what needs the person
        now (the open question, or the top of the fix)."""
        turn, walk, error = self.turn, None, ""
        try:
            walk = turn.current_walk(self.kb)
        except (WalkError, PlaceholderError) as exc:
            error = str(exc)
        answer_view, walk_view = self.active(AnswerView), self.active(WalkView)
        await answer_view.update_view(
            kb=self.kb, lang=self.lang, answer=turn.answer, entry_id=turn.entry_id, waiting=False
        )
        feedback = turn.fix_feedback(self.kb) if walk is not None and walk.kind == "fix" else ""
        alternatives = turn.alternatives(self.kb, self.lang) if feedback == NOT_SOLVED else []
        await walk_view.update_view(
            walk=walk,
            lang=self.lang,
            error=turn.error or error,
            selected=0,
            feedback=feedback,
            alternatives=alternatives,
        )
        for title in answer_view.query("CollapsibleTitle"):
            title.can_focus = False  # clicked, not focused: the box keeps the keyboard
        self.walk_kind = ""
        if walk is not None:
            self.walk_kind = (
                "fix"
                if walk.kind == "fix"
                else ("question-choice" if walk_view.query(ChoiceList) else "question-number")
            )
        self.sync_prompt()
        self.update_placeholder()
        self.update_context()
        self.refresh_bindings()
        # Once the new layout (and the scroll below) is on screen, whether the answer is in view.
        self.call_after_refresh(self.call_after_refresh, self.update_context)
        if not focus:
            return
        if self.walk_kind == "fix" and walk_view.query(".fix-title") and not feedback:
            title = walk_view.query_one(".fix-title")  # the fix starts at the top of the view
            self.call_after_refresh(
                self.conversation.scroll_to_widget, title, top=True, animate=False
            )
        else:
            self.call_after_refresh(self.conversation.scroll_end, animate=False)

    def sync_prompt(self) -> None:
        """Tell the message box what is shown above it (attributes down)."""
        walk_view = self.active(WalkView)
        lists = list(walk_view.query(ChoiceList)) if walk_view is not None else []
        options = len(lists[-1].values) if lists else 0
        if self.walk_kind == "fix":
            kind = "commands" if walk_view.query(CommandBlock) else ("choice" if options else "")
        else:
            kind = "choice" if options else ""
        self.prompt.set_list(kind, options)

    def update_context(self, *_args) -> None:
        """The sticky header: the active turn's match, confidence and first reason, shown while
        the answer itself is scrolled out of view."""
        box = self.query_one("#context")
        turn = self.turn
        lines = (
            context_lines(self.kb, self.lang, turn.answer, turn.entry_id)
            if turn is not None and turn.answer is not None
            else None
        )
        if lines is None or self._answer_in_view():
            self._show_context(box, False)
            return
        head, conf, conf_class, second = lines
        self.query_one("#context-title", Static).update(head)
        confidence = self.query_one("#context-confidence", Static)
        confidence.update(Text(conf))
        for cls in ("conf-high", "conf-mid", "conf-low"):
            confidence.set_class(cls == conf_class, cls)
        self.query_one("#context-why", Static).update(second)
        self._show_context(box, True)

    def _show_context(self, box, show: bool) -> None:
        """Show or hide the header; the conversation changes height, so one scrolled to its end
        (the open question) is kept at its end."""
        if bool(box.display) == show:
            return
        conversation = self.conversation
        at_end = conversation.scroll_y >= conversation.max_scroll_y - 1
        box.display = show
        if at_end:
            self.call_after_refresh(conversation.scroll_end, animate=False)

    def _answer_in_view(self) -> bool:
        """Whether the active answer's title and first reason are on screen."""
        view = self.active(AnswerView)
        if view is None:
            return False
        parts = view.query(".title, .why")
        if not parts:
            return False
        area = self.conversation.content_region
        for part in parts:
            region = part.region
            if not region or region.y < area.y or region.bottom > area.bottom:
                return False
        return True

    def save(self) -> None:
        if self.turn is None:
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

    # -- keys --------------------------------------------------------------------------------------

    def _screen_keys(self) -> dict[str, str]:
        return {b.key: b.action for b in Binding.make_bindings(self.BINDINGS)}

    async def on_key(self, event: events.Key) -> None:
        """Keys reach the screen when the message box does not use them (F-keys, Alt+N…), or —
        only in the first moments after launch — when nothing had the focus yet. The screen runs
        its own bindings here, in its own queue, so an action runs after every message the keys
        before it caused (a binding left to the app would run as soon as the app saw the key)."""
        if isinstance(self.focused, FindingList) and event.key in ("up", "down", "enter"):
            return  # a findings list (issue 14) moves and opens with its own keys
        if event.is_printable or event.key in TYPING_KEYS or event.key in ("up", "down"):
            event.stop()
            event.prevent_default()
            if self.focused is not self.prompt:
                self.set_focus(self.prompt, scroll_visible=False)
            self.prompt.post_message(events.Key(event.key, event.character))
            return
        action = self._screen_keys().get(event.key)
        if action is None:
            return
        name, _, args = action.partition("(")
        params = (int(args.rstrip(")")),) if args else ()
        if self.check_action(name, params) is False:
            return
        event.stop()
        event.prevent_default()
        await self.run_action(action)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # A click on something focusable that slipped through: the keyboard stays with the box.
        # The one exception is a findings list of a checked paste (issue 14), which is driven with
        # the arrows and Enter until a finding opens its walk.
        if (
            self.focused is not None
            and self.focused is not self.prompt
            and not isinstance(self.focused, FindingList)
        ):
            self.set_focus(self.prompt, scroll_visible=False)

    # -- messages from children --------------------------------------------------------------------

    async def on_prompt_input_submitted(self, message: PromptInput.Submitted) -> None:
        text = message.text
        if self.turn is not None and self.turn.answer is not None and not message.pasted:
            raw = self.turn.interpret(self.kb, text)
            if raw is not None:
                if raw.startswith("outcome:"):
                    await self.record_outcome(raw.partition(":")[2])
                elif raw.startswith("alt:"):
                    await self.try_alternative(int(raw.partition(":")[2]))
                else:
                    await self.apply_answer(raw)
                return
        # -- issue 14: Python code or `tpu-assist check` output opens a findings turn --------
        if await self.check_turn(text):
            return
        # -- end of issue 14 -------------------------------------------------------------------
        await self.new_query(text)

    async def on_prompt_input_pick(self, message: PromptInput.Pick) -> None:
        view = self.active(WalkView)
        lists = list(view.query(ChoiceList)) if view is not None else []
        value = lists[-1].choice(message.number) if lists else None
        if value is None:
            self.sync_prompt()
            return
        await self.picked(value, lists[-1].purpose)

    async def on_prompt_input_list_key(self, message: PromptInput.ListKey) -> None:
        view = self.active(WalkView)
        if view is None:
            return
        lists, blocks = view.query(ChoiceList), list(view.query(CommandBlock))
        if message.key in ("enter", "leave"):
            entering = message.key == "enter"
            targets = blocks if blocks and self.walk_kind == "fix" else list(lists)[-1:]
            for widget in (*lists, *blocks):
                widget.set_class(entering and widget in targets, "-in-list")
            choosing = entering and lists and targets == list(lists)[-1:]
            if choosing and lists.last().highlighted is None:
                lists.last().highlighted = 0
            return
        if blocks and self.walk_kind == "fix":
            if message.key in ("up", "down"):
                self.select_command(view, view.selected + (1 if message.key == "down" else -1))
            elif message.key in ("select", "copy"):
                self.app.copy_command(blocks[min(view.selected, len(blocks) - 1)].command)
            return
        if lists:
            if message.key in ("up", "down"):
                lists.last().move(1 if message.key == "down" else -1)
            elif message.key == "select":
                value = lists.last().highlighted_choice()
                if value is not None:
                    await self.picked(value, lists.last().purpose)

    def on_prompt_input_scroll(self, message: PromptInput.Scroll) -> None:
        conversation = self.conversation
        {
            "pageup": conversation.scroll_page_up,
            "pagedown": conversation.scroll_page_down,
            "ctrl+home": conversation.scroll_home,
            "ctrl+end": conversation.scroll_end,
        }[message.key](animate=False)

    def select_command(self, view: WalkView, index: int) -> None:
        blocks = list(view.query(CommandBlock))
        if not blocks:
            return
        view.selected = max(0, min(len(blocks) - 1, index))
        for i, block in enumerate(blocks):
            block.set_class(i == view.selected, "selected")
        blocks[view.selected].scroll_visible(animate=False)

    async def on_choice_list_answered(self, message: ChoiceList.Answered) -> None:
        await self.picked(message.value, message.purpose)  # a click

    async def picked(self, value: str, purpose: str) -> None:
        """An option of the active list was picked (digit, Enter in the list, or a click)."""
        if self.turn is None or self.turn.answer is None:
            return
        if purpose == "outcome":
            await self.record_outcome(value)
        elif purpose == "alternative":
            await self.try_alternative(int(value) + 1)
        else:
            await self.apply_answer(value)

    async def on_candidate_link_chosen(self, message: CandidateLink.Chosen) -> None:
        if self.turn is not None and self.turn.answer is not None:
            await self.choose(message.entry_id)

    def on_command_block_selected(self, message: CommandBlock.Selected) -> None:
        view = self.active(WalkView)
        if view is not None and message.block in view.query(CommandBlock):
            self.select_command(view, list(view.query(CommandBlock)).index(message.block))

    def on_command_block_copy(self, message: CommandBlock.Copy) -> None:
        self.app.copy_command(message.command)

    def on_paste(self, event) -> None:
        # A paste that found no focus (the first moments after launch) still becomes a message.
        if not self.prompt.take_paste(event.text):
            self.set_focus(self.prompt, scroll_visible=False)
            self.prompt.insert(event.text)

    async def apply_answer(self, raw: str) -> None:
        try:
            self.turn.answer_question(self.kb, raw)
        except WalkError as exc:
            self.turn.error = str(exc)
        await self.render_turn()
        self.save()

    async def record_outcome(self, value: str) -> None:
        if self.turn is None or not self.turn.set_outcome(self.kb, value):
            return
        await self.render_turn(focus=False)
        self.call_after_refresh(self.conversation.scroll_end, animate=False)
        self.save()
        self.notify(t(self.lang, f"loop.saved.{value}"), timeout=3)

    async def try_alternative(self, number: int) -> None:
        if self.turn is None:
            return
        alternatives = self.turn.alternatives(self.kb, self.lang)
        if not 1 <= number <= len(alternatives):
            self.turn.error = t(self.lang, "loop.no_such", n=len(alternatives))
            await self.render_turn(focus=False)
            return
        self.turn.try_alternative(alternatives[number - 1])
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
        if action in ("copy", "script"):
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
        view = self.active(WalkView)
        blocks = list(view.query(CommandBlock)) if view is not None else []
        if not blocks:
            self.notify(t(self.lang, "copy.none"), severity="warning")
            return
        self.app.copy_command(blocks[min(view.selected, len(blocks) - 1)].command)

    def action_script(self) -> None:
        """Copy the whole fix as one commented shell script (assistant.render.fix_script)."""
        script = self.fix_script()
        if script is None:
            self.notify(t(self.lang, "copy.none"), severity="warning")
            return
        self.app.copy_command(script, what="script")

    def fix_script(self) -> str | None:
        from ...render import fix_script

        if self.turn is None:
            return None
        try:
            walk = self.turn.current_walk(self.kb)
            if walk is None or walk.kind != "fix":
                return None
            steps = walk.steps(self.lang)
            data = walk.to_dict(self.lang)
        except (WalkError, PlaceholderError):
            return None
        answers = ", ".join(f"{node}={value}" for node, value in walk.path)
        context = [f"{walk.entry.title.get(self.lang)} [{walk.entry.id}]"]
        if answers:
            context.append(t(self.lang, "walk.path") + ": " + answers)
        return fix_script(steps, data["title"], self.lang, check=data["check"], context=context)

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
            await self.render_turn(focus=False)
            self.start_search(keep=True)  # the reasons ("why") in the new language
        self.notify(t(self.lang, "lang.switched"), timeout=2)

    def action_toggle(self) -> None:
        msgs = self.query(UserMessage)
        if msgs:
            msgs.last().action_toggle()

    def action_prompt(self) -> None:
        self.set_focus(self.prompt, scroll_visible=False)
