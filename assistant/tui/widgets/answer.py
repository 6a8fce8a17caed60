"""The match: the best entry with its confidence and why, the explanation, the other candidates
and the values found in the text — or, when nothing convinces, a plain "no confident match"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Collapsible, Static

from ...answer import context_hint, refusal_note, script_note
from ...strings import pairs, pct, t
from ...text.markdown import plain
from ..messages import CandidateChosen
from .base import RecomposingView
from .statusbar import ContextLines

if TYPE_CHECKING:
    from ...answer import Answer, Result
    from ...kb import KnowledgeBase

MAX_CANDIDATES = 3


def confidence_class(conf: float) -> str:
    return "conf-high" if conf >= 0.7 else "conf-mid" if conf >= 0.4 else "conf-low"


class CandidateLink(Static):
    """One candidate, one click (or Alt+N) away."""

    def __init__(self, entry_id: str, label: Text, **kwargs: Any) -> None:
        super().__init__(label, **kwargs)
        self.entry_id = entry_id

    def on_click(self) -> None:
        self.post_message(CandidateChosen(self.entry_id))


def context_lines(
    kb: KnowledgeBase | None, lang: str, answer: Answer | None, entry_id: str | None
) -> ContextLines | None:
    """The sticky header of the active turn, as (title, confidence, confidence class, second
    line): what matched and how sure, and why (the first reason) — or, when walking another entry,
    which one. None: no answer yet, or nothing matched and nothing is walked."""
    if answer is None or not answer.results:
        return None

    def title(eid: str, fallback: str) -> str:
        entry = kb.get(eid) if kb is not None else None
        return entry.title.get(lang) if entry else fallback

    best = answer.results[0]
    values = values_line(lang, answer, short=True)
    if answer.abstained:
        if not entry_id:
            return None
        head = Text(t(lang, "answer.chosen") + ": ", "bold")
        head.append(title(entry_id, entry_id))
        return ContextLines(head, t(lang, "answer.none"), "conf-low", Text(""), values)
    head = Text(title(best.id, best.title), "bold")
    head.append(f"  [{best.id}]", "dim")
    conf = t(lang, "answer.confident", pct=pct(best.confidence))
    if entry_id and entry_id != best.id:
        second = Text("→ " + t(lang, "answer.chosen") + ": ", "bold")
        second.append(title(entry_id, entry_id))
    else:
        second = Text(t(lang, "answer.why") + ": ", "bold")
        second.append(best.why[0] if best.why else "—")
    return ContextLines(head, conf, confidence_class(best.confidence), second, values)


def values_line(lang: str, answer: Answer | None, *, short: bool = False) -> Text | None:
    """The values found in the text ("Found in your text: k=v  k=v   (F6 edit values)"; `short`:
    "Found: k=v  k=v", the header's one row), or None when none was found."""
    values = dict(answer.values) if answer is not None else {}
    if not values:
        return None
    text = Text()
    text.append(t(lang, "answer.values_short" if short else "answer.values") + ": ", "bold")
    text.append(pairs(values, "  "))
    if not short:
        text.append(f"   ({t(lang, 'answer.edit_values')})", "dim")
    return text


class AnswerView(RecomposingView):
    """Attributes: `answer` (None while searching), `kb`, `lang`, `entry_id` (the entry being
    walked), `waiting` (the model is still loading), `superseded`."""

    def __init__(
        self,
        kb: KnowledgeBase | None,
        lang: str,
        answer: Answer | None = None,
        entry_id: str | None = None,
        waiting: bool = False,
        superseded: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.superseded = superseded  # asked, then overtaken by a newer question: never answered
        self.kb, self.lang, self.answer, self.entry_id, self.waiting = (
            kb,
            lang,
            answer,
            entry_id,
            waiting,
        )

    def _title(self, entry_id: str, fallback: str) -> str:
        entry = self.kb.get(entry_id) if self.kb is not None else None
        return entry.title.get(self.lang) if entry else fallback

    def compose(self) -> ComposeResult:
        a = self.answer
        if a is None:
            key = "answer.waiting" if self.waiting else "answer.searching"
            if self.superseded:
                key = "answer.superseded"
            yield Static(t(self.lang, key), classes="pending")
            return
        if not a.results:
            yield Static(t(self.lang, "answer.empty"), classes="abstain")
            return
        if a.abstained:
            # Refused for a reason of its own (a problem outside the guide, an unread script, a
            # look-alike error): the model's confidences would contradict "no confident match":
            # entries come without.
            note = refusal_note(a, self.lang)
            yield Static(t(self.lang, "answer.none"), classes="abstain")
            yield Static(t(self.lang, "answer.nearest"), classes="label")
            yield from self._candidates(a.results[:MAX_CANDIDATES], start=1, confidence=not note)
            # the notes quote the report's own words ("File system scheme '[local]'…"): never markup
            hint = note or context_hint(a.facts, self.lang)
            yield Static(Text(hint) if hint else t(self.lang, "answer.hint"), classes="hint")
            if self.entry_id:
                yield from self._chosen()
            return
        best = a.results[0]
        head = Text()
        head.append(self._title(best.id, best.title), "bold")
        head.append(f"  [{best.id}]", "dim")
        if best.source == "user":
            head.append(f"  ({t(self.lang, 'answer.yours')})", "italic")
        yield Static(t(self.lang, "answer.best"), classes="label")
        yield Static(head, classes="title")
        yield Static(
            Text(t(self.lang, "answer.confident", pct=pct(best.confidence))),
            classes=f"confidence {confidence_class(best.confidence)}",
        )
        if best.why:
            why = Text()
            for i, w in enumerate(best.why[:4]):
                why.append(("\n" if i else "") + "• " + w)
            yield Static(why, classes="why")
        entry = self.kb.get(best.id) if self.kb is not None else None
        if entry is not None:
            # Textual's Markdown widget imports markdown-it (~50 ms): not before an answer needs it.
            from textual.widgets import Markdown

            yield Static(Text(plain(entry.summary.get(self.lang))), classes="summary")
            with Collapsible(
                title=t(self.lang, "answer.explanation"), collapsed=True, classes="explanation"
            ):
                yield Markdown(entry.reading(self.lang))
        yield from self._values()
        if a.notes and a.facts.truncated:
            yield Static(t(self.lang, "answer.note_cut"), classes="hint")
        unread = script_note(a.facts, self.lang)
        if unread:
            yield Static(Text(unread), classes="hint")
        if len(a.results) > 1:
            yield Static(t(self.lang, "answer.others"), classes="label")
            yield from self._candidates(a.results[1:MAX_CANDIDATES], start=2)
        if self.entry_id and self.entry_id != best.id:
            yield from self._chosen()

    def _candidates(
        self, results: list[Result], start: int, confidence: bool = True
    ) -> ComposeResult:
        for n, r in enumerate(results, start=start):
            label = Text()
            label.append(f"alt+{n} ", "bold")
            label.append(self._title(r.id, r.title))
            if r.source == "user":
                label.append(f" ({t(self.lang, 'answer.yours')})", "italic")
            if confidence:
                label.append(f"  {pct(r.confidence)}", "dim")
            classes = "candidate" + (" chosen" if r.id == self.entry_id else "")
            yield CandidateLink(r.id, label, classes=classes)

    def _chosen(self) -> ComposeResult:
        entry_id = self.entry_id or ""
        text = Text(f"→ {t(self.lang, 'answer.chosen')}: ")
        text.append(self._title(entry_id, entry_id), "bold")
        yield Static(text, classes="chosen-line")

    def _values(self) -> ComposeResult:
        text = values_line(self.lang, self.answer)
        if text is None:
            yield Static(t(self.lang, "answer.values_none"), classes="values dim")
            return
        yield Static(text, classes="values")
