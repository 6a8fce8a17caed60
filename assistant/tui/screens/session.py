"""The main screen's actions around a session: edit values, reopen from history, export, new.

A mixin of MainScreen (it uses the screen's turn state, `render_turn`, `save` and widgets)."""

from __future__ import annotations

from textual.containers import Vertical

from ... import history
from ...export import export_session
from ...placeholders import PlaceholderError
from ...walk import WalkError
from ..i18n import t
from ..state import TurnState
from ..widgets.answer import AnswerView
from ..widgets.message import UserMessage
from ..widgets.walkview import WalkView
from .modals import ExportScreen, HistoryScreen, ValuesScreen, default_export_path, value_names


class SessionActions:
    def action_values(self) -> None:
        if self.turn is None or self.turn.answer is None:
            return
        walk_data = None
        try:
            w = self.turn.current_walk(self.kb)
            walk_data = w.to_dict(self.lang) if w is not None else None
        except (WalkError, PlaceholderError):
            pass
        found = self.turn.facts_values()
        names = value_names(walk_data, found, self.turn.overrides)
        current = {**found, **self.turn.overrides}

        async def done(result: dict[str, str] | None) -> None:
            if result is None:
                return
            self.turn.set_values(
                {
                    k: v
                    for k, v in result.items()
                    if v != found.get(k, "") or k in self.turn.overrides
                }
            )
            await self.render_turn()
            self.save()
            self.notify(t(self.lang, "values.updated"))

        self.app.push_screen(ValuesScreen(self.lang, names, current, found), done)

    def action_history(self) -> None:
        async def done(session_id: str | None) -> None:
            if session_id:
                await self.reopen(session_id)

        self.app.push_screen(HistoryScreen(self.lang, self.app.history_dir), done)

    async def reopen(self, session_id: str) -> None:
        try:
            session = history.load_session(history.session_path(session_id, self.app.history_dir))
            turns = [TurnState.from_turn(turn) for turn in session.turns]
        except (OSError, history.SessionError, ValueError, TypeError) as exc:
            self.notify(
                t(self.lang, "history.open_failed", error=str(exc)), severity="error", markup=False
            )
            return
        await self.query(".turn").remove()
        self.query_one("#welcome").display = not session.turns
        self.app.session = session
        self.seq += 1
        for i, state in enumerate(turns):
            self.turn, self.turn_index = state, i
            box = Vertical(classes="turn")
            await self.conversation.mount(box)
            msg = UserMessage(state.query, self.lang)
            if state.answer is not None:
                msg.key_lines = state.answer.facts.key_lines
            answer_view = AnswerView(self.kb, self.lang, superseded=state.answer is None)
            await box.mount(msg, answer_view, WalkView(None, self.lang))
            if state.answer is not None:
                await self.render_turn(focus=i == len(turns) - 1)
            if i < len(turns) - 1:
                for view in box.query("AnswerView, WalkView"):
                    view.disabled = True
        self.prompt.recall = self.session_queries()
        self.notify(t(self.lang, "history.reopened"), timeout=3)

    def action_export(self) -> None:
        session = self.app.session
        if not session.turns:
            self.notify(t(self.lang, "export.nothing"), severity="warning")
            return

        def done(result) -> None:
            if result is None:
                return
            path, redact = result
            try:
                written = export_session(session, path, self.lang, redact)
            except OSError as exc:
                self.notify(
                    t(self.lang, "export.failed", error=str(exc)), severity="error", markup=False
                )
                return
            self.notify(t(self.lang, "exported", path=str(written)), markup=False)

        self.app.push_screen(ExportScreen(self.lang, default_export_path(session.id)), done)

    async def action_new(self) -> None:
        await self.query(".turn").remove()
        self.query_one("#welcome").display = True
        self.app.session = history.new_session(self.lang)
        self.turn, self.turn_index, self.walk_kind = None, -1, ""
        self.seq += 1
        self.prompt.set_list("", 0)
        self.prompt.recall = []
        self.update_placeholder()
        self.update_context()
        self.refresh_bindings()
        self.set_focus(self.prompt, scroll_visible=False)
