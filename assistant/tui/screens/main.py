"""The conversation screen. It owns the state — the active turn and the screen's reactives — runs
the slow work in thread workers, and routes every message its children post (`@on(messages.X)`):
the children never reach sideways or into the screen ("attributes down, messages up").

Who draws what: `StatusBar` (status and language), `ContextHeader` (the sticky match line),
`Conversation` (the welcome and the turns; a turn is added by `Conversation.add_turn` only, and
`TurnBox.show` draws a turn from its state), `PromptInput` (the keyboard). The screen's reactives
flow into them: `lang`, `status_key` and `failed` are bound to the status bar, `lang` and
`prompt_mode` to the message box, `context` shows or hides the header; `ready`, `walk_kind`,
`walk_steps` and `turn` refresh the key bindings (footer, palette) when they change.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar, cast

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.reactive import var
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.worker import get_current_worker

from ... import history
from ...errors import WalkError
from ...named_file import named_file
from ...placeholders import PlaceholderError
from ...render import fix_script
from ...strings import LANGS, pairs, t
from ...text.parse import clearly_portuguese
from .. import messages
from ..bindings import described, hidden_by_language, without_language
from ..files import file_text
from ..state import TurnState
from ..widgets.answer import AnswerView, context_lines
from ..widgets.conversation import Conversation
from ..widgets.findings import (
    CheckAnswerView,
    FindingList,
    FindingsView,
    finding_turn,
    run_check,
)
from ..widgets.message import UserMessage
from ..widgets.prompt import PromptInput
from ..widgets.statusbar import ContextHeader, ContextLines, StatusBar
from ..widgets.walkview import ChoiceList, CommandBlock, WalkView
from .modals import (
    ExportScreen,
    HelpScreen,
    HistoryScreen,
    ValuesScreen,
    default_export_path,
    value_names,
)

if TYPE_CHECKING:
    # Not imported at start-up: the knowledge and walk modules (pydantic, YAML) load with the
    # engine in its worker, and the methods that need them run once there is an answer; the check
    # package and the export load at the first message and the first export (see `load_engine`).
    from ...answer import Answer
    from ...kb import KnowledgeBase

W = TypeVar("W", bound=Widget)


class EngineLike(Protocol):
    """What the screen uses of assistant.engine.Engine (the tests hand in stand-ins)."""

    @property
    def kb(self) -> KnowledgeBase: ...

    def warm_up(self) -> None: ...

    def ask(self, text: str, lang: str | None = None) -> Answer: ...


class AssistantApp(Protocol):
    """What the screen uses of its app (assistant.tui.app.TpuAssistApp, which imports this
    module, so the contract is spelled out here and checked there)."""

    lang: str
    lang_chosen: bool
    engine: EngineLike | None
    session: history.Session
    history_dir: Path | None
    typed_ahead: str

    def get_engine(self) -> EngineLike: ...

    def copy_command(self, command: str, what: str = "command") -> None: ...


# Keys that type into the message box: if one reaches the screen itself, nothing had the focus
# yet (the very first moments after launch) and the screen hands it to the box.
TYPING_KEYS = frozenset({"enter", "backspace", "delete", "ctrl+j", "ctrl+u", "ctrl+w", "tab"})

# How much of a question is read for its language (`follow_language`): the words of a question
# are at its start, and a pasted 10 MB log must not hold up the UI thread.
LANGUAGE_SAMPLE = 20_000

# What the message box waits for, by the step shown: its placeholder (PromptInput.mode).
PROMPT_MODES = {"question-choice": "choice", "question-number": "number"}


class MainScreen(Screen[None]):
    AUTO_FOCUS = "#prompt"
    BINDINGS: ClassVar[list[BindingType]] = [
        *described("f3", "back"),
        *described("f4", "restart"),
        *described("f5", "copy"),
        *described("f7", "script"),
        *described("f8", "toggle", show=False),
        *described("f6", "values"),
        *described("f1", "help"),
        *described("f2", "language"),
        *described("ctrl+o", "history"),
        *described("ctrl+s", "export"),
        Binding("alt+1", "candidate(1)", show=False),
        Binding("alt+2", "candidate(2)", show=False),
        Binding("alt+3", "candidate(3)", show=False),
    ]

    # -- state -------------------------------------------------------------------------------------
    lang = var("en", bindings=True)
    ready = var(False, bindings=True)  # the engine is loaded
    failed = var("")  # why the engine could not load
    status_key = var("status.loading")
    walk_kind = var("", bindings=True)  # "question-choice" | "question-number" | "fix" | ""
    walk_steps = var(0, bindings=True)  # questions answered so far, by the person or the text
    prompt_mode = var("")  # what the message box waits for (its placeholder)
    context: var[ContextLines | None] = var(None, init=False)  # the sticky header; None: hidden
    # The active turn. Mutated in place by the actions, then `mutate_reactive` (in `show_turn`);
    # always_update: a new turn equal to the old one (the same question again) still replaces it.
    turn: var[TurnState | None] = var(None, bindings=True, always_update=True)

    def __init__(self, lang: str = "en") -> None:
        super().__init__()
        self.set_reactive(MainScreen.lang, lang)
        self.turn_index = -1  # index of the active turn in the session
        self.seq = 0  # the number of the latest turn: a worker's late reply for another is dropped
        self.machine: dict[str, str] = {}  # what the TPU VM it runs on says of itself

    @property
    def kb(self) -> KnowledgeBase | None:
        """The knowledge base — None until the engine exists (the first moments after launch)."""
        engine = self.tpu_app.engine
        return engine.kb if engine is not None else None

    @property
    def tpu_app(self) -> AssistantApp:
        return cast(AssistantApp, self.app)

    def knowledge(self) -> KnowledgeBase:
        """The knowledge base, where a turn has an answer (so the engine exists)."""
        kb = self.kb
        assert kb is not None, "an answered turn implies a loaded engine"
        return kb

    # -- layout ------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield StatusBar(id="statusbar").data_bind(
            MainScreen.lang, MainScreen.status_key, MainScreen.failed
        )
        yield ContextHeader(id="context")
        # Nothing but the message box takes the focus on this screen (see widgets/prompt.py).
        yield Conversation(id="conversation").data_bind(MainScreen.lang)
        yield PromptInput(id="prompt").data_bind(MainScreen.lang, mode=MainScreen.prompt_mode)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.set_focus(self.prompt, scroll_visible=False)  # at once: no key may find no focus
        # Lines typed before the program took the terminal end with their Enter: send them first,
        # ahead of any key Textual reads (a paste's inner line breaks stay in the question).
        ahead = self.tpu_app.typed_ahead.rstrip("\r\n")
        if ahead.strip():
            self.post_message(messages.Submitted(ahead))
        # Whether the answer is in view is read from the widgets' regions, which follow a scroll
        # or a change of content only at the next refresh: look then, not at once.
        for attribute in ("scroll_y", "virtual_size"):
            self.watch(self.conversation, attribute, self._update_context_soon, init=False)
        # Start loading as soon as the first frame is up: the screen is drawn and answers keys
        # before the loading worker competes for the interpreter. (The query path imports no
        # torch; the ONNX model loads in a few tenths of a second, so a fixed delay here only
        # made the person wait.) An engine handed in already warm has nothing slow left to do.
        engine = self.tpu_app.engine
        if engine is not None and getattr(getattr(engine, "embedder", None), "loaded", False):
            self.load_engine()
        else:
            self.call_after_refresh(self.load_engine)
        self.call_after_refresh(self.read_machine)

    @property
    def conversation(self) -> Conversation:
        return self.query_one(Conversation)

    @property
    def prompt(self) -> PromptInput:
        return self.query_one(PromptInput)

    def focus_box(self) -> None:
        """Give the message box the focus at once, if it is composed (TpuAssistApp.on_event)."""
        boxes = self.query(PromptInput)
        if boxes:
            self.set_focus(boxes.first(), scroll_visible=False)

    def active(self, cls: type[W]) -> W | None:
        """The widget of type `cls` in the active turn, or None."""
        return self.conversation.active(cls)

    # -- reactives ---------------------------------------------------------------------------------

    def watch_lang(self, lang: str) -> None:
        self.tpu_app.lang = lang  # the app's setting follows the screen

    def watch_context(self, lines: ContextLines | None) -> None:
        """Show or hide the header; the conversation changes height, so one scrolled to its end
        (the open question) is kept at its end."""
        conversation = self.conversation
        at_end = conversation.at_end
        if self.query_one(ContextHeader).show(lines) and at_end:
            self.call_after_refresh(conversation.scroll_end, animate=False)

    def _update_context_soon(self, *_args: object) -> None:
        self.call_after_refresh(self.update_context)

    def update_context(self, *_args: object) -> None:
        """The sticky header: the active turn's match, confidence and first reason, shown while
        the answer itself is scrolled out of view."""
        turn = self.turn
        lines = (
            context_lines(self.kb, self.lang, turn.answer, turn.entry_id)
            if turn is not None and turn.answer is not None
            else None
        )
        if lines is not None and self._answer_in_view(".title, .why"):
            lines = None
        if lines is not None and self._answer_in_view(".values"):
            lines = replace(lines, values=None)  # on screen already: no second copy
        self.context = lines

    def _answer_in_view(self, selector: str) -> bool:
        """Whether the active answer's parts matching `selector` are all wholly on screen."""
        view = self.active(AnswerView)
        return view is not None and self.conversation.in_view(list(view.query(selector)))

    def update_prompt_mode(self) -> None:
        mode = PROMPT_MODES.get(self.walk_kind, "")
        if self.walk_kind == "fix":
            lists = self._lists()
            mode = {"outcome": "outcome", "alternative": "alternative"}.get(
                lists[-1].purpose if lists else "", mode
            )
        self.prompt_mode = mode

    def _lists(self) -> list[ChoiceList]:
        view = self.active(WalkView)
        return list(view.query(ChoiceList)) if view is not None else []

    # -- workers -----------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load")
    def load_engine(self) -> None:
        try:
            engine = self.tpu_app.get_engine()
            engine.warm_up()
            warnings = list(engine.kb.warnings)
        except Exception as exc:  # shown in the status bar, never a crash
            self.post_message(messages.EngineFailed(f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(messages.EngineReady(warnings))

    @work(thread=True, exclusive=True, group="machine")
    def read_machine(self) -> None:
        """The TPU VM's own values (a metadata request with a half-second timeout, on a Compute
        Engine VM only), off the UI thread. Whatever goes wrong leaves them out, never the app."""
        from ...machine import cached_values_here

        try:
            values = cached_values_here()
        except Exception:  # the values are a convenience: none is the safe answer
            values = {}
        self.post_message(messages.MachineValues(values))

    @on(messages.MachineValues)
    async def machine_values(self, message: messages.MachineValues) -> None:
        if not message.values:
            return
        self.machine = dict(message.values)
        said = pairs(self.machine)
        self.notify(t(self.lang, "machine.values", values=said), markup=False, timeout=8)
        if self.turn is not None:
            self.turn.machine = dict(self.machine)
            if self.turn.answer is not None:
                await self.show_turn(focus=False)

    @work(thread=True, exclusive=True, group="preload")
    def preload(self) -> None:
        """What the first message and its answer need and start-up left out, imported while the
        person is still typing rather than on the UI thread at their first Enter and first answer
        (~0.07 s): the check package (is the message code?) and Textual's Markdown widget
        (markdown-it). Started once "ready" is drawn, so it does not hold that back."""
        from textual.widgets import Markdown  # noqa: F401

        from ...check import detect  # noqa: F401

    @work(thread=True, exclusive=True, group="search")
    def search(self, seq: int, text: str, lang: str, keep: bool) -> None:
        worker = get_current_worker()
        try:
            engine = self.tpu_app.engine
            assert engine is not None, "searches start once the engine is ready"
            answer = engine.ask(text, lang=lang)
        except Exception as exc:
            if not worker.is_cancelled:
                self.post_message(messages.SearchDone(seq, error=f"{type(exc).__name__}: {exc}"))
            return
        if not worker.is_cancelled:
            self.post_message(messages.SearchDone(seq, answer, keep=keep))

    @work(thread=True, exclusive=True, group="check")
    def check(self, seq: int, text: str, kind: str) -> None:
        self.post_message(messages.CheckDone(seq, run_check(text, kind)))

    @on(messages.EngineReady)
    def engine_ready(self, message: messages.EngineReady) -> None:
        self.ready = True
        self.status_key = "status.ready"
        self.call_after_refresh(self.preload)
        for w in message.warnings:
            self.notify(t(self.lang, "kb.warning", warning=w), severity="warning", markup=False)
        if self.turn is not None and self.turn.answer is None:
            self.start_search()

    @on(messages.EngineFailed)
    def engine_failed(self, message: messages.EngineFailed) -> None:
        self.failed = message.error

    def start_search(self, keep: bool = False) -> None:
        assert self.turn is not None
        if not keep:
            self.status_key = "status.searching"
        self.search(self.seq, self.turn.query, self.lang, keep)

    @on(messages.SearchDone)
    async def search_done(self, message: messages.SearchDone) -> None:
        if message.seq != self.seq or self.turn is None:
            return  # a newer question superseded this one
        self.status_key = "status.ready"
        if message.error or message.answer is None:
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
        await self.show_turn(focus=not message.keep)
        self.save()

    @on(messages.CheckDone)
    async def check_done(self, message: messages.CheckDone) -> None:
        if message.seq != self.seq:
            return  # a newer message superseded this one
        view = self.active(FindingsView)
        if view is None:
            return
        await view.update_view(findings=message.findings)
        msg = self.active(UserMessage)
        if msg is not None and view.source == "code":
            lines = msg.text.splitlines()
            key = sorted({f.line for f in message.findings if 0 < f.line <= len(lines)})
            msg.set_key_lines([{"line": n, "text": lines[n - 1]} for n in key[:12]])
        if view.query(FindingList):
            view.query_one(FindingList).focus()
        self.call_after_refresh(self.conversation.scroll_end, animate=False)

    # -- turns -------------------------------------------------------------------------------------

    def session_queries(self) -> list[str]:
        """The questions of the session, oldest first (Up at an empty box recalls them)."""
        session = self.tpu_app.session
        queries = [turn.query for turn in session.turns]
        if self.turn is not None and self.turn_index >= len(session.turns):
            queries.append(self.turn.query)  # asked, not answered (so not saved) yet
        return queries

    def _next_turn(self, turn: TurnState | None) -> None:
        """A new turn becomes the active one (not shown yet): its state, number and place."""
        self.turn = turn
        self.seq += 1
        self.turn_index = len(self.tpu_app.session.turns)
        self.walk_kind = ""
        self.walk_steps = 0

    async def new_query(self, text: str) -> None:
        pending = self.active(AnswerView)
        if pending is not None and self.turn is not None and self.turn.answer is None:
            # superseded before its answer came: say so (it stays in the session, unanswered)
            await pending.update_view(superseded=True)
        self._next_turn(TurnState(query=text, machine=dict(self.machine)))
        await self.follow_language(text)
        self.prompt.set_list("", 0)
        self.prompt.recall = self.session_queries()
        self.update_prompt_mode()
        self.update_context()
        await self.conversation.add_turn(
            UserMessage(text, self.lang),
            AnswerView(None, self.lang, waiting=not self.ready),
            WalkView(None, self.lang),
        )
        self.conversation.scroll_end(animate=False)
        if self.ready:
            self.start_search()
        elif not self.failed:
            self.status_key = "status.waiting"
        self.save()  # what was asked is in the session at once, answered or not

    async def check_turn(self, text: str) -> bool:
        """Start a findings turn (issue 14) if `text` is Python code or `tpu-assist check`
        output; False when it is a question for the search."""
        from ...check import detect as check_detect

        kind = check_detect.kind(text)
        if kind == "query":
            return False
        self._next_turn(None)
        self.update_prompt_mode()
        await self.conversation.add_turn(
            UserMessage(text, self.lang),
            FindingsView(self.lang, source=kind),
            CheckAnswerView(None, self.lang),
            WalkView(None, self.lang),
            classes="check-turn",
        )
        self.conversation.scroll_end(animate=False)
        self.check(self.seq, text, kind)
        return True

    async def show_turn(self, focus: bool = True) -> None:
        """Show the active turn as its state says. `focus`: also scroll to what needs the person
        now (the open question, or the top of the fix)."""
        box = self.conversation.active_turn
        if self.turn is None or box is None:
            return
        shown = await box.show(self.turn, self.knowledge(), self.lang)
        self.walk_kind = shown.walk_kind
        self.walk_steps = shown.steps
        self.mutate_reactive(MainScreen.turn)  # changed in place: the bindings follow
        self.sync_prompt()
        self.update_prompt_mode()
        self.update_context()
        # Once the new layout (and the scroll below) is on screen, whether the answer is in view.
        self.call_after_refresh(self.call_after_refresh, self.update_context)
        if not focus:
            return
        walk_view = box.view(WalkView)
        titles = walk_view.query(".fix-title") if walk_view is not None else None
        if self.walk_kind == "fix" and titles and not shown.feedback:
            # the fix starts at the top of the view
            self.conversation.anchor(False)
            self.call_after_refresh(
                self.conversation.scroll_to_widget, titles.first(), top=True, animate=False
            )
        else:
            self.call_after_refresh(self.conversation.follow_end)

    def sync_prompt(self) -> None:
        """Tell the message box what is shown above it (attributes down)."""
        walk_view = self.active(WalkView)
        lists = self._lists()
        options = len(lists[-1].values) if lists else 0
        if self.walk_kind == "fix" and walk_view is not None and walk_view.query(CommandBlock):
            kind = "commands"
        else:
            kind = "choice" if options else ""
        answer = self.turn.answer if self.turn is not None else None
        self.prompt.set_list(kind, options, len(answer.results) if answer is not None else 0)

    def save(self) -> None:
        if self.turn is None:
            return
        session = self.tpu_app.session
        turn = self.turn.to_turn(self.kb)
        if self.turn_index < len(session.turns):
            session.turns[self.turn_index] = turn
        else:
            session.turns.append(turn)
            self.turn_index = len(session.turns) - 1
        session.lang = self.lang
        try:
            history.save_session(session, self.tpu_app.history_dir)
        except OSError as exc:
            self.notify(
                t(self.lang, "history.saved_failed", error=str(exc)), severity="error", markup=False
            )
        self.refresh_bindings()  # export is possible once a turn is saved

    # -- keys --------------------------------------------------------------------------------------

    def _screen_keys(self) -> dict[str, list[str]]:
        keys: dict[str, list[str]] = {}
        for binding in Binding.make_bindings(self.BINDINGS):
            keys.setdefault(binding.key, []).append(binding.action)
        return keys

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
        for action in self._screen_keys().get(event.key, []):
            name, _, args = action.partition("(")
            params = _parameters(args.rstrip(")"))
            if self.check_action(name, params) is False:
                continue
            event.stop()
            event.prevent_default()
            await self.run_action(action)
            return

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

    def on_paste(self, event: events.Paste) -> None:
        # A paste that found no focus (the first moments after launch) still becomes a message.
        if not self.prompt.take_paste(event.text):
            self.set_focus(self.prompt, scroll_visible=False)
            self.prompt.insert(event.text)

    # -- messages from children --------------------------------------------------------------------

    @on(messages.Submitted)
    async def submitted(self, message: messages.Submitted) -> None:
        text = message.text
        if self.turn is not None and self.turn.answer is not None and not message.pasted:
            raw = self.turn.interpret(self.knowledge(), text)
            if raw is not None:
                if raw.startswith("outcome:"):
                    await self.record_outcome(raw.partition(":")[2])
                elif raw.startswith("alt:"):
                    await self.try_alternative(int(raw.partition(":")[2]))
                else:
                    await self.apply_answer(raw)
                return
        if (path := named_file(text)) is not None:
            self.read_file(path)  # a log or a script dragged onto the terminal, or its path typed
            return
        await self.route(text)

    async def route(self, text: str) -> None:
        """A new message: findings for code or `tpu-assist check` output, else a search."""
        if await self.check_turn(text):  # Python code or `tpu-assist check` output (issue 14)
            return
        await self.new_query(text)

    @work(thread=True, exclusive=True, group="read")
    def read_file(self, path: Path) -> None:
        """The named file's text, off the UI thread (`tui/files.py`: a notebook's saved errors
        or else its code cells, any other file as text, up to FILE_LIMIT_MB)."""
        text, error = file_text(path, self.lang)
        if not get_current_worker().is_cancelled:  # a newer path superseded it
            self.post_message(messages.FileRead(str(path), text, error))

    @on(messages.FileRead)
    async def file_read(self, message: messages.FileRead) -> None:
        if message.text is None:
            self.notify(message.error, severity="error", markup=False)
            return
        lines = len(message.text.splitlines())
        self.notify(t(self.lang, "file.read", path=message.path, lines=lines), timeout=3)
        await self.route(message.text)

    @on(messages.Pick)
    async def pick(self, message: messages.Pick) -> None:
        lists = self._lists()
        value = lists[-1].choice(message.number) if lists else None
        if value is None:
            self.sync_prompt()
            return
        await self.picked(value, lists[-1].purpose)

    @on(messages.Candidate)
    async def candidate(self, message: messages.Candidate) -> None:
        await self.action_candidate(message.number)

    @on(messages.ListKey)
    async def list_key(self, message: messages.ListKey) -> None:
        view = self.active(WalkView)
        if view is None:
            return
        lists, blocks = list(view.query(ChoiceList)), list(view.query(CommandBlock))
        if message.key in ("enter", "leave"):
            entering = message.key == "enter"
            targets: list[Widget] = (
                list(blocks) if blocks and self.walk_kind == "fix" else list(lists[-1:])
            )
            for widget in (*lists, *blocks):
                widget.set_class(entering and widget in targets, "-in-list")
            choosing = entering and lists and targets == lists[-1:]
            if choosing and lists[-1].highlighted is None:
                lists[-1].highlighted = 0
            return
        if blocks and self.walk_kind == "fix":
            if message.key in ("up", "down"):
                self.select_command(view, view.selected + (1 if message.key == "down" else -1))
            elif message.key in ("select", "copy"):
                self.tpu_app.copy_command(blocks[min(view.selected, len(blocks) - 1)].command)
            return
        if lists:
            if message.key in ("up", "down"):
                lists[-1].move(1 if message.key == "down" else -1)
            elif message.key == "select":
                value = lists[-1].highlighted_choice()
                if value is not None:
                    await self.picked(value, lists[-1].purpose)

    @on(messages.Scroll)
    def scroll(self, message: messages.Scroll) -> None:
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

    @on(messages.OptionClicked)
    async def option_clicked(self, message: messages.OptionClicked) -> None:
        await self.picked(message.value, message.purpose)

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

    @on(messages.CandidateChosen)
    async def candidate_chosen(self, message: messages.CandidateChosen) -> None:
        if self.turn is not None and self.turn.answer is not None:
            await self.choose(message.entry_id)

    @on(messages.CommandClicked)
    def command_clicked(self, message: messages.CommandClicked) -> None:
        view = self.active(WalkView)
        blocks = list(view.query(CommandBlock)) if view is not None else []
        if view is not None and message.block in blocks:
            self.select_command(view, blocks.index(message.block))

    @on(messages.FindingChosen)
    async def finding_chosen(self, message: messages.FindingChosen) -> None:
        if message.view is not self.active(FindingsView) or message.view.disabled:
            return
        if self.kb is None:  # the first moments after launch: the knowledge is on its way
            self.notify(t(self.lang, "status.loading"), severity="warning")
            return
        msg = self.active(UserMessage)
        turn = finding_turn(message.finding, self.kb, self.lang, msg.text if msg else "")
        if turn is None:
            self.notify(t(self.lang, "check.turn.no_entry"), severity="warning")
            return
        self.turn = turn
        view = self.active(CheckAnswerView)
        if view is not None:
            view.finding, view.kb, view.display = message.finding, self.kb, True
        await message.view.update_view()  # the chosen finding marked
        await self.show_turn()
        self.save()

    # -- changes to the active turn ----------------------------------------------------------------

    async def apply_answer(self, raw: str) -> None:
        assert self.turn is not None
        try:
            self.turn.answer_question(self.knowledge(), raw)
        except WalkError as exc:
            self.turn.error = exc.message(self.lang)
        await self.show_turn()
        self.save()

    async def record_outcome(self, value: str) -> None:
        if self.turn is None or not self.turn.set_outcome(self.knowledge(), value):
            return
        await self.show_turn(focus=False)
        self.call_after_refresh(self.conversation.scroll_end, animate=False)
        self.save()
        self.notify(t(self.lang, f"loop.saved.{value}"), timeout=3)

    async def try_alternative(self, number: int) -> None:
        if self.turn is None:
            return
        alternatives = self.turn.alternatives(self.knowledge(), self.lang)
        if not 1 <= number <= len(alternatives):
            self.turn.error = t(self.lang, "loop.no_such", n=len(alternatives))
            await self.show_turn(focus=False)
            return
        self.turn.try_alternative(alternatives[number - 1])
        await self.show_turn()
        self.save()

    async def choose(self, entry_id: str) -> None:
        assert self.turn is not None
        self.turn.choose(entry_id)
        await self.show_turn()
        self.save()

    # -- actions -----------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if hidden_by_language(parameters, self.lang):
            return False  # the other language's description of the same key
        parameters = without_language(parameters)
        turn = self.turn
        answer = turn.answer if turn is not None else None
        if action == "back":  # an answer to take back, the person's or one the text gave
            return answer is not None and turn is not None and self.walk_steps > 0
        if action == "restart":
            return answer is not None and turn is not None and bool(turn.path or turn.asked)
        if action in ("copy", "script"):
            return self.walk_kind == "fix"
        if action == "values":
            return answer is not None
        if action == "candidate":
            n = parameters[0] if parameters and isinstance(parameters[0], int) else 0
            return answer is not None and len(answer.results) >= n
        if action == "export":
            return bool(self.tpu_app.session.turns)
        if action == "history":
            return self.ready
        return True

    async def action_back(self, lang: str = "") -> None:
        if self.turn is not None and self.turn.back(self.knowledge()):
            await self.show_turn()
            self.save()

    async def action_restart(self, lang: str = "") -> None:
        if self.turn is not None and self.turn.restart():
            await self.show_turn()
            self.save()

    async def action_candidate(self, n: int) -> None:
        if (
            self.turn is not None
            and self.turn.answer is not None
            and len(self.turn.answer.results) >= n
        ):
            await self.choose(self.turn.answer.results[n - 1].id)

    def action_copy(self, lang: str = "") -> None:
        view = self.active(WalkView)
        blocks = list(view.query(CommandBlock)) if view is not None else []
        if view is None or not blocks:
            self.notify(t(self.lang, "copy.none"), severity="warning")
            return
        self.tpu_app.copy_command(blocks[min(view.selected, len(blocks) - 1)].command)

    def action_script(self, lang: str = "") -> None:
        """Copy the whole fix as one commented shell script (assistant.render.fix_script)."""
        script = self.fix_script()
        if script is None:
            self.notify(t(self.lang, "copy.none"), severity="warning")
            return
        self.tpu_app.copy_command(script, what="script")

    def fix_script(self) -> str | None:
        if self.turn is None or self.kb is None:
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

    def action_help(self, lang: str = "") -> None:
        self.app.push_screen(HelpScreen(self.lang))

    async def action_language(self, lang: str = "") -> None:
        self.tpu_app.lang_chosen = True
        await self.switch_language("en" if self.lang == "pt" else "pt")
        self.notify(t(self.lang, "lang.switched"), timeout=2)

    async def follow_language(self, text: str) -> None:
        """A question written in Portuguese switches the answers to Portuguese, unless the
        person chose a language (--lang, F2). Only that way: people who write in Portuguese
        paste English errors and logs, so English text says nothing of who reads the answer."""
        if self.tpu_app.lang_chosen or self.lang == "pt":
            return
        sample = text if len(text) <= LANGUAGE_SAMPLE else text[:LANGUAGE_SAMPLE].rsplit(None, 1)[0]
        if not clearly_portuguese(sample):  # a bounded read (the UI thread), cut between words
            return
        await self.switch_language("pt")
        self.notify(t(self.lang, "lang.followed"), timeout=4)

    async def switch_language(self, lang: str) -> None:
        """Show the conversation in `lang`: every message and view, the open answer's reasons
        searched again in it."""
        self.lang = lang
        for msg in self.query(UserMessage):
            msg.set_lang(self.lang)
        for view in self.query(".turn AnswerView, .turn WalkView"):
            if isinstance(view, (AnswerView, WalkView)):
                await view.update_view(lang=self.lang)
        if self.turn is not None and self.turn.answer is not None:
            await self.show_turn(focus=False)
            self.start_search(keep=True)  # the reasons ("why") in the new language

    def action_toggle(self, lang: str = "") -> None:  # type: ignore[override]
        """F8: fold or unfold the last message (not DOMNode's `toggle(attribute)`)."""
        msgs = self.query(UserMessage)
        if msgs:
            msgs.last().action_toggle()

    # -- actions around the session ----------------------------------------------------------------

    def action_values(self, lang: str = "") -> None:
        turn = self.turn
        if turn is None or turn.answer is None:
            return
        kb = self.knowledge()
        walk_data = None
        try:
            w = turn.current_walk(kb)
            walk_data = w.to_dict(self.lang) if w is not None else None
        except (WalkError, PlaceholderError):
            pass
        found = turn.facts_values()
        names = value_names(walk_data, found, turn.overrides)
        current = {**found, **turn.overrides}

        async def done(result: dict[str, str] | None) -> None:
            if result is None:
                return
            turn.set_values(
                {k: v for k, v in result.items() if v != found.get(k, "") or k in turn.overrides}
            )
            await self.show_turn()
            self.save()
            self.notify(t(self.lang, "values.updated"))

        self.app.push_screen(ValuesScreen(self.lang, names, current, found), done)

    def action_history(self, lang: str = "") -> None:
        async def done(session_id: str | None) -> None:
            if session_id:
                await self.reopen(session_id)

        self.app.push_screen(HistoryScreen(self.lang, self.tpu_app.history_dir), done)

    async def reopen(self, session_id: str) -> None:
        try:
            path = history.session_path(session_id, self.tpu_app.history_dir)
            session = history.load_session(path)
            turns = [TurnState.from_turn(turn) for turn in session.turns]
            for state in turns:
                state.machine = dict(self.machine)
        except (OSError, history.SessionError, ValueError, TypeError) as exc:
            self.notify(
                t(self.lang, "history.open_failed", error=str(exc)), severity="error", markup=False
            )
            return
        await self.conversation.clear(welcome=not session.turns)
        self.tpu_app.session = session
        self.seq += 1
        for i, state in enumerate(turns):
            self.turn, self.turn_index = state, i
            msg = UserMessage(state.query, self.lang)
            if state.answer is not None:
                msg.key_lines = state.answer.facts.key_lines
            await self.conversation.add_turn(
                msg,
                AnswerView(self.kb, self.lang, superseded=state.answer is None),
                WalkView(None, self.lang),
            )
            if state.answer is not None:
                await self.show_turn(focus=i == len(turns) - 1)
        self.prompt.recall = self.session_queries()
        self.notify(t(self.lang, "history.reopened"), timeout=3)

    def action_export(self, lang: str = "") -> None:
        session = self.tpu_app.session
        if not session.turns:
            self.notify(t(self.lang, "export.nothing"), severity="warning")
            return

        def done(result: tuple[Any, bool] | None) -> None:
            if result is None:
                return
            path, redact = result
            from ...export import export_session

            try:
                written = export_session(session, path, self.lang, redact)
            except OSError as exc:
                self.notify(
                    t(self.lang, "export.failed", error=str(exc)), severity="error", markup=False
                )
                return
            self.notify(t(self.lang, "exported", path=str(written)), markup=False)

        self.app.push_screen(ExportScreen(self.lang, default_export_path(session.id)), done)

    async def action_new(self, lang: str = "") -> None:
        await self.conversation.clear()
        self.tpu_app.session = history.new_session(self.lang)
        self.turn, self.turn_index, self.walk_kind = None, -1, ""
        self.seq += 1
        self.prompt.set_list("", 0)
        self.prompt.recall = []
        self.update_prompt_mode()
        self.update_context()
        self.set_focus(self.prompt, scroll_visible=False)


def _parameters(args: str) -> tuple[object, ...]:
    """The parameters of a binding's action: `1` -> (1,), `'pt'` -> ("pt",), `` -> ()."""
    args = args.strip()
    if not args:
        return ()
    if args.isdigit():
        return (int(args),)
    value = args.strip("'\"")
    return (value,) if value in LANGS else (args,)
