"""A session as Markdown: the question, the match, the answers given and the fix.

`redact=True` replaces project ids, IPs, emails, buckets and home paths by stable placeholders
(the same value gets the same placeholder across the whole document). Pure Python.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .answer import Answer, refusal_note
from .history import Session, Turn, atomic_write_text
from .redact import placeholder_for, redact_text
from .render import RenderedStep, fence, steps_markdown
from .strings import t

QUERY_LINES = 200  # lines of a pasted log kept in the export


def _query_block(query: str) -> str:
    lines = query.splitlines()
    if len(lines) <= QUERY_LINES:
        return query.rstrip("\n")
    return "\n".join(lines[:QUERY_LINES])


Redact = Callable[[str], str]


def _turn(turn: Turn, lang: str, r: Redact) -> list[str]:
    return _turn_body(turn, lang, r) + _outcome(turn, lang)


def _turn_body(turn: Turn, lang: str, r: Redact) -> list[str]:
    out = [f"## {t(lang, 'md.question')}", ""]
    lines = turn.query.splitlines()
    out += fence(r(_query_block(turn.query)), "text")
    if len(lines) > QUERY_LINES:
        out.append(f"_… {len(lines) - QUERY_LINES} {t(lang, 'md.more')}_")
    out.append("")
    answer = turn.answer or {}
    results = answer.get("results") or []
    confidence = t(lang, "md.confidence")
    out += [f"## {t(lang, 'md.match')}", ""]
    if answer.get("abstained"):
        out.append(t(lang, "answer.none"))
        # refused for a reason of its own (a problem outside the guide, an error caught as a
        # look-alike…): the model's confidences would contradict it, so the entries come without,
        # as in the TUI and the CLI
        reason = refusal_note(Answer.from_dict(answer), lang)
        if results:
            out += ["", f"{t(lang, 'md.nearest')}:"]
            out += [
                f"- {r(res.get('title', ''))} (`{res.get('id')}`"
                + ("" if reason else f", {confidence} {float(res.get('confidence', 0)):.0%}")
                + ")"
                for res in results[:3]
            ]
        if reason:
            out += ["", r(reason)]
        out.append("")
    elif results:
        best = results[0]
        out.append(
            f"**{r(best.get('title', ''))}** (`{best.get('id')}`) — {confidence} "
            f"{float(best.get('confidence', 0)):.0%}"
        )
        if best.get("why"):
            out += ["", f"{t(lang, 'md.why')}:"] + [f"- {r(w)}" for w in best["why"]]
        out.append("")
    walk = (
        (turn.walk or {}).get(lang)
        or (turn.walk or {}).get("en")
        or next(iter((turn.walk or {}).values()), None)
    )
    if turn.entry_id and (not results or results[0].get("id") != turn.entry_id):
        title = turn.titles.get(lang) or turn.titles.get("en") or turn.entry_id
        out += [f"→ **{r(title)}** (`{turn.entry_id}`)", ""]
    if turn.path:
        out += [f"## {t(lang, 'md.answers')}", ""]
        out += [f"- {node}: {r(value)}" for node, value in turn.path]
        out.append("")
    if turn.overrides:
        values = ", ".join(f"`{k}={r(v)}`" for k, v in turn.overrides.items())
        out += [f"{t(lang, 'md.values')}: {values}", ""]
    if not walk:
        return out
    if walk.get("advice"):
        out += [f"{t(lang, 'md.advice')}:"] + [f"- {r(a)}" for a in walk["advice"]] + [""]
    if walk.get("kind") == "question":
        out += [f"**{t(lang, 'md.open')}:** {r(walk.get('prompt', ''))}", ""]
        return out
    out += [f"## {t(lang, 'md.fix')}: {r(walk.get('title', ''))}", ""]
    steps = [RenderedStep.from_dict(s) for s in walk.get("steps") or [] if isinstance(s, dict)]
    out += steps_markdown(steps, lang, r)
    if walk.get("check"):
        out += [f"**{t(lang, 'md.check')}:** {r(walk['check'])}", ""]
    if walk.get("missing"):
        missing = ", ".join(f"`{m}`" for m in walk["missing"])
        out += [f"{t(lang, 'md.unfilled')}: {missing}", ""]
    return out


def _outcome(turn: Turn, lang: str) -> list[str]:
    """The answer to "did this fix it?", and each fix tried when there was more than one."""
    out: list[str] = []
    if turn.outcome:
        out += [f"**{t(lang, 'md.outcome')}:** {t(lang, f'outcome.{turn.outcome}')}", ""]
    if len(turn.feedback) > 1:
        out += [f"{t(lang, 'md.tried')}:"]
        out += [f"- `{key}`: {t(lang, f'outcome.{value}')}" for key, value in turn.feedback.items()]
        out.append("")
    return out


def session_markdown(session: Session, lang: str = "en", redact: bool = False) -> str:
    known: dict[str, str] = {}

    # Project ids the person typed, the input named or the TPU VM gave the walk (its saved values)
    # are redacted wherever they appear, not only after `--project=` or `projects/` (where
    # redact_text recognizes them by shape).
    projects = sorted(
        {
            v
            for turn in session.turns
            for v in [
                turn.overrides.get("project"),
                (turn.answer.get("values") or {}).get("project"),
                *((w.get("values") or {}).get("project") for w in (turn.walk or {}).values()),
            ]
            if v
        },
        key=len,
        reverse=True,
    )

    def r(text: str) -> str:
        if not redact:
            return str(text)
        text = redact_text(str(text), known)
        for value in projects:
            if value in text:
                text = text.replace(value, placeholder_for(value, "PROJECT", known))
        return text

    out = [f"# {t(lang, 'md.title')} — {session.created.replace('T', ' ')}", ""]
    for turn in session.turns:
        out += _turn(turn, lang, r)
    return "\n".join(out).rstrip() + "\n"


def export_session(session: Session, path: Path, lang: str = "en", redact: bool = False) -> Path:
    path = Path(path).expanduser()
    atomic_write_text(path, session_markdown(session, lang, redact))
    return path
